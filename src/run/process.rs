//! Running one Gradle invocation as a child we can always stop.
//!
//! Gradle does not keep a build inside one process group. Measured on Gradle
//! 4.4.1: a daemon (persistent, or the single-use one `--no-daemon` forks when
//! `org.gradle.jvmargs` differ from the client's) calls `setsid`, so it and its
//! test workers sit in a session of their own, and killing the client's process
//! group leaves them running. A shared persistent daemon is worse: it may serve
//! other builds and is not our descendant at all.
//!
//! So the runner (1) never lets Gradle use a shared daemon ([`Isolation`]): on
//! Linux it gets a private daemon registered in the run folder, elsewhere
//! `--no-daemon`; (2) on Linux becomes a child subreaper, so processes orphaned
//! by an exiting client (the daemon, its workers) are re-parented to us instead
//! of init and stay our descendants; (3) stops a batch by signalling every
//! descendant (SIGTERM, a short grace, then SIGKILL) until none is left. The
//! child also gets its own process group so that the terminal's Ctrl-C reaches
//! only gradle-flaky, which then stops the build in order and reports.
//!
//! gradle-flaky runs one child at a time, so "every descendant" is exactly the
//! current batch, its private daemon, and anything an earlier batch leaked.

use crate::{Error, Result};
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::thread;
use std::time::{Duration, Instant};

/// How often a running child is checked for exit, timeout and Ctrl-C.
const POLL: Duration = Duration::from_millis(100);
/// How long the processes of a stopped batch get to exit after SIGTERM.
const GRACE: Duration = Duration::from_secs(3);
/// How long we keep killing after the grace period.
const KILL_WAIT: Duration = Duration::from_secs(60);

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// Makes gradle-flaky the supervisor of its children: Ctrl-C (SIGINT), SIGTERM and
/// SIGHUP set a flag instead of killing us, and on Linux orphaned descendants are
/// re-parented to us. A second signal while we are already stopping exits at once
/// with 130. Idempotent.
pub fn supervise() {
    INSTALL.call_once(|| {
        for signal in [
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
        ] {
            // The shutdown action must be registered first: it sees the flag as it
            // was before this very signal set it.
            let _ = signal_hook::flag::register_conditional_shutdown(signal, 130, &INTERRUPTED);
            let _ = signal_hook::flag::register(signal, &INTERRUPTED);
        }
        #[cfg(target_os = "linux")]
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only changes a flag of this process.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// Whether the user asked us to stop (Ctrl-C, SIGTERM, SIGHUP).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The main class of a Gradle daemon, persistent or single-use.
const DAEMON_MAIN: &str = "org.gradle.launcher.daemon.bootstrap.GradleDaemon";
/// A private daemon left behind by a crash of ours stops itself after this.
const DAEMON_IDLE: Duration = Duration::from_secs(600);

/// How every process of a Gradle build is kept ours (see the module comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// `--no-daemon`: the build runs in the client or a single-use daemon.
    NoDaemon,
    /// A daemon of our own, registered in this folder: never shared with the
    /// user's builds, kept warm from one invocation to the next (no JVM start
    /// and cold configuration each time), and our descendant because we are a
    /// subreaper, so a timeout still stops it with its workers.
    PrivateDaemon(PathBuf),
}

impl Isolation {
    /// For a run of `invocations` Gradle invocations: a private daemon
    /// registered under `dir` when there is more than one to share it and
    /// orphans stay ours (Linux); otherwise no daemon, which for one invocation
    /// is also faster (measured: about 1 s less than starting a daemon). The
    /// path is made absolute: the daemon does not run in the client's directory.
    pub fn for_run(invocations: u32, dir: &Path) -> Isolation {
        match std::path::absolute(dir) {
            Ok(dir) if invocations > 1 && cfg!(target_os = "linux") => {
                Isolation::PrivateDaemon(dir)
            }
            _ => Isolation::NoDaemon,
        }
    }

    /// `argv` with the arguments that keep a Gradle build ours, right after the
    /// program; other programs are left alone. `--no-daemon` in `argv` wins;
    /// `--daemon` (which would use a shared daemon) is refused without a
    /// private one.
    pub fn apply(&self, argv: &[String]) -> Result<Vec<String>> {
        let Some((program, args)) = argv.split_first() else {
            return Err(Error::usage("no command to run"));
        };
        let name = Path::new(program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // gradle-flaky itself (a batch that runs `gradle-flaky repeat`) isolates
        // the Gradle it starts; it must not be handed Gradle's options.
        let is_gradle = name.starts_with("gradle") && name != "gradle-flaky";
        if !is_gradle || args.iter().any(|a| a == "--no-daemon") {
            return Ok(argv.to_vec());
        }
        let mut out = vec![program.clone()];
        match self {
            Isolation::NoDaemon if args.iter().any(|a| a == "--daemon") => {
                return Err(Error::usage(
                    "--daemon is not supported here: a shared Gradle daemon would keep running \
                     the build after a timeout or Ctrl-C",
                ))
            }
            Isolation::NoDaemon => out.push("--no-daemon".into()),
            Isolation::PrivateDaemon(registry) => {
                // Even where gradle.properties says org.gradle.daemon=false.
                out.push("--daemon".into());
                out.push(format!(
                    "-Dorg.gradle.daemon.registry.base={}",
                    registry.display()
                ));
                out.push(format!(
                    "-Dorg.gradle.daemon.idletimeout={}",
                    DAEMON_IDLE.as_millis()
                ));
            }
        }
        out.extend(args.iter().cloned());
        Ok(out)
    }
}

/// Where the child's stdout and stderr go.
#[derive(Clone, Copy)]
pub enum Output<'a> {
    /// Our own stdout and stderr (the `repeat` command, like the reference script).
    Inherit,
    /// Appended to a log file.
    Log(&'a File),
    /// Appended to a log file and copied to our stderr (`--verbose`).
    Tee(&'a File),
}

/// How a child run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Exited with this code.
    Exited(i32),
    /// Killed by this signal, not by us.
    Signalled(i32),
    /// Ran past its time limit; we stopped it.
    TimedOut,
    /// The user interrupted; we stopped it.
    Interrupted,
}

impl Ended {
    pub fn success(&self) -> bool {
        *self == Ended::Exited(0)
    }
}

/// Runs `argv` (program first, no shell) in `cwd` until it exits, `timeout`
/// passes, or the user interrupts. In the last two cases every descendant
/// process is stopped before returning. Leftovers of a child that exited by
/// itself are stopped too, and their number returned in `leftovers`.
pub fn run(
    argv: &[String],
    cwd: &Path,
    output: Output<'_>,
    timeout: Option<Duration>,
) -> Result<Run> {
    let Some((program, args)) = argv.split_first() else {
        return Err(Error::usage("no command to run"));
    };
    // `./gradlew` means the project's wrapper, whatever our own directory is;
    // made absolute because whether a relative program is looked up before or
    // after the child changes directory is unspecified.
    let program = if program.contains('/') && Path::new(program).is_relative() {
        std::path::absolute(cwd.join(program))
            .map_err(|e| Error::io(cwd, e))?
            .to_string_lossy()
            .into_owned()
    } else {
        program.clone()
    };
    let program = program.as_str();
    let mut cmd = std::process::Command::new(program);
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .process_group(0);
    let mut copiers = Vec::new();
    match output {
        Output::Inherit => {}
        Output::Log(log) => {
            cmd.stdout(clone(log)?).stderr(clone(log)?);
        }
        Output::Tee(_) => {
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        }
    }
    let mut child = cmd.spawn().map_err(|e| spawn_error(program, e))?;
    if let Output::Tee(log) = output {
        let out = child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>);
        let err = child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>);
        for stream in [out, err].into_iter().flatten() {
            let log = clone(log)?;
            copiers.push(thread::spawn(move || tee(stream, log)));
        }
    }
    let started = Instant::now();
    let ended = loop {
        if let Some(status) = child.try_wait().map_err(|e| Error::io(program, e))? {
            break match (status.code(), status.signal()) {
                (Some(code), _) => Ended::Exited(code),
                (None, Some(sig)) => Ended::Signalled(sig),
                (None, None) => Ended::Exited(1),
            };
        }
        if interrupted() {
            stop_all(Some(&mut child), false);
            break Ended::Interrupted;
        }
        if timeout.is_some_and(|t| started.elapsed() >= t) {
            stop_all(Some(&mut child), false);
            break Ended::TimedOut;
        }
        thread::sleep(POLL);
    };
    // A build that exited by itself may still leave processes behind (a test
    // cluster node, a worker); the next batch must start from nothing but our
    // private daemon, which is there to be reused.
    let leftovers = stop_all(None, true);
    for c in copiers {
        let _ = c.join();
    }
    Ok(Run {
        ended,
        elapsed: started.elapsed(),
        leftovers,
    })
}

/// The result of [`run`].
#[derive(Clone, Debug)]
pub struct Run {
    pub ended: Ended,
    pub elapsed: Duration,
    /// Descendant processes still alive after the child exited by itself, which we stopped.
    pub leftovers: usize,
}

fn clone(log: &File) -> Result<File> {
    log.try_clone().map_err(|e| Error::io("log file", e))
}

fn spawn_error(program: &str, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::NotFound {
        Error::GradleNotFound(format!(
            "cannot run `{program}`: not found (set --gradle or put gradle on PATH)"
        ))
    } else {
        Error::io(program, e)
    }
}

/// Copies a child's stream to our stderr and to the log, until it closes.
fn tee(mut from: Box<dyn Read + Send>, mut log: File) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        let _ = log.write_all(&buf[..n]);
        let _ = std::io::stderr().write_all(&buf[..n]);
    }
}

/// Stops every process we started, private Gradle daemons included (the end
/// of a run).
pub fn stop_everything() {
    stop_all(None, false);
}

/// Stops every descendant of this process (but Gradle daemons and theirs when
/// `spare_daemons`): SIGTERM, up to [`GRACE`] to exit, then SIGKILL until none
/// is left. Reaps `child` and any orphan re-parented to us. Returns how many
/// processes were alive when it began.
fn stop_all(child: Option<&mut Child>, spare_daemons: bool) -> usize {
    let me = std::process::id();
    let targets = || tree::alive_descendants(me, spare_daemons);
    let first = targets();
    let count = first.len();
    if count > 0 {
        tree::signal(&first, libc::SIGTERM);
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline && !targets().is_empty() {
            tree::reap_orphans(me, child.as_ref().map(|c| c.id()));
            thread::sleep(POLL);
        }
        // Until the tree is empty: new processes may appear while we kill (a
        // daemon forking a worker), and a killed JVM with a big heap can take
        // seconds to go on a loaded machine. SIGKILL cannot be ignored, so the
        // bound only guards against a process stuck in the kernel.
        let deadline = Instant::now() + KILL_WAIT;
        while Instant::now() < deadline {
            let left = targets();
            if left.is_empty() {
                break;
            }
            tree::signal(&left, libc::SIGKILL);
            tree::reap_orphans(me, child.as_ref().map(|c| c.id()));
            thread::sleep(Duration::from_millis(20));
        }
    }
    if let Some(child) = child {
        let _ = child.wait();
    }
    tree::reap_orphans(me, None);
    count
}

/// The process table, read from /proc on Linux and from `ps` elsewhere.
mod tree {
    use std::collections::{BTreeMap, BTreeSet};

    /// One process: its parent, whether it is a zombie (dead, not yet reaped)
    /// and whether it is a Gradle daemon.
    struct Proc {
        ppid: u32,
        zombie: bool,
        daemon: bool,
    }

    #[cfg(target_os = "linux")]
    fn table() -> BTreeMap<u32, Proc> {
        let mut out = BTreeMap::new();
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return out;
        };
        for entry in dir.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
                continue;
            };
            // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                continue;
            };
            let mut fields = rest.split_whitespace();
            let state = fields.next().unwrap_or("");
            if let Some(ppid) = fields.next().and_then(|s| s.parse().ok()) {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                let daemon = cmdline
                    .split(|b| *b == 0)
                    .any(|arg| arg == super::DAEMON_MAIN.as_bytes());
                out.insert(
                    pid,
                    Proc {
                        ppid,
                        zombie: state == "Z",
                        daemon,
                    },
                );
            }
        }
        out
    }

    #[cfg(not(target_os = "linux"))]
    fn table() -> BTreeMap<u32, Proc> {
        let mut out = BTreeMap::new();
        let Ok(ps) = std::process::Command::new("ps")
            .args(["-A", "-o", "pid=", "-o", "ppid=", "-o", "stat="])
            .output()
        else {
            return out;
        };
        for line in String::from_utf8_lossy(&ps.stdout).lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if let [pid, ppid, stat, ..] = f[..] {
                if let (Ok(pid), Ok(ppid)) = (pid.parse(), ppid.parse()) {
                    // No private daemon off Linux (see `Isolation::for_run`).
                    out.insert(
                        pid,
                        Proc {
                            ppid,
                            zombie: stat.starts_with('Z'),
                            daemon: false,
                        },
                    );
                }
            }
        }
        out
    }

    /// Descendants of `root`, not entering daemons when `spare_daemons`.
    fn descendants(table: &BTreeMap<u32, Proc>, root: u32, spare_daemons: bool) -> BTreeSet<u32> {
        let mut found = BTreeSet::new();
        let mut frontier = vec![root];
        while let Some(parent) = frontier.pop() {
            for (&pid, p) in table {
                if p.ppid == parent && !(spare_daemons && p.daemon) && found.insert(pid) {
                    frontier.push(pid);
                }
            }
        }
        found
    }

    /// Descendants of `root` that are still running (but Gradle daemons and
    /// theirs when `spare_daemons`).
    pub fn alive_descendants(root: u32, spare_daemons: bool) -> Vec<u32> {
        let t = table();
        descendants(&t, root, spare_daemons)
            .into_iter()
            .filter(|pid| !t[pid].zombie)
            .collect()
    }

    pub fn signal(pids: &[u32], sig: libc::c_int) {
        for &pid in pids {
            // SAFETY: kill(2) with a positive pid signals that one process.
            unsafe {
                libc::kill(pid as libc::pid_t, sig);
            }
        }
    }

    /// Reaps our dead direct children except `keep` (the `std::process::Child`,
    /// which must be reaped through its own handle).
    pub fn reap_orphans(me: u32, keep: Option<u32>) {
        for (pid, p) in table() {
            if p.ppid == me && p.zombie && Some(pid) != keep {
                // SAFETY: waitpid on a specific zombie child of ours; WNOHANG never blocks.
                unsafe {
                    libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), libc::WNOHANG);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn gradle_runs_without_a_shared_daemon() {
        let none = Isolation::NoDaemon;
        assert_eq!(
            none.apply(&argv(&["./gradlew", ":a:test"])).unwrap(),
            argv(&["./gradlew", "--no-daemon", ":a:test"])
        );
        assert!(none.apply(&argv(&["gradle", "--daemon"])).is_err());
        let private = Isolation::PrivateDaemon(PathBuf::from("/r/daemon"));
        assert_eq!(
            private.apply(&argv(&["gradle", ":a:test"])).unwrap(),
            argv(&[
                "gradle",
                "--daemon",
                "-Dorg.gradle.daemon.registry.base=/r/daemon",
                "-Dorg.gradle.daemon.idletimeout=600000",
                ":a:test"
            ])
        );
        for iso in [none, private] {
            assert_eq!(
                iso.apply(&argv(&["gradle", "--no-daemon", ":a:test"]))
                    .unwrap(),
                argv(&["gradle", "--no-daemon", ":a:test"])
            );
            assert_eq!(
                iso.apply(&argv(&["/bin/sh", "x.sh"])).unwrap(),
                argv(&["/bin/sh", "x.sh"])
            );
            let repeat = argv(&[
                "/usr/bin/gradle-flaky",
                "repeat",
                "--times",
                "2",
                "--",
                "gradle",
            ]);
            assert_eq!(iso.apply(&repeat).unwrap(), repeat);
            assert!(iso.apply(&[]).is_err());
        }
    }

    #[test]
    fn a_private_daemon_only_when_invocations_share_it() {
        assert_eq!(Isolation::for_run(1, Path::new("d")), Isolation::NoDaemon);
        let shared = Isolation::for_run(2, Path::new("d"));
        if cfg!(target_os = "linux") {
            let dir = std::env::current_dir().unwrap().join("d");
            assert_eq!(shared, Isolation::PrivateDaemon(dir));
        } else {
            assert_eq!(shared, Isolation::NoDaemon);
        }
    }

    /// Runs `sh -c script` in `dir` as a supervised child, its output logged
    /// (or, with `tee`, also copied to stderr) to `dir/log`.
    fn sh(dir: &Path, script: &str, tee: bool, timeout: Option<Duration>) -> Run {
        supervise();
        let log = File::create(dir.join("log")).unwrap();
        let output = if tee {
            Output::Tee(&log)
        } else {
            Output::Log(&log)
        };
        run(&argv(&["sh", "-c", script]), dir, output, timeout).unwrap()
    }

    fn log_of(dir: &Path) -> String {
        std::fs::read_to_string(dir.join("log")).unwrap()
    }

    #[test]
    fn a_private_daemon_outlives_its_build_but_not_the_run() {
        let dir = tempfile::tempdir().unwrap();
        // A stand-in daemon: `sleep` under the daemon's main class name, in a
        // session of its own. The child exits once it shows that name (setsid
        // and bash exec in place, so `$!` is its pid throughout).
        let script = format!(
            "setsid bash -c 'exec -a {DAEMON_MAIN} sleep 300' & \
             until tr '\\0' ' ' < /proc/$!/cmdline | grep -q '^{DAEMON_MAIN} '; do sleep 0.05; done"
        );
        let r = sh(dir.path(), &script, false, None);
        assert_eq!(r.leftovers, 0);
        let me = std::process::id();
        assert_eq!(tree::alive_descendants(me, false).len(), 1);
        assert!(tree::alive_descendants(me, true).is_empty());
        stop_everything();
        assert!(tree::alive_descendants(me, false).is_empty());
    }

    #[test]
    fn exit_codes_and_signals_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let r = sh(dir.path(), "echo hello; exit 7", false, None);
        assert_eq!(r.ended, Ended::Exited(7));
        assert_eq!(log_of(dir.path()), "hello\n");
        let r = sh(dir.path(), "kill -9 $$", false, None);
        assert_eq!(r.ended, Ended::Signalled(9));
    }

    #[test]
    fn tee_keeps_both_streams_in_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let r = sh(dir.path(), "echo out; echo err >&2", true, None);
        assert!(r.ended.success());
        let mut lines: Vec<String> = log_of(dir.path()).lines().map(String::from).collect();
        lines.sort();
        assert_eq!(lines, ["err", "out"]);
    }

    #[test]
    fn a_relative_program_is_found_in_the_working_directory() {
        // A relative working directory too, as `--project-dir build ... ./gradlew` gives.
        let dir = tempfile::tempdir_in(".").unwrap();
        let rel = dir
            .path()
            .strip_prefix(std::env::current_dir().unwrap())
            .unwrap();
        let script = dir.path().join("gradlew");
        std::fs::write(&script, "#!/bin/sh\nexit 5\n").unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let r = run(&argv(&["./gradlew"]), rel, Output::Inherit, None).unwrap();
        assert_eq!(r.ended, Ended::Exited(5));
    }

    #[test]
    fn a_missing_program_is_gradle_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let program = argv(&["/nonexistent/gradlew"]);
        let err = run(&program, dir.path(), Output::Inherit, None).unwrap_err();
        assert_eq!(err.exit(), crate::Exit::Infra);
    }

    /// The shape of the Gradle problem: a grandchild in a session of its own
    /// (as a daemon is) must die with the batch at its time limit.
    #[test]
    fn a_timeout_stops_descendants_in_other_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let script = format!(
            "setsid sh -c 'echo $$ > {}; exec sleep 300' & wait",
            pidfile.display()
        );
        let r = sh(dir.path(), &script, false, Some(Duration::from_secs(2)));
        assert_eq!(r.ended, Ended::TimedOut);
        let pid: i32 = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: signal 0 only checks whether the process exists.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        assert!(!alive, "grandchild {pid} survived the timeout");
    }

    #[test]
    fn leftovers_of_a_finished_child_are_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let r = sh(dir.path(), "setsid sleep 300 & exit 0", false, None);
        assert_eq!(r.ended, Ended::Exited(0));
        assert_eq!(r.leftovers, 1);
        assert!(tree::alive_descendants(std::process::id(), false).is_empty());
    }
}
