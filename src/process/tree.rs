//! The process table, read from /proc on Linux and from `ps` elsewhere: who
//! descends from whom, which processes are Gradle daemons or test JVMs, when
//! each started; and the signals we send.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

/// The main class of a Gradle daemon, persistent or single-use.
pub(super) const DAEMON_MAIN: &str = "org.gradle.launcher.daemon.bootstrap.GradleDaemon";
/// The main class of every JVM a Gradle build forks for its workers.
const WORKER_MAIN: &str = "GradleWorkerMain";
/// The display name a worker that runs a `Test` task gets, on its command line
/// (`'Gradle Test Executor 4'`, quotes included). Persistent compiler and
/// worker-API daemons are `Gradle Worker Daemon N` and are never ours to stop.
const TEST_EXECUTOR: &str = "Gradle Test Executor";

/// What a process is, for Gradle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ProcKind {
    Daemon,
    TestExecutor,
    Other,
}

/// One process.
#[derive(Clone, Debug)]
pub(super) struct Proc {
    pub ppid: u32,
    /// Dead, not yet reaped.
    pub zombie: bool,
    /// When it started, in clock ticks since boot (0 when unknown).
    pub start: u64,
    pub kind: ProcKind,
}

pub(super) type ProcTable = BTreeMap<u32, Proc>;

/// Fields of `/proc/<pid>/stat` after the command name (which may hold spaces
/// and parentheses): state, ppid, ..., starttime (field 22 of the file).
#[cfg(target_os = "linux")]
fn stat(pid: u32) -> Option<(bool, u32, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let zombie = *fields.first()? == "Z";
    let ppid = fields.get(1)?.parse().ok()?;
    // `rest` starts at field 3 (state), so field 22 is index 19.
    let start = fields.get(19).and_then(|s| s.parse().ok()).unwrap_or(0);
    Some((zombie, ppid, start))
}

/// When `pid` started, in clock ticks since boot.
#[cfg(target_os = "linux")]
pub(super) fn start_ticks(pid: u32) -> Option<u64> {
    stat(pid).map(|(_, _, start)| start)
}

#[cfg(not(target_os = "linux"))]
pub fn start_ticks(_pid: u32) -> Option<u64> {
    None
}

/// Now, in the clock ticks of [`start_ticks`].
#[cfg(target_os = "linux")]
pub(super) fn now_ticks() -> u64 {
    let uptime = std::fs::read_to_string("/proc/uptime").unwrap_or_default();
    let secs: f64 = uptime
        .split_whitespace()
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0);
    // SAFETY: sysconf only reads a configuration value.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (secs * hz) as u64
}

#[cfg(not(target_os = "linux"))]
pub fn now_ticks() -> u64 {
    0
}

#[cfg(target_os = "linux")]
fn kind_of(pid: u32) -> ProcKind {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let args = || cmdline.split(|b| *b == 0);
    if args().any(|arg| arg == DAEMON_MAIN.as_bytes()) {
        return ProcKind::Daemon;
    }
    let worker = args().any(|arg| arg.ends_with(WORKER_MAIN.as_bytes()));
    let executor = args().any(|arg| {
        let arg = String::from_utf8_lossy(arg);
        arg.trim_matches(|c| c == '\'' || c == '"')
            .starts_with(TEST_EXECUTOR)
    });
    if worker && executor {
        ProcKind::TestExecutor
    } else {
        ProcKind::Other
    }
}

#[cfg(target_os = "linux")]
pub(super) fn table() -> ProcTable {
    let mut out = BTreeMap::new();
    let proc = crate::reports::walk::list(std::path::Path::new("/proc"));
    for entry in proc.unwrap_or_default() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        if let Some((zombie, ppid, start)) = stat(pid) {
            let kind = if zombie {
                ProcKind::Other
            } else {
                kind_of(pid)
            };
            out.insert(
                pid,
                Proc {
                    ppid,
                    zombie,
                    start,
                    kind,
                },
            );
        }
    }
    out
}

#[cfg(not(target_os = "linux"))]
pub fn table() -> ProcTable {
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
                // Off Linux Gradle never runs on a shared or private daemon
                // (see `Isolation::choose`), so kinds are not needed.
                out.insert(
                    pid,
                    Proc {
                        ppid,
                        zombie: stat.starts_with('Z'),
                        start: 0,
                        kind: ProcKind::Other,
                    },
                );
            }
        }
    }
    out
}

/// Descendants of `root`, not entering daemons when `spare_daemons`, nor
/// ever the user's daemons (see [`remember_users_daemons`]).
pub(super) fn descendants(table: &ProcTable, root: u32, spare_daemons: bool) -> BTreeSet<u32> {
    let users = users_daemons();
    let mut found = BTreeSet::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for (&pid, p) in table {
            let spared =
                p.kind == ProcKind::Daemon && (spare_daemons || users.contains(&(pid, p.start)));
            if p.ppid == parent && !spared && found.insert(pid) {
                frontier.push(pid);
            }
        }
    }
    found
}

/// Descendants of `root` that are still running (but Gradle daemons and
/// theirs when `spare_daemons`, and the user's daemons always).
pub(super) fn alive_descendants(root: u32, spare_daemons: bool) -> Vec<u32> {
    let t = table();
    descendants(&t, root, spare_daemons)
        .into_iter()
        .filter(|pid| !t[pid].zombie)
        .collect()
}

/// The user's daemons we have seen, by pid and start time (a pid alone
/// may be reused).
static USERS_DAEMONS: Mutex<BTreeSet<(u32, u64)>> = Mutex::new(BTreeSet::new());

fn users_daemons() -> BTreeSet<(u32, u64)> {
    USERS_DAEMONS.lock().map(|s| s.clone()).unwrap_or_default()
}

/// Remembers the daemons below `root` as the user's, never to be stopped by
/// this process. A daemon the user's build started becomes our descendant
/// once its client exits (we are a subreaper); a later isolated run, which
/// stops every descendant it leaves, must not take it for its own: other
/// builds are using it (measured: a shared daemon killed mid-build that way).
pub(super) fn remember_users_daemons(root: u32) {
    let t = table();
    let found: Vec<(u32, u64)> = descendants(&t, root, false)
        .into_iter()
        .filter(|pid| t[pid].kind == ProcKind::Daemon && !t[pid].zombie)
        .map(|pid| (pid, t[&pid].start))
        .collect();
    if let Ok(mut users) = USERS_DAEMONS.lock() {
        users.extend(found);
    }
}

/// Whether `pid` runs (exists and is not a zombie).
pub(super) fn alive(table: &ProcTable, pid: u32) -> bool {
    table.get(&pid).is_some_and(|p| !p.zombie)
}

pub(super) fn signal(pids: &[u32], sig: libc::c_int) {
    for &pid in pids {
        // SAFETY: kill(2) with a positive pid signals that one process.
        unsafe {
            libc::kill(pid as libc::pid_t, sig);
        }
    }
}

/// Signals every process of the process group `pgid`.
pub(super) fn signal_group(pgid: u32, sig: libc::c_int) {
    // SAFETY: kill(2) with a negative pid signals that process group only.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), sig);
    }
}

/// Reaps our dead direct children except `keep` (the `std::process::Child`,
/// which must be reaped through its own handle).
pub(super) fn reap_orphans(me: u32, keep: Option<u32>) {
    for (pid, p) in table() {
        if p.ppid == me && p.zombie && Some(pid) != keep {
            // SAFETY: waitpid on a specific zombie child of ours; WNOHANG never blocks.
            unsafe {
                libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), libc::WNOHANG);
            }
        }
    }
}
