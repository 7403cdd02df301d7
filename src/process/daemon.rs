//! Stopping a build that runs on the user's own Gradle daemon without losing
//! the daemon, and without touching anything of the user's.
//!
//! Measured on Gradle 4.4.1: when its client goes away (Ctrl-C, SIGTERM,
//! SIGKILL), the daemon cancels the build, but a running `Test` task ignores
//! the cancel; about 10 s later the daemon stops itself ("cancel requested but
//! timed out") and the next build pays for a cold daemon. What ends the build
//! at once and keeps the daemon: interrupt the client (the daemon cancels, so
//! no further task starts, `--continue` or not), then stop the daemon's test
//! JVMs of this build. The build fails within a second and the daemon goes
//! back to idle, warm.
//!
//! Which processes are ours: a `Gradle Test Executor` child of the daemon that
//! carries this run's mark ([`vars::RUN_MARK`], which
//! `gradle/flaky-run-mark.gradle` sets on every Test task of our builds), with
//! whatever it started. Never one that merely started after our client did:
//! the daemon runs one build at a time, but once our client has ended (or
//! while it lingers after its build) another gradle-flaky run's build or the
//! user's own may already run on it, and its test JVMs are not ours (measured:
//! killing them cost that run an iteration). An unmarked test JVM is never
//! ours either. The daemon itself and its persistent `Gradle Worker Daemon`
//! children are never signalled. Which daemon runs the build: the other end of
//! the client's loopback TCP connection, looked up while the client is alive
//! (the client's environment cannot mark anything: a reused daemon keeps the
//! environment of the client that started it, and so do its test JVMs unless
//! the Test task sets theirs).

use super::tree::{self, ProcKind, ProcTable};
use crate::reports::walk;
use crate::vars;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

/// How often the daemon's test JVMs are looked at while a build is stopped.
const SWEEP_POLL: Duration = Duration::from_millis(100);
/// How long a test JVM gets to exit after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(3);
/// The build is over when the daemon has had no test JVM of ours this long
/// (it is idle about half a second after its last one ended) and has left
/// the build's directory.
const QUIET: Duration = Duration::from_secs(1);
/// The same, once the user hurried the stop (a second signal).
const QUIET_HURRIED: Duration = Duration::from_millis(300);
/// Gradle's own cancel grace (10 s) and a margin: past this the sweep kills
/// what is left of ours and ends; a daemon still busy then stops itself, as
/// after a hand Ctrl-C.
const SWEEP_LIMIT: Duration = Duration::from_secs(12);
/// A test JVM not connected to its daemon this long after we first saw it is
/// stopped anyway: its build is stuck, and the daemon gives up on it soon.
const CONNECT_WAIT: Duration = Duration::from_secs(8);

/// The Gradle daemon one of `clients` (a client process tree) is connected
/// to: the process holding the other end of an established loopback TCP
/// connection, among the Gradle daemons of the machine.
pub(super) fn serving(table: &ProcTable, clients: &[u32]) -> Option<u32> {
    let conns = connections();
    let mut peers = BTreeSet::new();
    for &pid in clients {
        for inode in socket_inodes(pid) {
            let Some(c) = conns.get(&inode) else { continue };
            // The other end, in the same table: a connection on this machine.
            if let Some(peer) = conns.values().find(|p| {
                p.local_port == c.remote_port && p.remote_port == c.local_port && p.inode != 0
            }) {
                peers.insert(peer.inode);
            }
        }
    }
    if peers.is_empty() {
        return None;
    }
    table
        .iter()
        .filter(|(pid, p)| p.kind == ProcKind::Daemon && !clients.contains(pid))
        .map(|(&pid, _)| pid)
        .find(|&pid| socket_inodes(pid).iter().any(|i| peers.contains(i)))
}

/// The test JVMs of `daemon` that started at or after `since` (clock ticks
/// since boot) for run `run`: marked with it.
pub(super) fn test_executors(table: &ProcTable, daemon: u32, since: u64, run: &str) -> Vec<u32> {
    running_tests(table, daemon)
        .filter(|(_, p)| p.start >= since)
        .map(|(&pid, _)| pid)
        .filter(|&pid| of_run(pid, run))
        .collect()
}

/// Whether `daemon` runs a test JVM marked with another run than `run`: then
/// it runs another build (one at a time), and ours is over. (An unmarked one
/// may be the user's build or ours, whose Test task lost the mark: unknown.)
fn runs_another_build(table: &ProcTable, daemon: u32, run: &str) -> bool {
    running_tests(table, daemon).any(|(&pid, _)| {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| mark(&env).is_some_and(|m| m != run.as_bytes()))
    })
}

/// The live test JVMs `daemon` started, whoever's.
fn running_tests(table: &ProcTable, daemon: u32) -> impl Iterator<Item = (&u32, &tree::Proc)> {
    table
        .iter()
        .filter(move |(_, p)| p.ppid == daemon && p.kind == ProcKind::TestExecutor && !p.zombie)
}

/// Whether process `pid` carries run `run`'s mark (false when its
/// environment cannot be read: it is gone, or not ours to signal anyway).
fn of_run(pid: u32, run: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| marked(&env, run))
}

/// The ownership rule: an environment (`/proc/<pid>/environ`) is run `run`'s
/// when its [`vars::RUN_MARK`] is `run` exactly. No mark, another run's, or a
/// value that merely starts with `run` are not.
pub(super) fn marked(environ: &[u8], run: &str) -> bool {
    !run.is_empty() && mark(environ) == Some(run.as_bytes())
}

/// The value of [`vars::RUN_MARK`] in an environment (`NAME=value` entries
/// separated by NUL).
fn mark(environ: &[u8]) -> Option<&[u8]> {
    let name = vars::RUN_MARK.as_bytes();
    environ.split(|b| *b == 0).find_map(|kv| {
        kv.strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(b"="))
    })
}

/// What [`sweep`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Swept {
    /// Test JVMs it stopped.
    pub stopped: usize,
    /// The daemon was gone when the sweep ended: Gradle stopped it.
    pub daemon_gone: bool,
}

/// Stops the test JVMs that `daemon` runs for our build (started at or after
/// `since`, marked with run `run`), with whatever they started, until it has
/// had none for a moment:
/// SIGTERM, then SIGKILL after [`TERM_GRACE`] (at once when `hurried` says
/// so), once our client has exited. A test JVM is stopped only once it is
/// connected to its daemon: killed during its startup, Gradle 4.4.1 forks a
/// replacement, and killing that one during its startup too can leave the
/// build hung, which costs the daemon (measured). `client_done` tells whether our client has exited (the sweep
/// does not end before), and may act on it (escalate, reap). Returns at the
/// latest after [`SWEEP_LIMIT`], every test JVM of ours killed.
///
/// The build is over when the daemon has left `build_dir`: a daemon works in
/// the build's directory while it runs a build and returns to its own when the
/// build ends, cancelled or not. Until then our build may still write reports
/// (a stuck build is stopped by Gradle itself, daemon and all, after its 10 s
/// cancel grace). Hurried, or once the daemon runs another build's test JVM,
/// a moment without test JVMs of ours is enough.
pub(super) fn sweep(
    daemon: u32,
    since: u64,
    run: &str,
    build_dir: &Path,
    hurried: &dyn Fn() -> bool,
    client_done: &mut dyn FnMut() -> bool,
) -> Swept {
    let started = Instant::now();
    let mut seen: BTreeMap<u32, Instant> = BTreeMap::new();
    let mut termed: BTreeMap<u32, Instant> = BTreeMap::new();
    let mut quiet_since: Option<Instant> = None;
    let mut swept = Swept::default();
    loop {
        let done = client_done();
        let table = tree::table();
        let gone = !tree::alive(&table, daemon);
        let ours = if gone {
            Vec::new()
        } else {
            test_executors(&table, daemon, since, run)
        };
        let hurry = hurried();
        let last_round = started.elapsed() >= SWEEP_LIMIT;
        let established = if ours.is_empty() {
            BTreeMap::new()
        } else {
            connections()
        };
        // Not before the client is gone (unless hurried): by then the daemon
        // has registered the cancel, so a failing Test task starts no other.
        let act = done || hurry || last_round;
        for &pid in ours.iter().filter(|_| act) {
            let first_seen = *seen.entry(pid).or_insert_with(Instant::now);
            let kill = match termed.get(&pid) {
                None => {
                    let ready = socket_inodes(pid)
                        .iter()
                        .any(|i| established.contains_key(i))
                        || first_seen.elapsed() >= CONNECT_WAIT
                        || last_round;
                    if !ready {
                        continue;
                    }
                    termed.insert(pid, Instant::now());
                    swept.stopped += 1;
                    hurry || last_round
                }
                Some(at) => hurry || last_round || at.elapsed() >= TERM_GRACE,
            };
            // Its children first, collected before it dies and they are re-parented.
            let mut tree: Vec<u32> = tree::descendants(&table, pid, false).into_iter().collect();
            tree.push(pid);
            tree::signal(&tree, if kill { libc::SIGKILL } else { libc::SIGTERM });
        }
        let quiet = if ours.is_empty() {
            *quiet_since.get_or_insert_with(Instant::now)
        } else {
            quiet_since = None;
            Instant::now()
        };
        let over = if hurry || (!gone && runs_another_build(&table, daemon, run)) {
            quiet.elapsed() >= QUIET_HURRIED
        } else {
            quiet.elapsed() >= QUIET && !works_in(daemon, build_dir)
        };
        if (done && (gone || over)) || last_round {
            break;
        }
        std::thread::sleep(SWEEP_POLL);
    }
    swept.daemon_gone = !tree::alive(&tree::table(), daemon);
    swept
}

/// Whether `pid` runs in directory `dir` (false when either cannot be read).
fn works_in(pid: u32, dir: &Path) -> bool {
    let cwd = std::fs::read_link(format!("/proc/{pid}/cwd"));
    match (cwd, std::fs::canonicalize(dir)) {
        (Ok(cwd), Ok(dir)) => cwd == dir,
        _ => false,
    }
}

/// One TCP connection of `/proc/net/tcp{,6}`.
#[derive(Clone, Copy, Debug)]
struct Conn {
    local_port: u16,
    remote_port: u16,
    inode: u64,
}

/// Established TCP connections of this machine (IPv4 and IPv6), by socket inode.
fn connections() -> BTreeMap<u64, Conn> {
    let mut out = BTreeMap::new();
    for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for conn in text.lines().skip(1).filter_map(parse_conn) {
            out.insert(conn.inode, conn);
        }
    }
    out
}

/// `sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...`,
/// addresses as `HEXADDR:HEXPORT`; state `01` is ESTABLISHED.
fn parse_conn(line: &str) -> Option<Conn> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let port = |addr: &str| u16::from_str_radix(addr.rsplit_once(':')?.1, 16).ok();
    if f.get(3)? != &"01" {
        return None;
    }
    Some(Conn {
        local_port: port(f.get(1)?)?,
        remote_port: port(f.get(2)?)?,
        inode: f.get(9)?.parse().ok()?,
    })
}

/// Inodes of the sockets `pid` holds open.
fn socket_inodes(pid: u32) -> Vec<u64> {
    walk::list(Path::new(&format!("/proc/{pid}/fd")))
        .unwrap_or_default()
        .iter()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter_map(|target| {
            let t = target.to_str()?;
            t.strip_prefix("socket:[")?.strip_suffix(']')?.parse().ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn established_connections_are_read_from_proc_net_tcp() {
        let v4 = "   1: 0100007F:A1B2 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000 20 4 30 10 -1";
        let c = parse_conn(v4).unwrap();
        assert_eq!(
            (c.local_port, c.remote_port, c.inode),
            (0xA1B2, 0x1F90, 4242)
        );
        let v6 = "   0: 00000000000000000000000001000000:9C40 00000000000000000000000001000000:D431 01 00000000:00000000 00:00000000 00000000  1000        0 77 1 0000 20 4 30 10 -1";
        assert_eq!(parse_conn(v6).unwrap().local_port, 0x9C40);
        let listening = "   2: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 99 1";
        assert!(parse_conn(listening).is_none());
        assert!(parse_conn("garbage").is_none());
    }

    #[test]
    fn a_test_jvm_is_ours_only_with_our_runs_mark() {
        let env = |entries: &[&str]| entries.join("\0").into_bytes();
        let ours = env(&["PATH=/bin", "FLAKINESS_RUN=20261203T1-42", "HOME=/h"]);
        assert!(marked(&ours, "20261203T1-42"));
        assert!(!marked(&ours, "20261203T1-4"), "a prefix of the mark");
        assert!(!marked(&ours, "20261203T1-421"));
        assert!(!marked(&ours, ""));
        let other = env(&["FLAKINESS_RUN=20261203T1-43"]);
        assert!(!marked(&other, "20261203T1-42"), "another run's");
        assert!(
            !marked(&env(&["PATH=/bin", "HOME=/h"]), "20261203T1-42"),
            "unmarked"
        );
        let lookalike = env(&["XFLAKINESS_RUN=r", "FLAKINESS_RUNS=r", "FLAKINESS_RUN_=r"]);
        assert!(!marked(&lookalike, "r"));
        assert!(!marked(b"", "r"));
    }

    /// Stand-in test JVMs of this test process (playing their daemon): bash
    /// with a test executor's command line and `FLAKINESS_RUN` = `mark`
    /// (none: unmarked), connected to `port` as a test JVM is to its daemon,
    /// until that connection closes.
    #[cfg(target_os = "linux")]
    fn fake_test_jvm(port: u16, mark: Option<&str>) -> std::process::Child {
        let mut cmd = std::process::Command::new("bash");
        cmd.args([
            "-c",
            // A builtin wait: no child process to outlive the stand-in.
            &format!("exec 3<>/dev/tcp/127.0.0.1/{port}; read -t 60 -u 3; :"),
            "worker.org.gradle.process.internal.worker.GradleWorkerMain",
            "'Gradle Test Executor 7'",
        ])
        .stdout(std::process::Stdio::null())
        .env_remove(vars::RUN_MARK);
        if let Some(mark) = mark {
            cmd.env(vars::RUN_MARK, mark);
        }
        cmd.spawn().unwrap()
    }

    /// The issue's case: after our client has ended, the daemon already runs
    /// another run's build (and a user's); their test JVMs started after our
    /// client did, but only ours is stopped, and the sweep ends without
    /// waiting for the other build (it runs a test JVM of another run).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_sweep_stops_our_test_jvms_and_no_other_builds() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let since = tree::now_ticks().saturating_sub(1);
        let mut ours = fake_test_jvm(port, Some("run-a"));
        let mut other_run = fake_test_jvm(port, Some("run-b"));
        let mut users = fake_test_jvm(port, None);
        let _conns: Vec<_> = (0..3).map(|_| listener.accept().unwrap()).collect();
        let me = std::process::id();
        let table = tree::table();
        assert_eq!(table[&users.id()].kind, ProcKind::TestExecutor);
        assert_eq!(test_executors(&table, me, since, "run-a"), [ours.id()]);
        assert_eq!(test_executors(&table, me, since, "run-b"), [other_run.id()]);
        assert_eq!(
            test_executors(&table, me, since, "run-c"),
            Vec::<u32>::new()
        );
        assert!(runs_another_build(&table, me, "run-a"));
        let dir = tempfile::tempdir().unwrap();
        let swept = sweep(me, since, "run-a", dir.path(), &|| false, &mut || true);
        assert_eq!(
            swept,
            Swept {
                stopped: 1,
                daemon_gone: false
            }
        );
        assert!(ours.wait().unwrap().signal().is_some(), "ours is stopped");
        for (who, child) in [
            ("another run's", &mut other_run),
            ("the user's", &mut users),
        ] {
            assert_eq!(
                child.try_wait().unwrap(),
                None,
                "{who} test JVM was stopped"
            );
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// A client and a "daemon" talking over loopback, as Gradle's do: the
    /// lookup finds the process at the other end. The stand-in daemon is this
    /// test process itself, so it is told apart by pid rather than by kind.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_other_end_of_a_loopback_connection_is_found() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        // bash opens the connection itself (`/dev/tcp`), then waits.
        let mut client = std::process::Command::new("bash")
            .args([
                "-c",
                &format!("exec 3<>/dev/tcp/127.0.0.1/{port}; sleep 30"),
            ])
            .spawn()
            .unwrap();
        let (_conn, _) = listener.accept().unwrap();
        let me = std::process::id();
        let mut table = tree::table();
        table.get_mut(&me).unwrap().kind = ProcKind::Daemon;
        assert_eq!(serving(&table, &[client.id()]), Some(me));
        table.get_mut(&me).unwrap().kind = ProcKind::Other;
        assert_eq!(serving(&table, &[client.id()]), None, "only daemons");
        let _ = client.kill();
        let _ = client.wait();
    }
}
