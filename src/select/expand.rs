//! Abstract test bases → their concrete subclasses, across the whole build.
//!
//! A change to an abstract base (`AbstractWireTestCase`, in a test framework's
//! main code or in a test source set) changes every concrete class that
//! inherits it, in every project. The hierarchy is read from the sources of
//! every source set the build has (main included), so planning compiles
//! nothing: each file is parsed for its package, imports and declared types
//! ([`super::source`]), and every class's superclass is resolved to a binary
//! name by Java's scoping rules over an index of every type the build
//! declares:
//! 1. member types of the enclosing classes (inherited ones too),
//! 2. types of the same file and single-type imports (an import of a type the
//!    build does not declare shadows the package: it is someone else's type),
//! 3. types of the same package, in any project,
//! 4. on-demand imports (`a.b.*`, `a.b.Outer.*`),
//! 5. a fully qualified name (`org.e.Base`, `org.e.Outer.Inner`).
//!
//! Type arguments are dropped (`Base<T>` extends `Base`), nested classes are
//! `Outer$Inner`, and a simple name means different classes in different
//! packages. What sources cannot say (a supertype from a jar, a generated
//! source the layout does not report) is not ours to expand.

use super::expansion::{Expansion, NotRun};
use super::files::Files;
use super::outcome::Decisions;
use super::outcome::{Classification, Skip};
use super::source::{self, Language, TypeKind, Unit};
use super::supertypes::{self, Supertype, Supertypes};
use crate::domain::{Reason, ReasonCode};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

/// How deep inherited member types and their superclasses are followed.
const MAX_DEPTH: usize = 4;

/// The default of `--subclass-cap`.
pub(crate) const DEFAULT_SUBCLASS_CAP: usize = 5;

/// A parsed source file of the build.
#[derive(Clone, Debug)]
pub(crate) struct SourceFile {
    /// Relative to the build root.
    pub path: PathBuf,
    pub unit: Unit,
}

impl SourceFile {
    /// Parses `text`, the content of `path` (by its extension; `None` for
    /// files that are not Java, Groovy or Kotlin).
    pub(crate) fn parse(path: PathBuf, text: &str) -> Option<SourceFile> {
        let lang = Language::of_extension(path.extension()?.to_str()?)?;
        Some(SourceFile {
            path,
            unit: source::parse(text, lang),
        })
    }

    fn binary(&self, local: &str) -> String {
        source::names::binary_in(&self.unit, local)
    }
}

/// A declared type: file and position in it.
type DeclAt = (usize, usize);

/// A concrete class that inherits a base.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Descendant {
    /// Binary name, e.g. `org.e.FooTests$Inner`.
    pub binary: String,
    /// Its file, relative to the build root.
    pub path: PathBuf,
}

/// Every class hierarchy of the build.
#[derive(Debug, Default)]
pub(crate) struct Hierarchy {
    files: Vec<SourceFile>,
    by_binary: HashMap<String, Vec<DeclAt>>,
    /// Superclass binary name → the classes that extend it.
    children: HashMap<String, Vec<DeclAt>>,
}

impl Hierarchy {
    /// Indexes the files and resolves every class's superclass.
    pub(crate) fn build(files: Vec<SourceFile>) -> Hierarchy {
        let mut h = Hierarchy {
            files,
            ..Hierarchy::default()
        };
        for (fi, file) in h.files.iter().enumerate() {
            for (ti, t) in file.unit.types.iter().enumerate() {
                h.by_binary
                    .entry(file.binary(&t.local))
                    .or_default()
                    .push((fi, ti));
            }
        }
        let edges: Vec<(String, DeclAt)> = (0..h.files.len())
            .into_par_iter()
            .flat_map_iter(|fi| {
                let h = &h;
                (0..h.files[fi].unit.types.len())
                    .filter_map(move |ti| h.superclass((fi, ti), 0).map(|s| (s, (fi, ti))))
            })
            .collect();
        for (parent, child) in edges {
            h.children.entry(parent).or_default().push(child);
        }
        h
    }

    /// Reads and parses `paths` (in parallel; files that are not Java, Groovy
    /// or Kotlin, or cannot be read, are left out) and builds their hierarchy.
    pub(crate) fn read(files: &dyn Files, paths: &[&PathBuf]) -> Hierarchy {
        let parsed: Vec<SourceFile> = paths
            .par_iter()
            .filter(|p| Language::of_path(p).is_some())
            .filter_map(|p| SourceFile::parse((*p).clone(), &files.read(p)?))
            .collect();
        Hierarchy::build(parsed)
    }

    /// Every concrete class inheriting `base`, directly or through other
    /// classes (abstract or not), sorted by binary name then file.
    pub(crate) fn descendants(&self, base: &str) -> Vec<Descendant> {
        let mut found = BTreeSet::new();
        let mut seen_types: HashSet<&str> = HashSet::from([base]);
        let mut seen_decls: HashSet<DeclAt> = HashSet::new();
        let mut queue = VecDeque::from([base.to_string()]);
        while let Some(parent) = queue.pop_front() {
            for &child in self.children.get(&parent).into_iter().flatten() {
                if !seen_decls.insert(child) {
                    continue;
                }
                let file = &self.files[child.0];
                let t = self.decl(child);
                let binary = file.binary(&t.local);
                if t.kind == TypeKind::Class && !t.is_abstract {
                    found.insert(Descendant {
                        binary: binary.clone(),
                        path: file.path.clone(),
                    });
                }
                if let Some((key, _)) = self.by_binary.get_key_value(&binary) {
                    if seen_types.insert(key.as_str()) {
                        queue.push_back(binary);
                    }
                }
            }
        }
        found.into_iter().collect()
    }

    /// Where `binary` is declared: in the file `in_file` when it declares it,
    /// else the first file that does.
    fn at(&self, binary: &str, in_file: Option<&Path>) -> Option<DeclAt> {
        let all = self.by_binary.get(binary)?;
        let own = in_file.and_then(|f| all.iter().find(|a| self.files[a.0].path == f));
        own.or_else(|| all.first()).copied()
    }

    /// The file and declaration of `binary` (see [`Self::at`]).
    pub(crate) fn declaration(
        &self,
        binary: &str,
        in_file: Option<&Path>,
    ) -> Option<(&SourceFile, &source::Declared)> {
        let at = self.at(binary, in_file)?;
        Some((&self.files[at.0], self.decl(at)))
    }

    /// The supertypes of the type `binary` declares, each resolved to the
    /// build's type or, when the build does not declare it, to the names it
    /// can have outside.
    pub(crate) fn supertypes(&self, binary: &str, in_file: Option<&Path>) -> Option<Supertypes> {
        let at = self.at(binary, in_file)?;
        let (file, t) = (&self.files[at.0], self.decl(at));
        let lang = Language::of_path(&file.path).unwrap_or(Language::Java);
        let resolve = |name: &str| match self.resolve(at, name, 0) {
            Some(binary) => Supertype::Declared(binary),
            None => Supertype::Outside(supertypes::candidates(&file.unit, lang, name)),
        };
        let mut others: Vec<Supertype> = t.interfaces.iter().map(|n| resolve(n)).collect();
        if t.kind != TypeKind::Class {
            others.extend(t.supers.iter().map(|s| resolve(&s.name)));
            return Some(Supertypes {
                superclass: None,
                interfaces: others,
            });
        }
        let mut supers: Vec<(bool, Supertype)> = t
            .supers
            .iter()
            .map(|s| (s.superclass, resolve(&s.name)))
            .collect();
        // Kotlin's `:` list without a constructor call: the build's class
        // among them, else one from outside may be it.
        let pick = supers
            .iter()
            .position(|(known, _)| *known)
            .or_else(|| {
                supers.iter().position(|(_, s)| {
                    matches!(s, Supertype::Declared(b) if self.kind(b) == Some(TypeKind::Class))
                })
            })
            .or_else(|| {
                supers
                    .iter()
                    .position(|(_, s)| matches!(s, Supertype::Outside(_)))
            });
        let superclass = pick.map(|i| supers.remove(i).1);
        others.extend(supers.into_iter().map(|(_, s)| s));
        Some(Supertypes {
            superclass,
            interfaces: others,
        })
    }

    fn decl(&self, (fi, ti): DeclAt) -> &source::Declared {
        &self.files[fi].unit.types[ti]
    }

    fn kind(&self, binary: &str) -> Option<TypeKind> {
        let &at = self.by_binary.get(binary)?.first()?;
        Some(self.decl(at).kind)
    }

    /// The binary name of a class's superclass, when the build declares it.
    fn superclass(&self, at: DeclAt, depth: usize) -> Option<String> {
        let t = self.decl(at);
        if t.kind != TypeKind::Class || depth > MAX_DEPTH {
            return None;
        }
        if let Some(known) = t.supers.iter().find(|s| s.superclass) {
            return self.resolve(at, &known.name, depth);
        }
        // Kotlin without a constructor call: the supertype that is a class.
        t.supers
            .iter()
            .filter_map(|s| self.resolve(at, &s.name, depth))
            .find(|b| self.kind(b) == Some(TypeKind::Class))
    }

    /// A type name as written in the header of the type at `at`, resolved to
    /// a binary name the build declares.
    fn resolve(&self, at: DeclAt, name: &str, depth: usize) -> Option<String> {
        let file = &self.files[at.0];
        let t = self.decl(at);
        let mut segments = name.split('.');
        let first = segments.next()?;
        let rest: Vec<&str> = segments.collect();
        let mut found = self.resolve_simple(file, t.enclosing(), first, depth);
        if found.is_none() {
            return source::names::qualified(name, &|b| self.by_binary.contains_key(b));
        }
        for segment in rest {
            found = self.member(found.as_deref()?, segment, depth);
        }
        found
    }

    /// The first segment of a name, by scope (see the module comment).
    fn resolve_simple(
        &self,
        file: &SourceFile,
        enclosing: Option<&str>,
        simple: &str,
        depth: usize,
    ) -> Option<String> {
        let mut outer = enclosing;
        while let Some(local) = outer {
            if let Some(member) = self.member(&file.binary(local), simple, depth) {
                return Some(member);
            }
            outer = local.rsplit_once('$').map(|(o, _)| o);
        }
        source::names::by_imports(&file.unit, simple, &|b| self.by_binary.contains_key(b))
    }

    /// The member type `simple` of `owner`, declared there or inherited.
    fn member(&self, owner: &str, simple: &str, depth: usize) -> Option<String> {
        let direct = format!("{owner}${simple}");
        if self.by_binary.contains_key(&direct) {
            return Some(direct);
        }
        if depth >= MAX_DEPTH {
            return None;
        }
        self.by_binary
            .get(owner)?
            .iter()
            .filter_map(|&at| self.superclass(at, depth + 1))
            .find_map(|s| self.member(&s, simple, depth + 1))
    }
}

/// Picks up to `cap` of `runnable` (sorted by binary name), taking them in
/// turn from each project (projects in path order) so that a base with
/// subclasses in many projects is tried in several; the choice comes back
/// sorted by binary name. `project_of` names a descendant's project.
pub(crate) fn spread<T: Clone>(
    runnable: &[T],
    cap: usize,
    project_of: impl Fn(&T) -> String,
) -> Vec<T> {
    let mut by_project: BTreeMap<String, VecDeque<usize>> = BTreeMap::new();
    for (i, d) in runnable.iter().enumerate() {
        by_project.entry(project_of(d)).or_default().push_back(i);
    }
    let mut chosen = Vec::new();
    while chosen.len() < cap.min(runnable.len()) {
        for queue in by_project.values_mut() {
            if chosen.len() == cap {
                break;
            }
            if let Some(i) = queue.pop_front() {
                chosen.push(i);
            }
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|i| runnable[i].clone()).collect()
}

/// Whether the file declares `local` (`Outer`, `Outer$Inner`) as an abstract
/// class: a base that runs through its subclasses.
pub(crate) fn is_abstract_in(unit: &Unit, local: &str) -> bool {
    unit.types.iter().any(|t| t.local == local && t.is_abstract)
}

/// Expands the abstract class `base` into its concrete subclasses across the
/// build: `classify` gives each one's outcomes (through its own file and
/// source set), and up to `cap` of those that can run are chosen, spread over
/// projects. Returns the chosen ones' outcomes and the expansion to record,
/// or why none can run.
pub(crate) fn expand(
    hierarchy: &Hierarchy,
    base: &str,
    cap: usize,
    log: &mut Decisions,
    classify: impl Fn(&Descendant, &mut Decisions) -> Vec<Classification>,
) -> Result<(Vec<Classification>, Expansion), Skip> {
    let descendants = hierarchy.descendants(base);
    let mut runnable: Vec<(Descendant, String, Vec<Classification>)> = Vec::new();
    let mut not_run = Vec::new();
    for d in &descendants {
        let outcomes = classify(d, log);
        let project = outcomes
            .iter()
            .find_map(|o| o.as_ref().ok())
            .map(|t| t.project.clone());
        match project {
            Some(project) => runnable.push((d.clone(), project, outcomes)),
            None => not_run.extend(why_not_run(d, &outcomes)),
        }
    }
    if runnable.is_empty() {
        return Err(none_can_run(base, not_run, descendants.len()));
    }
    let cap = cap.max(1);
    let chosen = spread(&runnable, cap, |(_, project, _)| project.clone());
    let expansion = Expansion {
        base: base.to_string(),
        chosen: chosen.iter().map(|(d, _, _)| d.binary.clone()).collect(),
        total: runnable.len(),
        cap,
        concrete_base: false,
        base_not_run: None,
        not_run,
    };
    let left_out: Vec<&str> = runnable
        .iter()
        .map(|(d, _, _)| d.binary.as_str())
        .filter(|b| !expansion.chosen.iter().any(|c| c == b))
        .collect();
    let beyond_cap = beyond_cap(base, &left_out, &expansion);
    Ok((
        chosen
            .into_iter()
            .flat_map(|(_, _, o)| o)
            .chain(beyond_cap.map(|r| Err(Skip::Unresolved(r))))
            .collect(),
        expansion,
    ))
}

/// Why the subclass `d` cannot run: a refusal says more than a name, so an
/// unresolved outcome comes before "not a test"; `None` when neither says.
fn why_not_run(d: &Descendant, outcomes: &[Classification]) -> Option<NotRun> {
    let unresolved = outcomes.iter().find_map(|o| match o {
        Err(Skip::Unresolved(r)) => Some(r.clone()),
        _ => None,
    });
    let not_a_test = || {
        outcomes.iter().find_map(|o| match o {
            Err(Skip::NotATest(text)) => Some(Reason::new(ReasonCode::NotATest, text.clone())),
            _ => None,
        })
    };
    let reason = unresolved.or_else(not_a_test)?;
    Some(NotRun {
        class: d.binary.clone(),
        reason_code: reason.code,
        reason: reason.text,
    })
}

/// Why the abstract `base` cannot run when none of its `found` concrete
/// subclasses can: the first refusal, else that none is a test.
fn none_can_run(base: &str, not_run: Vec<NotRun>, found: usize) -> Skip {
    let refused = not_run
        .into_iter()
        .find(|n| n.reason_code != ReasonCode::NotATest);
    Skip::Unresolved(match refused {
        Some(first) => Reason::new(
            first.reason_code,
            format!(
                "`{base}` is abstract, and its concrete subclasses cannot run here: `{}`: {}",
                first.class, first.reason
            ),
        ),
        None => Reason::new(
            ReasonCode::AbstractNoConcreteSubclass,
            format!(
                "`{base}` is abstract and no concrete test class of the build extends it \
                 (found {found} concrete subclass(es), none a test Gradle would run)"
            ),
        ),
    })
}

/// How many subclass names a reason lists before it counts the rest.
const NAMES_SHOWN: usize = 10;

/// The subclasses of `base` that could run but were left out by the cap:
/// they inherit what the selection covers, so they are said not checked (a
/// flake that shows only in one of them must not read as a clean run). Simple
/// names keep the reason short enough for a report line.
fn beyond_cap(base: &str, left_out: &[&str], expansion: &Expansion) -> Option<Reason> {
    if left_out.is_empty() {
        return None;
    }
    let mut names: Vec<String> = left_out
        .iter()
        .take(NAMES_SHOWN)
        .map(|b| format!("`{}`", b.rsplit('.').next().unwrap_or(b)))
        .collect();
    if left_out.len() > NAMES_SHOWN {
        names.push(format!("and {} more", left_out.len() - NAMES_SHOWN));
    }
    Some(Reason::new(
        ReasonCode::BeyondSubclassCap,
        format!(
            "{} of the {} concrete test subclasses of `{base}` did not run (--subclass-cap {}; \
             raise it to run them): {}",
            left_out.len(),
            expansion.total,
            expansion.cap,
            names.join(", ")
        ),
    ))
}

#[cfg(test)]
#[path = "expand_tests.rs"]
mod tests;
