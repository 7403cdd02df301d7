//! Running one Gradle invocation as a child we can always stop: process
//! supervision, a leaf that the layout reader, the runners, triage and the CI
//! batch runner share.
//!
//! By default a build runs on the user's own Gradle daemon ([`Isolation::Shared`]),
//! as `./gradlew` typed by hand would: warm, so an invocation costs what it
//! costs by hand. Such a build is stopped (time limit, Ctrl-C) the way
//! [`daemon`] explains: the client is interrupted, so the daemon cancels
//! the build, and the daemon's test JVMs of this build are stopped; the daemon
//! stays, warm. A client that dies by itself is followed the same way, so no
//! build of ours still runs (or writes reports) once [`run`] returns.
//!
//! The isolated modes (`--isolate`, and Buildkite batches) never let Gradle use
//! a shared daemon: on Linux a private daemon registered in the run folder when
//! invocations can share it, else `--no-daemon`. Measured on Gradle 4.4.1, a
//! daemon (persistent, or the single-use one `--no-daemon` forks when
//! `org.gradle.jvmargs` differ from the client's) calls `setsid`, so killing the
//! client's process group leaves it and its test workers running; so on Linux
//! the runner is a child subreaper (processes orphaned by an exiting client stay
//! our descendants instead of going to init), and an isolated build is stopped
//! by signalling every descendant (SIGTERM, a short grace, then SIGKILL) until
//! none is left.
//!
//! Every child gets its own process group, so that the terminal's Ctrl-C
//! reaches only gradle-flaky, which then stops the build in order and reports.
//! Any number of signals may come: the first starts the orderly stop, a later
//! one hurries it (SIGKILL at once), and the process tree is gone before the
//! run returns either way. gradle-flaky runs one child at a time, so "every
//! descendant" is exactly the current build, a private daemon, and anything an
//! earlier build leaked.

mod daemon;
mod tree;

use crate::{Error, Result};
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Once, OnceLock};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

/// How often a running child is checked for exit, timeout and signals.
const POLL: Duration = Duration::from_millis(20);
/// How often, until found, we look for the daemon a shared-mode client talks to.
const LOOKUP_EVERY: Duration = Duration::from_millis(500);
/// How long the processes of a stopped batch get to exit after SIGTERM (and
/// an interrupted client after SIGINT).
const GRACE: Duration = Duration::from_secs(3);
/// How long we keep killing after the grace period.
const KILL_WAIT: Duration = Duration::from_secs(60);

/// SIGINT, SIGTERM and SIGHUP received so far.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
static INSTALL: Once = Once::new();

/// Makes gradle-flaky the supervisor of its children: Ctrl-C (SIGINT), SIGTERM
/// and SIGHUP are counted instead of killing us (the first asks for an orderly
/// stop, any later one hurries it), and on Linux orphaned descendants are
/// re-parented to us. Idempotent; [`run`] calls it too.
pub(crate) fn supervise() {
    INSTALL.call_once(|| {
        for signal in [
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
        ] {
            // SAFETY: the action only increments an atomic, which is
            // async-signal-safe.
            let _ = unsafe {
                signal_hook::low_level::register(signal, || {
                    SIGNALS.fetch_add(1, Ordering::SeqCst);
                })
            };
        }
        #[cfg(target_os = "linux")]
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only changes a flag of this process.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// Whether the user asked us to stop (Ctrl-C, SIGTERM, SIGHUP).
pub(crate) fn interrupted() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}

/// Whether a further signal asked us to stop faster: no grace periods.
pub(crate) fn hurried() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 1
}

/// This run's id, `<UTC time>-<pid>`: the name of the run folder, and the
/// value of [`RUN_PROPERTY`] on every Gradle client the run starts.
pub(crate) fn run_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let stamp: String = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .chars()
            .filter(|c| !matches!(c, '-' | ':'))
            .collect();
        format!("{stamp}-{}", std::process::id())
    })
}

/// The system property that marks our Gradle clients (`ps` tells them apart
/// from the user's). It is not a JVM argument, so the daemon is reused; builds
/// do not pass it on to test JVMs, but `gradle/flaky-run-mark.gradle` turns it
/// into their [`vars::RUN_MARK`](crate::vars::RUN_MARK) variable.
pub(crate) const RUN_PROPERTY: &str = "gradle-flaky.run";

/// `-Dgradle-flaky.run=<run id>`, the argument that marks our Gradle clients
/// and (through `gradle/flaky-run-mark.gradle`) their test JVMs.
pub(crate) fn run_marker() -> String {
    format!("-D{RUN_PROPERTY}={}", run_id())
}

/// A private daemon left behind by a crash of ours stops itself after this.
const DAEMON_IDLE: Duration = Duration::from_secs(600);

/// How the processes of a Gradle build are kept ours (see the module comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// The user's own daemon, as a hand-typed `./gradlew` would use (or none,
    /// when their arguments or gradle.properties say so): warm, and stopped
    /// through Gradle's cancellation plus our test JVMs, never the daemon.
    Shared,
    /// `--no-daemon`: the build runs in the client or a single-use daemon.
    NoDaemon,
    /// A daemon of our own, registered in this folder: never shared with the
    /// user's builds, kept warm from one invocation to the next, and our
    /// descendant because we are a subreaper, so a timeout still stops it with
    /// its workers.
    PrivateDaemon(PathBuf),
}

/// Why a run that asked for the user's daemon is isolated instead.
pub(crate) const NO_SHARED_DAEMON_HERE: &str =
    "the user's Gradle daemon is used on Linux only (a stopped build's test JVMs are found \
     through /proc); Gradle runs isolated here, as with --isolate";

/// Whether `program` runs Gradle (`gradle`, `./gradlew`, a path to one):
/// only Gradle is handed Gradle's options and init scripts. gradle-flaky
/// itself (a batch that runs `gradle-flaky repeat`) isolates the Gradle it
/// starts; another program (a hand-written batch) runs as given.
pub(crate) fn is_gradle(program: &str) -> bool {
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.starts_with("gradle") && name != "gradle-flaky"
}

impl Isolation {
    /// For a run of `invocations` Gradle invocations: the user's daemon unless
    /// `isolate` (or off Linux, which the note returned says). Isolated: a
    /// private daemon registered under `dir` when there is more than one
    /// invocation to share it and orphans stay ours (Linux); otherwise no
    /// daemon, which for one invocation is also faster (measured: about 1 s
    /// less than starting a daemon). The path is made absolute: the daemon
    /// does not run in the client's directory.
    pub fn choose(
        isolate: bool,
        invocations: u32,
        dir: &Path,
    ) -> (Isolation, Option<&'static str>) {
        let linux = cfg!(target_os = "linux");
        if !isolate && linux {
            return (Isolation::Shared, None);
        }
        let note = (!isolate).then_some(NO_SHARED_DAEMON_HERE);
        let isolation = match std::path::absolute(dir) {
            Ok(dir) if invocations > 1 && linux => Isolation::PrivateDaemon(dir),
            _ => Isolation::NoDaemon,
        };
        (isolation, note)
    }

    pub fn is_shared(&self) -> bool {
        *self == Isolation::Shared
    }

    /// Where Gradle runs, in a few words.
    pub fn describe(&self) -> &'static str {
        match self {
            Isolation::Shared => "on the user's Gradle daemon",
            Isolation::NoDaemon => "isolated, --no-daemon",
            Isolation::PrivateDaemon(_) => "isolated, on a private daemon",
        }
    }

    /// `argv` with the run's marker and the arguments that keep a Gradle build
    /// ours, right after the program; other programs are left alone.
    /// `--no-daemon` in `argv` wins; isolated, `--daemon` (which would use a
    /// shared daemon) is refused without a private one.
    pub fn apply(&self, argv: &[String]) -> Result<Vec<String>> {
        let Some((program, args)) = argv.split_first() else {
            return Err(Error::usage("no command to run"));
        };
        if !is_gradle(program) {
            return Ok(argv.to_vec());
        }
        let mut out = vec![program.clone(), run_marker()];
        let no_daemon = args.iter().any(|a| a == "--no-daemon");
        match self {
            _ if no_daemon => {}
            Isolation::Shared => {}
            Isolation::NoDaemon if args.iter().any(|a| a == "--daemon") => {
                return Err(Error::usage(
                    "--daemon is not supported with --isolate here: a shared Gradle daemon would \
                     not be isolated from your own builds",
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
pub(crate) enum Output<'a> {
    /// Our own stdout and stderr (the `repeat` command, like Elasticsearch's
    /// `repeat-rest-test.sh`).
    Inherit,
    /// Appended to a log file.
    Log(&'a File),
    /// Appended to a log file and copied to our stderr (`--verbose`).
    Tee(&'a File),
}

/// How a child run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
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
    pub(crate) fn success(&self) -> bool {
        *self == Ended::Exited(0)
    }
}

/// Runs `argv` (program first, no shell, already [`Isolation::apply`]'d) in
/// `cwd` until it exits, `timeout` passes, or the user interrupts; the build is
/// stopped as `isolation` requires. Leftovers of a child that exited by itself
/// are stopped too, and their number returned in `leftovers`.
pub(crate) fn run(
    argv: &[String],
    cwd: &Path,
    output: Output<'_>,
    timeout: Option<Duration>,
    isolation: &Isolation,
) -> Result<Run> {
    supervise();
    let (mut child, copiers, program) = spawn(argv, cwd, output)?;
    let started = Instant::now();
    let mut watch = Watched {
        shared: isolation.is_shared(),
        // Test JVMs a daemon started before this are not of this build.
        since: tree::start_ticks(child.id()).unwrap_or_else(tree::now_ticks),
        cwd,
        daemon: None,
        notes: Vec::new(),
    };
    let ended = watch.until_ended(&mut child, &program, started, timeout)?;
    watch.after(&ended);
    // A build that exited by itself may still leave processes behind (a test
    // cluster node, a worker); the next batch must start from nothing but a
    // daemon, which is there to be reused (none is, without a daemon: a
    // lingering single-use one goes too).
    if isolation.is_shared() {
        tree::remember_users_daemons(std::process::id());
    }
    let leftovers = stop_all(None, *isolation != Isolation::NoDaemon);
    for c in copiers {
        let _ = c.join();
    }
    Ok(Run {
        ended,
        elapsed: started.elapsed(),
        leftovers,
        notes: watch.notes,
    })
}

/// Starts `argv` in `cwd`, in a process group of its own, its output where
/// `output` says (copied by the threads returned, when teed); with the
/// program as started.
fn spawn(
    argv: &[String],
    cwd: &Path,
    output: Output<'_>,
) -> Result<(Child, Vec<thread::JoinHandle<()>>, String)> {
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
    let mut cmd = std::process::Command::new(&program);
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .process_group(0);
    match output {
        Output::Inherit => {}
        Output::Log(log) => {
            cmd.stdout(clone(log)?).stderr(clone(log)?);
        }
        Output::Tee(_) => {
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        }
    }
    let mut child = cmd.spawn().map_err(|e| spawn_error(&program, e))?;
    let mut copiers = Vec::new();
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
    Ok((child, copiers, program))
}

/// A running build, watched until it ends or must be stopped.
struct Watched<'a> {
    /// On the user's daemon: stopped through Gradle's cancellation.
    shared: bool,
    /// When the client started, in the process table's ticks.
    since: u64,
    cwd: &'a Path,
    /// The daemon the client talks to, once found.
    daemon: Option<u32>,
    /// What stopping the build took, when that was not plain.
    notes: Vec<String>,
}

impl Watched<'_> {
    /// Polls the child until it exits, its time passes or we are interrupted
    /// (then the build is stopped as its isolation requires).
    fn until_ended(
        &mut self,
        child: &mut Child,
        program: &str,
        started: Instant,
        timeout: Option<Duration>,
    ) -> Result<Ended> {
        let mut next_lookup = started + LOOKUP_EVERY;
        loop {
            if let Some(status) = child.try_wait().map_err(|e| Error::io(program, e))? {
                return Ok(match (status.code(), status.signal()) {
                    (Some(code), _) => Ended::Exited(code),
                    (None, Some(sig)) => Ended::Signalled(sig),
                    (None, None) => Ended::Exited(1),
                });
            }
            // Found while the client runs: once it is gone, so is its connection.
            if self.shared && self.daemon.is_none() && Instant::now() >= next_lookup {
                self.daemon = serving_daemon(child.id());
                next_lookup = Instant::now() + LOOKUP_EVERY;
            }
            let stop = if interrupted() {
                Some(Ended::Interrupted)
            } else if timeout.is_some_and(|t| started.elapsed() >= t) {
                Some(Ended::TimedOut)
            } else {
                None
            };
            if let Some(why) = stop {
                if self.shared {
                    cancel(child, self.daemon, self.since, self.cwd, &mut self.notes);
                } else {
                    stop_all(Some(child), false);
                }
                return Ok(why);
            }
            thread::sleep(POLL);
        }
    }

    /// A client that ended by itself while its build still ran (killed from
    /// outside, crashed) leaves that build in the daemon, whose reports would
    /// then land in the next invocation's: it is stopped now.
    fn after(&mut self, ended: &Ended) {
        let (Some(d), Ended::Exited(_) | Ended::Signalled(_)) = (self.daemon, ended) else {
            return;
        };
        let killed = matches!(ended, Ended::Signalled(_));
        let ours = daemon::test_executors(&tree::table(), d, self.since, run_id());
        if killed || !ours.is_empty() {
            let swept = daemon::sweep(d, self.since, run_id(), self.cwd, &hurried, &mut || true);
            self.notes
                .extend(sweep_notes(d, &swept, "its client ended while it ran"));
        }
    }
}

/// The daemon the client `client` (or a process it started, e.g. a wrapper
/// script's JVM) is connected to.
fn serving_daemon(client: u32) -> Option<u32> {
    let table = tree::table();
    let mut clients: Vec<u32> = tree::descendants(&table, client, true)
        .into_iter()
        .collect();
    clients.push(client);
    daemon::serving(&table, &clients)
}

/// Stops a build on the user's daemon: the daemon it runs on is looked up
/// (at the latest now, while the client still holds its connection), the
/// client is interrupted (SIGINT to its process group, as a terminal's Ctrl-C:
/// the daemon cancels the build, no further task starts), and this build's
/// test JVMs are stopped until the daemon has none. The order matters: killing
/// test JVMs alone lets `--continue` start the next Test task.
fn cancel(
    child: &mut Child,
    daemon: Option<u32>,
    since: u64,
    build_dir: &Path,
    notes: &mut Vec<String>,
) {
    let client = child.id();
    let daemon = daemon.or_else(|| serving_daemon(client));
    let signalled = Instant::now();
    tree::signal_group(
        client,
        if hurried() {
            libc::SIGKILL
        } else {
            libc::SIGINT
        },
    );
    // The client exits within a second of SIGINT (measured); past the grace,
    // or when hurried, it is killed.
    let mut client_done = || match child.try_wait() {
        Ok(Some(_)) | Err(_) => true,
        Ok(None) => {
            if hurried() || signalled.elapsed() >= GRACE {
                tree::signal_group(client, libc::SIGKILL);
            }
            false
        }
    };
    match daemon {
        Some(d) => {
            let swept = daemon::sweep(d, since, run_id(), build_dir, &hurried, &mut client_done);
            notes.extend(sweep_notes(d, &swept, "the build was cancelled"));
        }
        // Not connected to a daemon (yet, or ever: a build in the client
        // itself): what it started is ours, and the leftover sweep stops it.
        None => {
            while !client_done() {
                thread::sleep(POLL);
            }
        }
    }
    if !client_done() {
        tree::signal_group(client, libc::SIGKILL);
        let _ = child.wait();
    }
}

/// What a sweep of daemon `d` did, in words for the batch's status line.
fn sweep_notes(d: u32, swept: &daemon::Swept, why: &str) -> Vec<String> {
    let mut out = Vec::new();
    if swept.stopped > 0 {
        out.push(format!(
            "{why}: stopped {} test JVM process(es) of this build on the Gradle daemon (pid {d})",
            swept.stopped
        ));
    }
    if swept.daemon_gone {
        out.push(format!(
            "Gradle stopped its daemon (pid {d}): the build did not finish cancelling within \
             its 10 s grace, as after a Ctrl-C by hand"
        ));
    }
    out
}

/// The result of [`run`].
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub ended: Ended,
    pub elapsed: Duration,
    /// Descendant processes still alive after the child exited by itself, which we stopped.
    pub leftovers: usize,
    /// What stopping the build took, when it was not plain (shared daemon).
    pub notes: Vec<String>,
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
/// Whole lines only: the other stream's copier writes to the same log, and a
/// line cut in two by its output is one the log's readers (`run::cause`) no
/// longer recognise.
fn tee(mut from: Box<dyn Read + Send>, mut log: File) {
    let mut buf = [0u8; 8192];
    let mut pending = Vec::new();
    let mut copy = |bytes: &[u8]| {
        let _ = log.write_all(bytes);
        crate::output::stderr(&String::from_utf8_lossy(bytes));
    };
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        pending.extend_from_slice(&buf[..n]);
        if let Some(end) = pending.iter().rposition(|&b| b == b'\n') {
            copy(&pending[..=end]);
            pending.drain(..=end);
        }
    }
    if !pending.is_empty() {
        copy(&pending);
    }
}

/// A run's processes, from the first invocation to the last: supervised
/// (see [`supervise`]) and isolated one way; when it goes (also on an early
/// return or a panic), every process it started is stopped: with the user's
/// daemon, every one but Gradle daemons (a daemon our client started is the
/// user's, as after a hand run); isolated, private daemons included.
pub(crate) struct Session {
    isolation: Isolation,
}

impl Session {
    pub(crate) fn new(isolation: Isolation) -> Session {
        supervise();
        Session { isolation }
    }

    pub(crate) fn isolation(&self) -> &Isolation {
        &self.isolation
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        stop_all(None, self.isolation.is_shared());
    }
}

/// Stops every descendant of this process (but Gradle daemons and theirs when
/// `spare_daemons`): SIGTERM, up to [`GRACE`] to exit (none once hurried), then
/// SIGKILL until none is left. Reaps `child` and any orphan re-parented to us.
/// Returns how many processes were alive when it began.
fn stop_all(child: Option<&mut Child>, spare_daemons: bool) -> usize {
    let me = std::process::id();
    let targets = || tree::alive_descendants(me, spare_daemons);
    let first = targets();
    let count = first.len();
    if count > 0 {
        tree::signal(&first, libc::SIGTERM);
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline && !hurried() && !targets().is_empty() {
            tree::reap_orphans(me, child.as_ref().map(|c| c.id()));
            thread::sleep(POLL * 5);
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
            thread::sleep(POLL);
        }
    }
    if let Some(child) = child {
        let _ = child.wait();
    }
    tree::reap_orphans(me, None);
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn gradle_is_marked_and_isolated_as_asked() {
        let mark = format!("-Dgradle-flaky.run={}", run_id());
        let shared = Isolation::Shared;
        assert_eq!(
            shared
                .apply(&argv(&["./gradlew", "--daemon", ":a:test"]))
                .unwrap(),
            argv(&["./gradlew", &mark, "--daemon", ":a:test"]),
            "the user's daemon, with nothing but the run's marker"
        );
        let none = Isolation::NoDaemon;
        assert_eq!(
            none.apply(&argv(&["./gradlew", ":a:test"])).unwrap(),
            argv(&["./gradlew", &mark, "--no-daemon", ":a:test"])
        );
        assert!(none.apply(&argv(&["gradle", "--daemon"])).is_err());
        let private = Isolation::PrivateDaemon(PathBuf::from("/r/daemon"));
        assert_eq!(
            private.apply(&argv(&["gradle", ":a:test"])).unwrap(),
            argv(&[
                "gradle",
                &mark,
                "--daemon",
                "-Dorg.gradle.daemon.registry.base=/r/daemon",
                "-Dorg.gradle.daemon.idletimeout=600000",
                ":a:test"
            ])
        );
        for iso in [shared, none, private] {
            assert_eq!(
                iso.apply(&argv(&["gradle", "--no-daemon", ":a:test"]))
                    .unwrap(),
                argv(&["gradle", &mark, "--no-daemon", ":a:test"])
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
    fn the_users_daemon_unless_isolated() {
        let linux = cfg!(target_os = "linux");
        let (iso, note) = Isolation::choose(false, 5, Path::new("d"));
        if linux {
            assert_eq!((iso, note), (Isolation::Shared, None));
        } else {
            assert_eq!(
                (iso, note),
                (Isolation::NoDaemon, Some(NO_SHARED_DAEMON_HERE))
            );
        }
        assert_eq!(
            Isolation::choose(true, 1, Path::new("d")),
            (Isolation::NoDaemon, None)
        );
        let (shared, note) = Isolation::choose(true, 2, Path::new("d"));
        assert_eq!(note, None);
        if linux {
            let dir = std::env::current_dir().unwrap().join("d");
            assert_eq!(shared, Isolation::PrivateDaemon(dir));
        } else {
            assert_eq!(shared, Isolation::NoDaemon);
        }
    }

    /// Runs `sh -c script` in `dir` as a supervised child, its output logged
    /// (or, with `tee`, also copied to stderr) to `dir/log`.
    fn sh(dir: &Path, script: &str, tee: bool, timeout: Option<Duration>) -> Run {
        sh_as(dir, script, tee, timeout, &Isolation::NoDaemon)
    }

    fn sh_as(
        dir: &Path,
        script: &str,
        tee: bool,
        timeout: Option<Duration>,
        isolation: &Isolation,
    ) -> Run {
        supervise();
        let log = File::create(dir.join("log")).unwrap();
        let output = if tee {
            Output::Tee(&log)
        } else {
            Output::Log(&log)
        };
        run(
            &argv(&["sh", "-c", script]),
            dir,
            output,
            timeout,
            isolation,
        )
        .unwrap()
    }

    fn log_of(dir: &Path) -> String {
        std::fs::read_to_string(dir.join("log")).unwrap()
    }

    /// The stand-in daemon of the tests below: `sleep` under the daemon's
    /// main class name, in a session of its own. The child exits once it
    /// shows that name (setsid and bash exec in place, so `$!` is its pid
    /// throughout).
    fn stand_in_daemon() -> String {
        format!(
            "setsid bash -c 'exec -a {} sleep 300' & \
             until tr '\\0' ' ' < /proc/$!/cmdline | grep -q '^{} '; do sleep 0.05; done",
            tree::DAEMON_MAIN,
            tree::DAEMON_MAIN
        )
    }

    /// A daemon a build on the user's daemon started (as the layout read
    /// does before an isolated batch on CI) is the user's for the rest of
    /// the run: no isolated run that follows, nor its end, stops it.
    #[test]
    fn a_daemon_started_on_the_users_behalf_survives_later_isolated_runs() {
        let dir = tempfile::tempdir().unwrap();
        let me = std::process::id();
        let r = sh_as(
            dir.path(),
            &stand_in_daemon(),
            false,
            None,
            &Isolation::Shared,
        );
        assert_eq!(r.leftovers, 0);
        let daemon = tree::alive_descendants(me, false);
        assert!(daemon.is_empty(), "not ours to count or stop: {daemon:?}");
        let t = tree::table();
        let users: Vec<u32> = t
            .iter()
            .filter(|(_, p)| p.ppid == me && p.kind == tree::ProcKind::Daemon && !p.zombie)
            .map(|(&pid, _)| pid)
            .collect();
        assert_eq!(users.len(), 1, "the stand-in runs, re-parented to us");
        let r = sh(dir.path(), "true", false, None);
        assert_eq!(r.leftovers, 0);
        drop(Session::new(Isolation::NoDaemon));
        assert!(
            tree::alive(&tree::table(), users[0]),
            "the user's daemon stays"
        );
        tree::signal(&users, libc::SIGKILL);
        tree::reap_orphans(me, None);
    }

    #[test]
    fn a_private_daemon_outlives_its_build_but_not_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let script = stand_in_daemon();
        let private = Isolation::PrivateDaemon(PathBuf::from("d"));
        let r = sh_as(dir.path(), &script, false, None, &private.clone());
        assert_eq!(r.leftovers, 0);
        let me = std::process::id();
        assert_eq!(tree::alive_descendants(me, false).len(), 1);
        assert!(tree::alive_descendants(me, true).is_empty());
        drop(Session::new(Isolation::Shared));
        assert_eq!(
            tree::alive_descendants(me, false).len(),
            1,
            "the user's daemon stays"
        );
        drop(Session::new(private));
        assert!(tree::alive_descendants(me, false).is_empty());
        // Without a daemon to reuse, a lingering one (single-use) is a leftover.
        let r = sh(dir.path(), &script, false, None);
        assert_eq!(r.leftovers, 1);
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
    fn tee_never_cuts_a_line_of_one_stream_with_the_other() {
        // Half a line on stdout, a whole one on stderr, then the rest: the
        // log keeps each line whole, as Gradle's failure lines must be read.
        let dir = tempfile::tempdir().unwrap();
        let script = "printf 'out-a'; sleep 0.3; echo 'err line' >&2; sleep 0.3; echo out-b";
        let r = sh(dir.path(), script, true, None);
        assert!(r.ended.success());
        let log = log_of(dir.path());
        let mut lines: Vec<&str> = log.lines().collect();
        lines.sort();
        assert_eq!(lines, ["err line", "out-aout-b"], "{log:?}");
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
        let r = run(
            &argv(&["./gradlew"]),
            rel,
            Output::Inherit,
            None,
            &Isolation::NoDaemon,
        )
        .unwrap();
        assert_eq!(r.ended, Ended::Exited(5));
    }

    #[test]
    fn a_missing_program_is_gradle_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let program = argv(&["/nonexistent/gradlew"]);
        let err = run(
            &program,
            dir.path(),
            Output::Inherit,
            None,
            &Isolation::NoDaemon,
        )
        .unwrap_err();
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
