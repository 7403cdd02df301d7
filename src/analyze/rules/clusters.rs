//! Co-failure clusters: tests whose failures fall in the same runs, which
//! most often share one cause (a service down, the network, a shared
//! fixture): fixed once instead of once per test. Published: 75% of flaky
//! tests belong to such clusters (Parry et al., "Systemic Flakiness", 2025).
//!
//! Two tests are linked when they failed together in at least
//! [`MIN_SHARED_RUNS`] runs and the Jaccard similarity of their failing runs
//! is at least [`MIN_JACCARD`]; a cluster is a set of linked tests (linked
//! through one another). Its signature is the failure message its members
//! share, with what differs from run to run masked ([`signature`]).
//!
//! One rule for `local`'s report (a run is one Gradle invocation, and in
//! one test JVM one iteration of it) and for `suspects` (a run is one run id
//! of the ledger).

use crate::analyze::model::clusters::{Cluster, ClusterTest};
use crate::analyze::model::report::TestReport;
use std::collections::HashMap;

/// Runs two tests must have failed in together to be linked: once is chance.
pub const MIN_SHARED_RUNS: u32 = 2;
/// The least Jaccard similarity (shared failing runs over the runs either
/// failed in) of two linked tests.
pub const MIN_JACCARD: f64 = 0.8;
/// A run where more tests failed is left out of the pairs (every pair of
/// its tests would be counted: a broken build is one cause, said otherwise).
pub const MAX_TESTS_PER_RUN: usize = 2_000;
/// Characters of a signature kept.
pub const SIGNATURE_CHARS: usize = 200;

/// One test's failing runs, each once and sorted, with the signature of its
/// failure there (`None` when the report gave no message).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FailedIn {
    pub runs: Vec<(u32, Option<String>)>,
}

/// The clusters of a report's tests, from the Gradle runs (and iterations
/// in one test JVM) each failed in.
pub(crate) fn of_tests(tests: &[TestReport]) -> Vec<Cluster> {
    let failing: Vec<&TestReport> = tests
        .iter()
        .filter(|t| !t.failing_runs.is_empty())
        .collect();
    let mut labels = Labels::default();
    let input: Vec<FailedIn> = failing
        .iter()
        .map(|t| {
            let mut runs: Vec<(u32, Option<String>)> = t
                .failing_runs
                .iter()
                .map(|f| (labels.id(&f.run), Some(f.signature.clone())))
                .collect();
            runs.sort_by_key(|(run, _)| *run);
            runs.dedup_by_key(|(run, _)| *run);
            FailedIn { runs }
        })
        .collect();
    find(&input)
        .into_iter()
        .map(|found| {
            let tests: Vec<ClusterTest> = found
                .members
                .iter()
                .map(|&m| ClusterTest {
                    class: failing[m].class.clone(),
                    method: failing[m].method.clone(),
                    task: failing[m].kinds.join(","),
                })
                .collect();
            labelled(found, tests, |run| labels.names[run as usize].clone())
        })
        .collect()
}

/// A found cluster as the model's, its runs named by `name`.
pub(crate) fn labelled(
    found: Found,
    mut tests: Vec<ClusterTest>,
    name: impl Fn(u32) -> String,
) -> Cluster {
    tests.sort();
    let (signature, shared_by) = found.signature.map_or((None, 0), |(s, n)| (Some(s), n));
    Cluster {
        tests,
        runs: found.runs.into_iter().map(name).collect(),
        signature,
        shared_by,
    }
}

/// Run labels numbered in the order first seen.
#[derive(Default)]
struct Labels {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Labels {
    fn id(&mut self, label: &str) -> u32 {
        if let Some(&id) = self.ids.get(label) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(label.to_string());
        self.ids.insert(label.to_string(), id);
        id
    }
}

/// A cluster of the tests given, by their positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Positions in the input, ascending.
    pub members: Vec<usize>,
    /// The runs at least two members failed in, ascending.
    pub runs: Vec<u32>,
    /// The signature most members failed with in those runs, and how many did.
    pub signature: Option<(String, usize)>,
}

/// The clusters of `tests`: largest first, then with more runs, then in
/// the order of their first member.
pub fn find(tests: &[FailedIn]) -> Vec<Found> {
    let mut by_run: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, t) in tests.iter().enumerate() {
        if t.runs.len() >= MIN_SHARED_RUNS as usize {
            for (run, _) in &t.runs {
                by_run.entry(*run).or_default().push(i);
            }
        }
    }
    let mut shared: HashMap<(usize, usize), u32> = HashMap::new();
    for members in by_run.values() {
        if members.len() > MAX_TESTS_PER_RUN {
            continue;
        }
        for (k, &a) in members.iter().enumerate() {
            for &b in &members[k + 1..] {
                *shared.entry((a, b)).or_default() += 1;
            }
        }
    }
    let mut sets = Sets::new(tests.len());
    for ((a, b), n) in shared {
        let union = tests[a].runs.len() + tests[b].runs.len() - n as usize;
        if n >= MIN_SHARED_RUNS && f64::from(n) / union as f64 >= MIN_JACCARD {
            sets.join(a, b);
        }
    }
    let mut found: Vec<Found> = sets
        .groups()
        .into_iter()
        .map(|members| cluster_of(tests, members))
        .collect();
    found.sort_by(|a, b| {
        (b.members.len(), b.runs.len(), a.members[0]).cmp(&(
            a.members.len(),
            a.runs.len(),
            b.members[0],
        ))
    });
    found
}

/// The cluster of `members`: the runs two of them failed in, and the
/// signature most of them failed with there.
fn cluster_of(tests: &[FailedIn], members: Vec<usize>) -> Found {
    let mut failed: HashMap<u32, usize> = HashMap::new();
    for &m in &members {
        for (run, _) in &tests[m].runs {
            *failed.entry(*run).or_default() += 1;
        }
    }
    let mut runs: Vec<u32> = failed
        .into_iter()
        .filter(|(_, n)| *n >= 2)
        .map(|(run, _)| run)
        .collect();
    runs.sort_unstable();
    // Each member counts once for each signature it failed with in the runs.
    let mut members_with: HashMap<&str, usize> = HashMap::new();
    for &m in &members {
        let mut own: Vec<&str> = tests[m]
            .runs
            .iter()
            .filter(|(run, _)| runs.binary_search(run).is_ok())
            .filter_map(|(_, s)| s.as_deref())
            .collect();
        own.sort_unstable();
        own.dedup();
        for s in own {
            *members_with.entry(s).or_default() += 1;
        }
    }
    let signature = members_with
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(s, n)| (s.to_string(), n));
    Found {
        members,
        runs,
        signature,
    }
}

/// Disjoint sets of positions (union by size, paths halved).
struct Sets {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl Sets {
    fn new(n: usize) -> Sets {
        Sets {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.root(a), self.root(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }

    /// The sets of two or more, each ascending, by their first position.
    fn groups(mut self) -> Vec<Vec<usize>> {
        let mut by_root: HashMap<usize, Vec<usize>> = HashMap::new();
        for i in 0..self.parent.len() {
            let root = self.root(i);
            by_root.entry(root).or_default().push(i);
        }
        let mut groups: Vec<Vec<usize>> = by_root.into_values().filter(|g| g.len() > 1).collect();
        groups.sort();
        groups
    }
}

/// A failure's signature: its type and the first line of its message, with
/// what changes from run to run masked: temporary paths (`<tmp>`), IP
/// addresses (`<ip>`), UUIDs (`<uuid>`), hex numbers and identity hashes
/// (`<hex>`), and numbers (`<n>`), so that `Connection refused:
/// localhost/127.0.0.1:41234` and `…:38211` are one cause. At most
/// [`SIGNATURE_CHARS`] characters.
pub fn signature(type_name: &str, message: &str) -> String {
    let first = message.lines().map(str::trim).find(|l| !l.is_empty());
    let line = match first {
        None => type_name.to_string(),
        // A body's first line often names the type already.
        Some(l) if type_name.is_empty() || l.starts_with(type_name) => l.to_string(),
        Some(l) => format!("{type_name}: {l}"),
    };
    let masked = mask(&line);
    match masked.char_indices().nth(SIGNATURE_CHARS) {
        Some((cut, _)) => format!("{}…", &masked[..cut]),
        None => masked,
    }
}

/// `line` with its changing parts masked (see [`signature`]).
pub fn mask(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0 || !is_word(chars[i - 1]);
        let rule = boundary
            .then(|| {
                temp_path(&chars[i..])
                    .map(|n| (n, "<tmp>"))
                    .or_else(|| uuid(&chars[i..]).map(|n| (n, "<uuid>")))
                    .or_else(|| ipv4(&chars[i..]).map(|n| (n, "<ip>")))
                    .or_else(|| ipv6(&chars[i..]).map(|n| (n, "<ip>")))
                    .or_else(|| hex(&chars[i..]).map(|n| (n, "<hex>")))
            })
            .flatten();
        if let Some((n, mask)) = rule {
            out.push_str(mask);
            i += n;
        } else if chars[i].is_ascii_digit() {
            let n = number(&chars[i..]);
            // Digits inside a word name something (`Http2Handler`); kept.
            let inside = !boundary && chars.get(i + n).is_some_and(|c| c.is_alphabetic());
            match inside {
                true => out.extend(&chars[i..i + n]),
                false => out.push_str("<n>"),
            }
            i += n;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// What ends a path in a message.
fn ends_path(c: char) -> bool {
    c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | ';' | ')' | ']' | '>' | '}')
}

/// A path with a temporary folder in it (`/tmp/…`, `…/temp/…`,
/// `/var/folders/…`, `C:\…\Temp\…`): its length.
fn temp_path(s: &[char]) -> Option<usize> {
    let starts = s.first() == Some(&'/')
        || (s.len() > 2 && s[0].is_ascii_alphabetic() && s[1] == ':' && s[2] == '\\');
    if !starts {
        return None;
    }
    let len = s.iter().position(|c| ends_path(*c)).unwrap_or(s.len());
    let path: String = s[..len].iter().collect();
    let temporary = path.starts_with("/var/folders/")
        || path
            .split(['/', '\\'])
            .any(|part| matches!(part.to_ascii_lowercase().as_str(), "tmp" | "temp"));
    temporary.then_some(len)
}

/// A UUID (8-4-4-4-12 hex digits): its length.
fn uuid(s: &[char]) -> Option<usize> {
    let mut at = 0;
    for (k, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if k > 0 {
            (s.get(at) == Some(&'-')).then_some(())?;
            at += 1;
        }
        let run = s[at.min(s.len())..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        (run == n).then_some(())?;
        at += n;
    }
    (!s.get(at).is_some_and(|c| is_word(*c))).then_some(at)
}

/// An IPv4 address: its length.
fn ipv4(s: &[char]) -> Option<usize> {
    let mut at = 0;
    for k in 0..4 {
        if k > 0 {
            (s.get(at) == Some(&'.')).then_some(())?;
            at += 1;
        }
        let run = s[at.min(s.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (1..=3).contains(&run).then_some(())?;
        at += run;
    }
    (!s.get(at).is_some_and(|c| c.is_ascii_digit() || *c == '.')).then_some(at)
}

/// An IPv6 address (hex groups and colons, with `::` or seven colons, and
/// a `%zone`): its length. A port after one is not told apart.
fn ipv6(s: &[char]) -> Option<usize> {
    let len = s
        .iter()
        .take_while(|c| c.is_ascii_hexdigit() || **c == ':')
        .count();
    let text: String = s[..len].iter().collect();
    let colons = text.matches(':').count();
    let groups_ok = text.split(':').all(|g| g.len() <= 4);
    let digit = text.bytes().any(|b| b.is_ascii_digit());
    let address = groups_ok && digit && colons >= 2 && (text.contains("::") || colons == 7);
    if !address {
        return None;
    }
    let zone = match s.get(len) {
        Some('%') => 1 + s[len + 1..].iter().take_while(|c| is_word(**c)).count(),
        _ => 0,
    };
    Some(len + zone)
}

/// `0x…`, or a word of at least six hex digits with a digit and a letter in
/// it (an identity hash, a seed, a digest): its length.
fn hex(s: &[char]) -> Option<usize> {
    if s.len() > 2 && s[0] == '0' && matches!(s[1], 'x' | 'X') && s[2].is_ascii_hexdigit() {
        let run = s[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        return Some(2 + run);
    }
    let run = s.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    let word = &s[..run];
    let mixed = word.iter().any(|c| c.is_ascii_digit()) && word.iter().any(|c| c.is_alphabetic());
    (run >= 6 && mixed && !s.get(run).is_some_and(|c| is_word(*c))).then_some(run)
}

/// Digits, with a decimal part: its length.
fn number(s: &[char]) -> usize {
    let digits = |from: usize| s[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let n = digits(0);
    match (s.get(n), s.get(n + 1)) {
        (Some('.'), Some(c)) if c.is_ascii_digit() => n + 1 + digits(n + 1),
        _ => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(runs: &[u32], sig: &str) -> FailedIn {
        FailedIn {
            runs: runs.iter().map(|r| (*r, Some(sig.to_string()))).collect(),
        }
    }

    #[test]
    fn what_changes_from_run_to_run_is_masked() {
        for (message, want) in [
            (
                "Connection refused: localhost/127.0.0.1:41234",
                "java.net.ConnectException: Connection refused: localhost/<ip>:<n>",
            ),
            (
                "could not write /tmp/junit81723/data/x.bin (No space left)",
                "java.net.ConnectException: could not write <tmp> (No space left)",
            ),
            (
                "node [node-3] at [::1]:9300 took 1.5s, id 3f2a1b9c-0000-4d2e-9abc-1234567890ab",
                "java.net.ConnectException: node [node-<n>] at [<ip>]:<n> took <n>s, id <uuid>",
            ),
            (
                "Foo@6d06d69c != Foo@1b2c3d4e at 0xDEADBEEF in Http2Handler",
                "java.net.ConnectException: Foo@<hex> != Foo@<hex> at <hex> in Http2Handler",
            ),
        ] {
            assert_eq!(signature("java.net.ConnectException", message), want);
        }
        // A body that names its type already; no message at all.
        assert_eq!(
            signature(
                "java.lang.IllegalStateException",
                "java.lang.IllegalStateException: boom 12\n\tat a.B(B.java:3)"
            ),
            "java.lang.IllegalStateException: boom <n>"
        );
        assert_eq!(
            signature("java.lang.NullPointerException", ""),
            "java.lang.NullPointerException"
        );
        assert_eq!(mask(r"at C:\Users\ci\AppData\Local\Temp\x1\f"), "at <tmp>");
        assert_eq!(
            mask("/var/folders/ab/T/x and /home/u/src"),
            "<tmp> and /home/u/src"
        );
        let long = signature("T", &"x".repeat(500));
        assert_eq!(long.chars().count(), SIGNATURE_CHARS + 1);
    }

    #[test]
    fn tests_failing_in_the_same_runs_are_one_cluster() {
        let tests = vec![
            failed(&[1, 4, 7], "refused"),
            failed(&[2, 5], "other"), // fails alone
            failed(&[1, 4, 7], "refused"),
            failed(&[1, 4, 7, 9], "refused"), // 3/4 = 0.75 with each: linked through none
            failed(&[1, 4, 7], "refused"),
            failed(&[3], "once"),
        ];
        let found = find(&tests);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].members, [0, 2, 4]);
        assert_eq!(found[0].runs, [1, 4, 7]);
        assert_eq!(found[0].signature, Some(("refused".to_string(), 3)));
    }

    /// A run folder of `local`: three Gradle runs of one class whose three
    /// tests lose their server in runs 1 and 3 (on other ports), and a
    /// fourth test failing on its own in run 2.
    fn run_folder() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for iter in 1..=3 {
            let refused = |m: &str| match iter {
                2 => format!(r#"<testcase classname="a.NetTests" name="{m}"/>"#),
                _ => format!(
                    r#"<testcase classname="a.NetTests" name="{m}"><failure type="java.net.ConnectException" message="Connection refused: localhost/127.0.0.1:{}"/></testcase>"#,
                    40000 + iter
                ),
            };
            let alone = match iter {
                2 => r#"<testcase classname="a.NetTests" name="testAlone"><failure type="java.lang.AssertionError" message="no"/></testcase>"#.to_string(),
                _ => r#"<testcase classname="a.NetTests" name="testAlone"/>"#.to_string(),
            };
            let cases: String = ["testGet", "testPut", "testDelete"].map(refused).concat();
            let xml = format!("<testsuite name=\"a.NetTests\">{cases}{alone}</testsuite>");
            let dest = dir.path().join(format!(
                "batch-1/flakiness-iters/iter-{iter}/server/build/test-results/test"
            ));
            std::fs::create_dir_all(&dest).unwrap();
            std::fs::write(dest.join("TEST-a.NetTests.xml"), xml).unwrap();
        }
        dir
    }

    #[test]
    fn a_reports_tests_failing_in_the_same_gradle_runs_are_a_cluster() {
        let dir = run_folder();
        let opts = crate::analyze::AnalyzeOptions {
            planned: true,
            ..Default::default()
        };
        let report = crate::analyze::analyze_root(dir.path(), &opts);
        assert_eq!(report.clusters.len(), 1, "{:?}", report.clusters);
        let c = &report.clusters[0];
        let names: Vec<&str> = c.tests.iter().map(|t| t.method.as_str()).collect();
        assert_eq!(names, ["testDelete", "testGet", "testPut"]);
        assert_eq!(c.runs, ["batch-1/iter-1", "batch-1/iter-3"]);
        assert_eq!(
            c.signature.as_deref(),
            Some("java.net.ConnectException: Connection refused: localhost/<ip>:<n>")
        );
        assert_eq!((c.shared_by, c.tests[0].task.as_str()), (3, "test"));
        let md = crate::analyze::render::markdown(&report);
        assert!(
            md.contains(
                "- 3 tests failed together in 2 runs: `java.net.ConnectException: Connection \
                 refused: localhost/<ip>:<n>` (all 3). Tests: `a.NetTests#testDelete`, \
                 `a.NetTests#testGet`, `a.NetTests#testPut`; runs: `batch-1/iter-1`, \
                 `batch-1/iter-3`."
            ),
            "{md}"
        );
        let json = crate::analyze::render::json(&report);
        assert!(json.contains("\"clusters\": ["), "{json}");
    }

    #[test]
    fn one_shared_run_is_chance_and_links_chain() {
        // Sharing one run of one: Jaccard 1, but once.
        assert!(find(&[failed(&[1], "a"), failed(&[1], "a")]).is_empty());
        // a~b and b~c (4/5 each), a and c 3/5: one cluster through b.
        let tests = vec![
            failed(&[1, 2, 3, 4], "x"),
            failed(&[1, 2, 3, 4, 5], "x"),
            failed(&[2, 3, 4, 5], "y"),
        ];
        let found = find(&tests);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].members, [0, 1, 2]);
        assert_eq!(found[0].runs, [1, 2, 3, 4, 5]);
        assert_eq!(found[0].signature, Some(("x".to_string(), 2)));
    }
}
