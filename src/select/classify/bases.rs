//! Classes that run through other classes: an abstract base, or a changed
//! concrete one, through its concrete subclasses across the build
//! ([`expand`]); a JUnit 3 bulk test through the test classes of the type
//! whose `bulkTest*()` method creates it ([`bulk`]).

use super::*;
use crate::domain::{Origin, Reason, ReasonCode};
use crate::select::bulk;
use crate::select::expand::{self, Hierarchy};
use crate::select::roots::{Root, TaskBinding};
use std::path::Path;

impl Classifier<'_> {
    pub(super) fn hierarchy(&self) -> &Hierarchy {
        self.hierarchy
            .get_or_init(|| Hierarchy::read(self.files, &self.roots.source_files()))
    }

    /// Classifies the concrete subclasses of `base` (abstract, or a changed
    /// concrete class: `concrete_base`, which Gradle may never run itself:
    /// `base_not_run` says why), each through its own file and source set,
    /// and records the expansion. Returns the outcomes of the chosen ones,
    /// or why none can run.
    pub(super) fn expand(
        &self,
        base: &str,
        target: &ClassTarget,
        (concrete_base, base_not_run): (bool, Option<String>),
        log: &mut Decisions,
    ) -> Result<Vec<Classification>, Skip> {
        let hierarchy = self.hierarchy();
        let classify = |d: &expand::Descendant, log: &mut Decisions| {
            let sub = ClassTarget {
                nested: None,
                binary: Some(d.binary.clone()),
                method: target.method.clone(),
                origin: target.origin,
                only: target.only.clone(),
            };
            self.roots
                .containing(&d.path)
                .iter()
                .filter(|r| !r.resources)
                .flat_map(|root| self.classify_file(root, &d.path, &sub, log))
                .collect()
        };
        let (outcomes, mut expansion) =
            expand::expand(hierarchy, base, self.choice.subclass_cap, log, classify)?;
        expansion.concrete_base = concrete_base;
        expansion.base_not_run = base_not_run;
        log.expansions.push(expansion);
        Ok(outcomes)
    }

    /// A changed concrete class that Gradle never runs here (its tasks'
    /// patterns leave it out, or its detection finds no test in it) is a
    /// base: its concrete subclasses run what they inherit of the change,
    /// within `--subclass-cap` (those left out said). Without one, a class
    /// that declares no test of its own is no test (nothing is selected);
    /// one that does keeps its refusal (its tests cannot run). A class named,
    /// unmuted or reached through an expansion means that class.
    pub(super) fn never_run_base(
        &self,
        never: NeverRun,
        target: &ClassTarget,
        log: &mut Decisions,
    ) -> Result<Vec<Classification>, Skip> {
        let NeverRun {
            class,
            own_tests,
            skip,
        } = never;
        let whole = target.binary.is_none() && target.method.is_none() && target.nested.is_none();
        if target.origin != Origin::Changed || !whole {
            return Err(skip);
        }
        let why = match &skip {
            Skip::NotATest(text) => text.clone(),
            Skip::Unresolved(reason) => reason.text.clone(),
        };
        let expanded = self.expand(&class, target, (true, Some(why.clone())), log);
        expanded.map_err(|_| match skip {
            Skip::Unresolved(_) if !own_tests => Skip::NotATest(format!(
                "`{class}` declares no test of its own and no concrete subclass of it runs \
                 here: {why}"
            )),
            skip => skip,
        })
    }

    /// A changed concrete test class runs itself and, like an abstract base,
    /// up to `--subclass-cap` of its concrete subclasses: they inherit its
    /// changed test methods (a change may fail only in a subclass). Not for a
    /// class reached through an expansion (its base's expansion covers its
    /// subclasses), nor for a named or unmuted class, which means that class.
    pub(super) fn changed_concrete_base(
        &self,
        class: &str,
        target: &ClassTarget,
        log: &mut Decisions,
    ) -> Vec<Classification> {
        if target.origin != Origin::Changed || target.binary.is_some() || target.method.is_some() {
            return Vec::new();
        }
        // No runnable subclass: nothing more runs, and nothing is recorded.
        self.expand(class, target, (true, None), log)
            .unwrap_or_default()
    }

    /// A nested class its task leaves out that a `bulkTest*()` method of its
    /// file creates ([`bulk`]): named, it runs through the test classes
    /// of that method's type; met in an expansion, it is not run alone.
    /// `None` when it is no bulk test.
    pub(super) fn bulk_test(
        &self,
        root: &Root,
        path: &Path,
        subject: &Subject,
        target: &ClassTarget,
        log: &mut Decisions,
    ) -> Option<Result<Vec<Classification>, Skip>> {
        let class = subject.class.as_deref()?;
        let unit = self.parse(path);
        let local = unit.local_of(class);
        let creator = bulk::creator(&unit, local)?;
        let owner = match unit.package.as_str() {
            "" => creator.owner.clone(),
            package => format!("{package}.{}", creator.owner),
        };
        let how = format!(
            "`{class}` is a JUnit 3 bulk test: only `{owner}.{}()` creates it, and it runs \
             inside the suites `BulkTest.makeSuite` builds for the test classes of `{owner}`",
            creator.method
        );
        if target.binary.is_some() {
            return Some(Err(Skip::Unresolved(Reason::new(
                ReasonCode::BulkTestOnly,
                format!("{how}, never alone"),
            ))));
        }
        log.notes.push(format!("{how}: it runs through them"));
        let owner_target = ClassTarget {
            nested: creator.owner.split_once('$').map(|(_, n)| n.to_string()),
            binary: None,
            method: None,
            origin: target.origin,
            only: target.only.clone(),
        };
        Some(self.classify_one(root, path, &owner_target, log))
    }

    /// An abstract class runs through its concrete subclasses. When none can
    /// run, a changed file of code no Test task runs (main code) is simply not
    /// a test; anything else is unresolved with the reason.
    pub(super) fn abstract_class(
        &self,
        root: &Root,
        class: &str,
        target: &ClassTarget,
        log: &mut Decisions,
    ) -> Result<Vec<Classification>, Skip> {
        match self.expand(class, target, (false, None), log) {
            Err(Skip::Unresolved(reason))
                if target.origin == Origin::Changed && matches!(root.tie, TaskBinding::NotTest) =>
            {
                Err(Skip::NotATest(reason.text))
            }
            other => other,
        }
    }
}
