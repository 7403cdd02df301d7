//! The strings of a summary's records, each kept once and named by a
//! number: rows hold numbers, so a record costs no copy of its commit or
//! branch, and a row is found by comparing numbers, not strings. Commits and
//! branches no row names any more are dropped now and then
//! ([`Names::compact`]), so that memory follows the rows kept, not the
//! records read.

use super::Condition;
use std::collections::HashMap;

use crate::ledger::Fast;

/// Commits and branches held before those no row names are dropped (at
/// least; then twice what is left).
const COMPACT_AT_LEAST: usize = 1 << 14;

/// Each distinct string once, numbered in the order first seen.
#[derive(Debug, Default)]
pub(in crate::ledger) struct Strings {
    names: Vec<Box<str>>,
    ids: HashMap<Box<str>, u32, Fast>,
    /// The last string numbered: a run's records follow each other and
    /// share their commit and branch, found again by one comparison.
    last: Option<u32>,
}

impl Strings {
    pub(in crate::ledger) fn id(&mut self, s: &str) -> u32 {
        if let Some(last) = self.last.filter(|&l| *self.names[l as usize] == *s) {
            return last;
        }
        let id = match self.ids.get(s) {
            Some(&id) => id,
            None => {
                let id = u32::try_from(self.names.len()).expect("fewer than 2³² strings");
                self.names.push(s.into());
                self.ids.insert(s.into(), id);
                id
            }
        };
        self.last = Some(id);
        id
    }

    pub(in crate::ledger) fn get(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    pub(in crate::ledger) fn len(&self) -> usize {
        self.names.len()
    }

    /// Keeps the strings `keep` marks, renumbered in their order; the new
    /// number of each old one (`u32::MAX` for one dropped).
    fn retain(&mut self, keep: &[bool]) -> Vec<u32> {
        let mut renumbered = vec![u32::MAX; self.names.len()];
        let old = std::mem::take(&mut self.names);
        self.ids.clear();
        self.last = None;
        for (i, name) in old.into_iter().enumerate() {
            if keep[i] {
                renumbered[i] = self.names.len() as u32;
                self.ids.insert(name.clone(), renumbered[i]);
                self.names.push(name);
            }
        }
        renumbered
    }

    /// The numbers here of every string of `other`.
    pub(in crate::ledger) fn translate(&mut self, other: &Strings) -> Vec<u32> {
        other.names.iter().map(|s| self.id(s)).collect()
    }
}

/// A test as one number: its class's and its method's.
pub(in crate::ledger) fn test_key(class: u32, method: u32) -> u64 {
    (u64::from(class) << 32) | u64::from(method)
}

/// Every name a summary's tests refer to by number.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// Class and method names are kept (as many as the tests).
    pub classes: Strings,
    pub methods: Strings,
    pub commits: Strings,
    pub branches: Strings,
    /// Tasks and conditions are few and kept.
    pub tasks: Strings,
    conditions: Vec<Condition>,
    condition_ids: HashMap<Condition, u32, Fast>,
    /// Commits and branches held past which [`compact`](Self::compact) is
    /// due (and [`COMPACT_AT_LEAST`] at least).
    compact_at: usize,
}

/// Old numbers to new ones, of each kind of name.
#[derive(Default)]
pub(super) struct Renumbering {
    pub classes: Vec<u32>,
    pub methods: Vec<u32>,
    pub commits: Vec<u32>,
    pub branches: Vec<u32>,
    pub tasks: Vec<u32>,
    pub conditions: Vec<u32>,
}

impl Renumbering {
    /// A [`test_key`] of the other summary, here.
    pub(super) fn test(&self, key: u64) -> u64 {
        let (class, method) = ((key >> 32) as usize, key as u32 as usize);
        test_key(self.classes[class], self.methods[method])
    }
}

impl Names {
    /// The number of a record's condition (fewer than 2³¹: a row's number
    /// holds it beside a bit).
    pub(super) fn condition_id(&mut self, key: Condition) -> u32 {
        if let Some(&id) = self.condition_ids.get(&key) {
            return id;
        }
        let id = u32::try_from(self.conditions.len())
            .ok()
            .filter(|id| *id < 1 << 31)
            .expect("fewer than 2³¹ conditions");
        self.conditions.push(key);
        self.condition_ids.insert(key, id);
        id
    }

    /// The class and method of a [`test_key`].
    pub(super) fn test(&self, key: u64) -> (&str, &str) {
        let (class, method) = ((key >> 32) as u32, key as u32);
        (self.classes.get(class), self.methods.get(method))
    }

    pub(super) fn condition(&self, id: u32) -> Condition {
        self.conditions[id as usize]
    }

    /// Whether enough commits and branches are held to look for those no
    /// row names.
    pub(super) fn compact_due(&self) -> bool {
        self.commits.len() + self.branches.len() >= self.compact_at.max(COMPACT_AT_LEAST)
    }

    /// Keeps the commits and branches marked; their new numbers.
    pub(super) fn compact(&mut self, commits: &[bool], branches: &[bool]) -> (Vec<u32>, Vec<u32>) {
        let renumbered = (self.commits.retain(commits), self.branches.retain(branches));
        self.compact_at = 2 * (self.commits.len() + self.branches.len());
        renumbered
    }

    /// The numbers here of every name of `other`.
    pub(super) fn translate(&mut self, other: &Names) -> Renumbering {
        let conditions = other
            .conditions
            .iter()
            .map(|&c| self.condition_id(c))
            .collect();
        Renumbering {
            classes: self.classes.translate(&other.classes),
            methods: self.methods.translate(&other.methods),
            commits: self.commits.translate(&other.commits),
            branches: self.branches.translate(&other.branches),
            tasks: self.tasks.translate(&other.tasks),
            conditions,
        }
    }
}
