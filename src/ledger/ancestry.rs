//! What came before a commit, for history's newest-commit comparison: its
//! first-parent ancestors, as the build's checkout knows them. The ledger
//! keeps no parents, so a record of a sibling branch (a fix tried beside
//! this one) looks like any earlier record; only git can tell them apart.
//!
//! The lines are read once, after the records: each newest commit's
//! first-parent line is walked until it meets a line walked before (or for
//! at most [`LINE_LIMIT`] commits), so the lines of one repository cost
//! about one walk however many tests they serve, and each test's rows are
//! then placed by looking numbers up, never by asking git again.

use crate::git::Repo;
use git2::Oid;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// Commits walked per line that meets no line walked before: a row
/// further back on it is not counted before its newest commit.
pub(crate) const LINE_LIMIT: u32 = 10_000;

/// Why a newest commit is not compared with the records before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unplaced {
    /// Its records name no commit (they ran outside a git checkout).
    NoCommit,
    /// `history` ran outside a git checkout: which commits came before is unknown.
    OutsideGit,
    /// The checkout's repository does not hold its commit (not fetched).
    UnknownCommit,
    /// No record of its condition is of its first-parent ancestors: the
    /// others ran on other lines (siblings), never "before" it.
    NoAncestorRecords,
}

impl Unplaced {
    /// Why, for people.
    pub(crate) fn says(self) -> &'static str {
        match self {
            Unplaced::NoCommit => "its records name no commit, so what came before it is unknown",
            Unplaced::OutsideGit => {
                "history ran outside a git checkout, so which commits came before it is unknown"
            }
            Unplaced::UnknownCommit => {
                "this checkout's repository does not hold that commit (fetch it to compare)"
            }
            Unplaced::NoAncestorRecords => {
                "none of the other records of its condition is of its first-parent ancestors"
            }
        }
    }
}

/// One test's question: which of `others` are first-parent ancestors of `newest`.
pub(crate) struct Query<'a> {
    pub newest: &'a str,
    pub others: Vec<&'a str>,
}

/// Which commits are first-parent ancestors of which.
pub(crate) trait Lineage {
    /// For each query, whether each of its `others` is on its newest
    /// commit's first-parent line (an ancestor; never the commit itself),
    /// or why the newest commit cannot be placed.
    fn place(&mut self, queries: &[Query<'_>]) -> Vec<Result<Vec<bool>, Unplaced>>;
}

/// The build's checkout, or none (outside git).
pub(crate) struct Checkout {
    repo: Option<Repo>,
}

impl Checkout {
    /// The git checkout holding `dir`, if it is in one.
    pub(crate) fn at(dir: &Path) -> Checkout {
        Checkout {
            repo: Repo::discover(dir).ok(),
        }
    }
}

impl Lineage for Checkout {
    fn place(&mut self, queries: &[Query<'_>]) -> Vec<Result<Vec<bool>, Unplaced>> {
        let Some(repo) = &self.repo else {
            return queries.iter().map(|_| Err(Unplaced::OutsideGit)).collect();
        };
        let mut lines = Walks::new(repo);
        let newest: Vec<Option<Oid>> = queries.iter().map(|q| lines.resolve(q.newest)).collect();
        for oid in newest.iter().flatten() {
            lines.walk(*oid);
        }
        queries
            .iter()
            .zip(newest)
            .map(|(q, newest)| {
                let newest = newest.ok_or(Unplaced::UnknownCommit)?;
                let on_line = |c: &&str| lines.resolve(c).is_some_and(|c| lines.before(c, newest));
                Ok(q.others.iter().map(on_line).collect())
            })
            .collect()
    }
}

/// Where a walked commit lies: its segment, and its steps from the
/// segment's first commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    segment: u32,
    step: u32,
}

/// First-parent lines read from one repository, as segments: each walk
/// starts a segment and ends at a root, at the limit, or where it meets
/// a commit walked before (the segment then goes on where that commit is).
struct Walks<'r> {
    repo: &'r Repo,
    at: HashMap<Oid, At>,
    /// Where each segment goes on, when its walk met an earlier one.
    joins: Vec<Option<At>>,
    /// Recorded hashes resolved (abbreviated ones looked up once).
    resolved: HashMap<String, Option<Oid>>,
}

impl<'r> Walks<'r> {
    fn new(repo: &'r Repo) -> Walks<'r> {
        Walks {
            repo,
            at: HashMap::new(),
            joins: Vec::new(),
            resolved: HashMap::new(),
        }
    }

    fn resolve(&mut self, hash: &str) -> Option<Oid> {
        if let Some(oid) = self.resolved.get(hash) {
            return *oid;
        }
        let oid = self.repo.recorded_commit(hash);
        self.resolved.insert(hash.to_string(), oid);
        oid
    }

    /// Walks `from`'s first-parent line until it meets one walked before.
    fn walk(&mut self, from: Oid) {
        if self.at.contains_key(&from) {
            return;
        }
        let segment = self.joins.len() as u32;
        self.joins.push(None);
        self.at.insert(from, At { segment, step: 0 });
        let mut commit = from;
        for step in 1..=LINE_LIMIT {
            let Some(parent) = self.repo.first_parent(commit) else {
                return;
            };
            if let Some(&met) = self.at.get(&parent) {
                self.joins[segment as usize] = Some(met);
                return;
            }
            self.at.insert(parent, At { segment, step });
            commit = parent;
        }
    }

    /// Whether `commit` is on the walked line of `newest`, before it.
    fn before(&self, commit: Oid, newest: Oid) -> bool {
        let (Some(&c), Some(&n)) = (self.at.get(&commit), self.at.get(&newest)) else {
            return false;
        };
        // Past `n` on its segment, then from each commit a segment met on.
        let mut from = Some((n, false));
        while let Some((at, inclusive)) = from {
            if c.segment == at.segment && (c.step > at.step || (inclusive && c.step == at.step)) {
                return true;
            }
            from = self.joins[at.segment as usize].map(|met| (met, true));
        }
        false
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::git::tests::git;

    /// Commits in a line of their parents, by name: `(child, parent)`.
    pub(crate) struct Parents(pub Vec<(&'static str, &'static str)>);

    impl Lineage for Parents {
        fn place(&mut self, queries: &[Query<'_>]) -> Vec<Result<Vec<bool>, Unplaced>> {
            queries
                .iter()
                .map(|q| {
                    if !self.0.iter().any(|(c, p)| *c == q.newest || *p == q.newest) {
                        return Err(Unplaced::UnknownCommit);
                    }
                    let mut line = Vec::new();
                    let mut at = q.newest;
                    while let Some((_, p)) = self.0.iter().find(|(c, _)| *c == at) {
                        line.push(*p);
                        at = p;
                    }
                    Ok(q.others.iter().map(|o| line.contains(o)).collect())
                })
                .collect()
        }
    }

    /// One line of every commit, in the order of their names (shorter
    /// first: `c2` before `c10`).
    pub(crate) struct OneLine;

    impl Lineage for OneLine {
        fn place(&mut self, queries: &[Query<'_>]) -> Vec<Result<Vec<bool>, Unplaced>> {
            let key = |c: &str| (c.len(), c.to_string());
            queries
                .iter()
                .map(|q| Ok(q.others.iter().map(|o| key(o) < key(q.newest)).collect()))
                .collect()
        }
    }

    /// A repository with `main` A→B, `fix` from A with C, `nofix` from B
    /// with D; the hashes by name.
    pub(crate) fn branched() -> (tempfile::TempDir, HashMap<&'static str, String>) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let commit = |name: &str| {
            std::fs::write(d.join(format!("{name}.txt")), name).unwrap();
            git(d, &["add", "."]);
            git(d, &["commit", "-qm", name]);
            git(d, &["rev-parse", "HEAD"])
        };
        git(d, &["init", "-q", "-b", "main"]);
        let mut hashes = HashMap::new();
        hashes.insert("A", commit("A"));
        hashes.insert("B", commit("B"));
        git(d, &["checkout", "-qb", "fix", &hashes["A"]]);
        hashes.insert("C", commit("C"));
        git(d, &["checkout", "-qb", "nofix", &hashes["B"]]);
        hashes.insert("D", commit("D"));
        (dir, hashes)
    }

    /// Each query's answer, as the names of the others on its line.
    fn placed(
        checkout: &mut Checkout,
        queries: &[(&str, &[&str])],
    ) -> Vec<Result<Vec<String>, Unplaced>> {
        let queries: Vec<Query<'_>> = queries
            .iter()
            .map(|(newest, others)| Query {
                newest,
                others: others.to_vec(),
            })
            .collect();
        let answers = checkout.place(&queries);
        queries
            .iter()
            .zip(answers)
            .map(|(q, a)| {
                let on = a?.into_iter().zip(&q.others).filter(|(on, _)| *on);
                Ok(on.map(|(_, c)| c.to_string()).collect())
            })
            .collect()
    }

    #[test]
    fn a_checkout_places_commits_on_first_parent_lines_only() {
        let (dir, h) = branched();
        let (a, b, c, d) = (&h["A"][..], &h["B"][..], &h["C"][..], &h["D"][..]);
        let all = [a, b, c, d];
        let mut checkout = Checkout::at(dir.path());
        let got = placed(
            &mut checkout,
            &[
                (d, &all),
                (c, &all),
                (&d[..12], &[&a[..9], b, d]),
                (b, &all),
                ("f00dfeedf00dfeed", &all),
                ("HEAD", &all),
            ],
        );
        let names = |cs: &[&str]| Ok(cs.iter().map(|c| c.to_string()).collect::<Vec<_>>());
        assert_eq!(got[0], names(&[a, b]), "D: B and A, never C");
        assert_eq!(got[1], names(&[a]), "C: A, never B or D");
        assert_eq!(got[2], names(&[&a[..9], b]), "abbreviated hashes");
        assert_eq!(got[3], names(&[a]), "B, walked as D's line: A");
        assert_eq!(got[4], Err(Unplaced::UnknownCommit));
        assert_eq!(got[5], Err(Unplaced::UnknownCommit), "a ref is no hash");
        let outside = tempfile::tempdir().unwrap();
        assert_eq!(
            placed(&mut Checkout::at(outside.path()), &[(d, &all)]),
            [Err(Unplaced::OutsideGit)]
        );
    }

    #[test]
    fn a_merge_is_walked_along_its_first_parent() {
        let (dir, h) = branched();
        let d = dir.path();
        git(d, &["checkout", "-q", "main"]);
        git(d, &["merge", "-q", "--no-ff", "-m", "M", "fix"]);
        let m = git(d, &["rev-parse", "HEAD"]);
        let (a, b, c) = (&h["A"][..], &h["B"][..], &h["C"][..]);
        // Lines met in either order: D's first, then M's meets it at B.
        let got = placed(
            &mut Checkout::at(d),
            &[(&h["D"], &[a, b, c]), (&m, &[a, b, c])],
        );
        let names = |cs: &[&str]| Ok(cs.iter().map(|c| c.to_string()).collect::<Vec<_>>());
        assert_eq!(got[0], names(&[a, b]));
        // The merged branch's commit C is a second parent's: not on main's line.
        assert_eq!(got[1], names(&[a, b]));
    }
}
