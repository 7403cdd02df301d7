//! Suites: test classes that run other test classes. Older and Apache-style
//! builds include only their suites in the Test task (`include
//! '**/AllTests.class'`), and every other test class runs inside one:
//! - a JUnit 4 suite names its members in `@SuiteClasses({A.class, B.class})`
//!   (`@Suite.SuiteClasses`; the JUnit Platform's `@SelectClasses` alike);
//! - a JUnit 3 suite builds them in its `static Test suite()`: `new
//!   TestSuite(A.class)`, `suite.addTestSuite(A.class)`, `suite.addTest(A.suite())`,
//!   `suite.addTest(other.AllTests.suite())`, `suite.addTest(new A("testX"))`;
//!   every class literal, every `X.suite()` call and every class created
//!   with `new` in that body counts (a class naming itself does not; a
//!   created class the source set does not declare, `TestSuite`, is none).
//!   A test the included suite adds as an instance is a test of its own in
//!   that suite, which Gradle's `--tests` filter matches one by one.
//!
//! A member may be a suite itself (a suite of suites). The members of the
//! suites a task's patterns include are found from the sources of the source
//! set (the one Java source model), names resolved by Java's scoping rules:
//! member types of the suite, the file's types, single-type imports, the same
//! package, on-demand imports, then a fully qualified name. A class the
//! patterns leave out but such a suite runs is a test of that task, run
//! `via_suite`; how Gradle is made to run it exactly is the plan's choice
//! (`plan::suite_route`).

use super::files::Files;
use super::source::{self, names, BodyClass, Language, TypeKind, Unit};
use super::tasks::{self, SourceSetTasks, TaskChoice};
use crate::domain::ViaSuite;
use crate::layout::TestTask;
use crate::test_filter::{class_file, Patterns};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;

/// Annotations whose class arguments are a suite's members: JUnit 4's
/// `@SuiteClasses`, which Gradle's JUnit runner filters inside, and the JUnit
/// Platform's `@SelectClasses`.
const MEMBER_ANNOTATIONS: [(&str, bool); 2] = [("SuiteClasses", true), ("SelectClasses", false)];

/// Words without which a file declares no suite: read before parsing.
const MARKERS: [&str; 3] = ["SuiteClasses", "SelectClasses", "suite"];

/// Whether Gradle runs the suite class (binary name, file, parsed source) as
/// a test: its test detection decides, not the suite's shape.
pub(super) type Runs<'a> = dyn Fn(&str, &std::path::Path, &Unit) -> bool + 'a;

/// The top-level classes of a source set, by binary name, with their files.
pub(super) type Classes = HashMap<String, PathBuf>;

/// The classes a type of `unit` runs as a suite, as written, and whether it
/// is a JUnit 4 `@SuiteClasses` suite; `None` when it is no suite.
pub(super) fn declared(unit: &Unit, local: &str) -> Option<(Vec<String>, bool)> {
    let t = unit.types.iter().find(|t| t.local == local)?;
    if let Some((a, junit4)) = t.annotations.iter().find_map(|a| {
        MEMBER_ANNOTATIONS
            .iter()
            .find(|(name, _)| a.simple() == *name)
            .map(|(_, junit4)| (a, *junit4))
    }) {
        return Some((a.classes.clone(), junit4));
    }
    // Another runner decides what the class runs, not its suite() method;
    // but JUnit 4's `AllTests` runner runs exactly that method.
    if t.run_with()
        .is_some_and(|a| !a.classes.iter().any(|c| is_all_tests_runner(c)))
    {
        return None;
    }
    let suite = unit
        .methods
        .iter()
        .find(|m| m.owner == local && m.name == "suite")?;
    let named = suite
        .body_classes
        .iter()
        .map(|c| match c {
            BodyClass::Literal(name) | BodyClass::SuiteCall(name) | BodyClass::New(name) => {
                name.clone()
            }
        })
        .collect();
    Some((named, false))
}

/// The classes the JUnit 3 `suite()` of the type `local` adds as instances
/// only (`suite.addTest(new A("testX"))`, never `A.class` or `A.suite()`
/// besides), as written.
fn instances(unit: &Unit, local: &str) -> Vec<String> {
    let suite = unit
        .methods
        .iter()
        .find(|m| m.owner == local && m.name == "suite");
    let body = suite.into_iter().flat_map(|m| &m.body_classes);
    let named: HashSet<&String> = body
        .clone()
        .filter_map(|c| match c {
            BodyClass::Literal(name) | BodyClass::SuiteCall(name) => Some(name),
            BodyClass::New(_) => None,
        })
        .collect();
    body.filter_map(|c| match c {
        BodyClass::New(name) if !named.contains(name) => Some(name.clone()),
        _ => None,
    })
    .collect()
}

/// JUnit 4's runner of a JUnit 3 `suite()` method (`@RunWith(AllTests.class)`,
/// `org.junit.runners.AllTests`): JUnit 4's own tests reach their JUnit 3
/// tests so.
fn is_all_tests_runner(written: &str) -> bool {
    matches!(written, "AllTests" | "org.junit.runners.AllTests")
}

/// Whether the type `local` (binary name `binary`) of `unit` is a suite of
/// other classes, as far as `classes` (the source set's) resolve its names;
/// a JUnit 3 class whose `suite()` runs only itself is none.
pub(super) fn is_suite(unit: &Unit, local: &str, binary: &str, classes: &Classes) -> bool {
    members(unit, local, classes).is_some_and(|(members, _)| members.iter().any(|m| m != binary))
}

/// The members of a suite, resolved to binary names (unresolvable names left
/// out), and whether it is a JUnit 4 one.
fn members(unit: &Unit, local: &str, classes: &Classes) -> Option<(Vec<String>, bool)> {
    let (written, junit4) = declared(unit, local)?;
    let scope = SuiteScope {
        unit,
        local,
        classes,
    };
    Some((
        written.iter().filter_map(|w| scope.resolve(w)).collect(),
        junit4,
    ))
}

/// Where a name written in a type's code is looked up.
struct SuiteScope<'a> {
    unit: &'a Unit,
    local: &'a str,
    classes: &'a Classes,
}

impl SuiteScope<'_> {
    /// A class the source set declares: its top-level class has a file (a
    /// member type is taken on trust).
    fn exists(&self, binary: &str) -> bool {
        let outer = binary.split('$').next().unwrap_or(binary);
        self.classes.contains_key(outer)
    }

    /// A dotted name as written, to a binary name of the source set.
    fn resolve(&self, written: &str) -> Option<String> {
        let (first, rest) = match written.split_once('.') {
            Some((first, rest)) => (first, Some(rest)),
            None => (written, None),
        };
        let Some(head) = self.first(first) else {
            return names::qualified(written, &|b| self.exists(b));
        };
        Some(match rest {
            Some(rest) => format!("{head}${}", rest.replace('.', "$")),
            None => head,
        })
    }

    /// The first segment of a name, by Java's scoping rules: member types of
    /// the suite and its enclosing classes (declared in the file), then
    /// `source::names`.
    fn first(&self, simple: &str) -> Option<String> {
        let mut outer = Some(self.local);
        while let Some(local) = outer {
            let member = format!("{local}${simple}");
            if self.unit.types.iter().any(|t| t.local == member) {
                return Some(names::binary_in(self.unit, &member));
            }
            outer = local.rsplit_once('$').map(|(o, _)| o);
        }
        names::by_imports(self.unit, simple, &|b| self.exists(b))
    }
}

/// How one task's suites reach the classes they run.
#[derive(Debug, Default)]
pub(super) struct Membership {
    /// Member binary name → the included suites that run it, and how.
    by_member: HashMap<String, Ways>,
}

/// How a member is reached, over every way there.
#[derive(Debug)]
struct Ways {
    suites: BTreeSet<String>,
    /// Every way is a JUnit 4 `@SuiteClasses` one.
    junit4: bool,
    /// The suites whose `suite()` adds it as instances.
    created_by: BTreeSet<String>,
    /// Every way is such an instance.
    instance: bool,
}

impl Membership {
    /// How the task runs `class` through its suites, if it does.
    pub(super) fn via(&self, class: &str) -> Option<ViaSuite> {
        let ways = self.by_member.get(class)?;
        Some(ViaSuite {
            suites: ways.suites.iter().cloned().collect(),
            junit4: ways.junit4,
            created_by: match ways.instance {
                true => ways.created_by.iter().cloned().collect(),
                false => Vec::new(),
            },
            route: None,
        })
    }
}

/// A source set: (project path, source set name).
pub(super) type Set<'a> = (&'a str, &'a str);

/// The suites of the build's source sets, read once per task and source set.
#[derive(Default)]
pub(super) struct SuiteIndex {
    memberships: RefCell<HashMap<(String, String, String), Rc<Membership>>>,
    units: RefCell<HashMap<PathBuf, Rc<Unit>>>,
    classes: RefCell<HashMap<(String, String), Rc<Classes>>>,
}

impl SuiteIndex {
    /// The top-level classes of a source set (`compute`d once).
    fn classes(&self, (project, set): Set, compute: &dyn Fn() -> Classes) -> Rc<Classes> {
        let key = (project.to_string(), set.to_string());
        if let Some(c) = self.classes.borrow().get(&key) {
            return c.clone();
        }
        let c = Rc::new(compute());
        self.classes.borrow_mut().insert(key, c.clone());
        c
    }

    /// Whether the type `local` (binary name `binary`) of `unit`, a file of
    /// `set`, is a suite of other classes (see [`is_suite`]).
    pub(super) fn is_suite(
        &self,
        set: Set,
        unit: &Unit,
        binary: &str,
        compute: &dyn Fn() -> Classes,
    ) -> bool {
        let local = unit.local_of(binary);
        declared(unit, local).is_some()
            && is_suite(unit, local, binary, &self.classes(set, compute))
    }

    /// The members of the JUnit 3 suite `binary` of `unit` when its `suite()`
    /// leaves the class itself out although the class declares `test*`
    /// methods: the JUnit runner (Gradle's too) then runs only the members,
    /// never those methods. `None` for any other class. (Commons Collections'
    /// `TestMultiValueMap.suite()` runs `TestMultiHashMap` so.)
    pub(super) fn leaves_out_own_tests(
        &self,
        set: Set,
        unit: &Unit,
        binary: &str,
        compute: &dyn Fn() -> Classes,
    ) -> Option<Vec<String>> {
        let local = unit.local_of(binary);
        let t = unit.types.iter().find(|t| t.local == local)?;
        let annotated = t.annotations.iter().any(|a| {
            MEMBER_ANNOTATIONS
                .iter()
                .any(|(name, _)| a.simple() == *name)
        });
        let mut own = unit.methods.iter().filter(|m| m.owner == local);
        let suite = own.clone().find(|m| m.name == "suite")?;
        // `new ThisClass("testX")` in suite() runs one of its own methods.
        let simple = local.rsplit('$').next().unwrap_or(local);
        let creates_itself = suite
            .body_classes
            .iter()
            .any(|c| matches!(c, BodyClass::New(n) if n.rsplit('.').next() == Some(simple)));
        // JUnit 3 runs `public void test*()` methods; the source model keeps
        // no modifiers, so a helper named so counts too.
        let declares_tests = own.any(|m| m.name.starts_with("test"));
        if annotated || creates_itself || !declares_tests {
            return None;
        }
        let (members, _) = members(unit, local, &self.classes(set, compute))?;
        (!members.is_empty() && !members.iter().any(|m| m == binary)).then_some(members)
    }

    /// The unit of a file that may declare a suite; `None` when it cannot
    /// (no marker word) or cannot be read.
    fn suite_unit(&self, files: &dyn Files, path: &PathBuf) -> Option<Rc<Unit>> {
        if let Some(unit) = self.units.borrow().get(path) {
            return Some(unit.clone());
        }
        let lang = Language::of_path(path)?;
        let text = files.read(path)?;
        let unit = if MARKERS.iter().any(|m| text.contains(m)) {
            Rc::new(source::parse(&text, lang))
        } else {
            Rc::new(Unit::default())
        };
        self.units.borrow_mut().insert(path.clone(), unit.clone());
        Some(unit)
    }

    /// What the suites that `task`'s patterns include run, among the source
    /// set `set` of `project`, whose top-level classes are `classes`. A
    /// suite counts only when Gradle runs it: `runs` says whether its test
    /// detection finds the suite class (file and source) a test; a JUnit 3
    /// `suite()` in a class that does not extend `TestCase` is never run.
    pub(super) fn membership(
        &self,
        set: Set,
        task: &TestTask,
        compute: &dyn Fn() -> Classes,
        files: &dyn Files,
        runs: &Runs,
    ) -> Rc<Membership> {
        let key = (set.0.to_string(), set.1.to_string(), task.path.clone());
        if let Some(m) = self.memberships.borrow().get(&key) {
            return m.clone();
        }
        let classes = self.classes(set, compute);
        let m = Rc::new(self.read(&tasks::patterns_of(task), &classes, files, runs));
        self.memberships.borrow_mut().insert(key, m.clone());
        m
    }

    fn read(
        &self,
        patterns: &Patterns,
        classes: &Classes,
        files: &dyn Files,
        runs: &Runs,
    ) -> Membership {
        let mut m = Membership::default();
        if patterns.includes.is_empty() {
            // Without includes the task scans every class: nothing runs only in a suite.
            return m;
        }
        let mut included: Vec<(&String, &PathBuf)> = classes
            .iter()
            .filter(|(binary, _)| patterns.accepts(&class_file(binary)))
            .collect();
        included.sort();
        for (binary, path) in included {
            let Some(unit) = self.suite_unit(files, path) else {
                continue;
            };
            for t in unit.types.iter().filter(|t| t.kind == TypeKind::Class) {
                let suite = names::binary_in(&unit, &t.local);
                if suite.split('$').next() == Some(binary.as_str())
                    && patterns.accepts(&class_file(&suite))
                    && runs(&suite, path, &unit)
                {
                    self.walk(&suite, &unit, &t.local, classes, files, &mut m);
                }
            }
        }
        m
    }

    /// Records every class the included suite `top` runs, through suites of
    /// suites, with whether the way there is JUnit 4 all along, and the
    /// suite whose `suite()` adds it as an instance, if one does.
    fn walk(
        &self,
        top: &str,
        unit: &Unit,
        local: &str,
        classes: &Classes,
        files: &dyn Files,
        m: &mut Membership,
    ) {
        let Some((first, junit4)) = members(unit, local, classes) else {
            return;
        };
        let made = created(unit, local, classes);
        let by = |c: &String| made.contains(c).then(|| top.to_string());
        let mut queue: VecDeque<(String, bool, Option<String>)> = first
            .into_iter()
            .map(|c| (by(&c), c))
            .map(|(b, c)| (c, junit4, b))
            .collect();
        let mut seen: HashSet<(String, bool, Option<String>)> = HashSet::new();
        while let Some((class, junit4, creator)) = queue.pop_front() {
            if class == top || !seen.insert((class.clone(), junit4, creator.clone())) {
                continue;
            }
            let ways = m.by_member.entry(class.clone()).or_insert_with(|| Ways {
                suites: BTreeSet::new(),
                junit4: true,
                created_by: BTreeSet::new(),
                instance: true,
            });
            ways.suites.insert(top.to_string());
            ways.junit4 &= junit4;
            ways.instance &= creator.is_some();
            ways.created_by.extend(creator);
            // A member that is a suite runs its own members.
            let outer = class.split('$').next().unwrap_or(&class);
            let Some(unit) = classes.get(outer).and_then(|p| self.suite_unit(files, p)) else {
                continue;
            };
            let local = unit.local_of(&class);
            if let Some((more, inner)) = members(&unit, local, classes) {
                let made = created(&unit, local, classes);
                queue.extend(more.into_iter().filter(|c| *c != class).map(|c| {
                    let creator = made.contains(&c).then(|| class.clone());
                    (c, junit4 && inner, creator)
                }));
            }
        }
    }
}

/// The classes of the source set the `suite()` of `local` adds as instances.
fn created(unit: &Unit, local: &str, classes: &Classes) -> HashSet<String> {
    let scope = SuiteScope {
        unit,
        local,
        classes,
    };
    instances(unit, local)
        .iter()
        .filter_map(|w| scope.resolve(w))
        .collect()
}

/// The tasks that run `class` through suites their patterns include, among
/// the tasks tied to its source set (its own project's first, host-mutating
/// ones only when allowed): the bare task when it is one, else the newest
/// `choice.cap`. Each with how it runs the class.
pub(super) fn tasks_running(
    tied: &SourceSetTasks,
    class: &str,
    choice: TaskChoice,
    membership: &dyn Fn(&TestTask) -> Rc<Membership>,
) -> Vec<(String, ViaSuite)> {
    let enabled: Vec<&TestTask> = tied
        .tasks
        .iter()
        .filter(|t| t.enabled && (choice.allow_host_mutating || !tasks::is_host_mutating(&t.name)))
        .collect();
    let own: Vec<&TestTask> = enabled
        .iter()
        .copied()
        .filter(|t| tasks::task_project(&t.path) == tied.project)
        .collect();
    let candidates = if own.is_empty() { enabled } else { own };
    let mut running: Vec<(&TestTask, ViaSuite)> = candidates
        .into_iter()
        .filter_map(|t| membership(t).via(class).map(|via| (t, via)))
        .collect();
    if let Some(bare) = running.iter().position(|(t, _)| t.name == tied.source_set) {
        running = vec![running.swap_remove(bare)];
    }
    running.sort_by(|a, b| tasks::newest_first(&a.0.name, &b.0.name));
    running
        .into_iter()
        .take(choice.cap.max(1))
        .map(|(t, via)| (t.path.clone(), via))
        .collect()
}

#[cfg(test)]
#[path = "suites_tests.rs"]
mod tests;
