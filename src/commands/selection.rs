//! Gathers a `Selection` from the SELECTION options: runs git, reads
//! muted-tests.yml and loads the layout, then calls the pure selectors.

use super::options::SelectionConfig;
use crate::git::Repo;
use crate::layout::Build;
use crate::reports::walk::Walk;
use crate::select::changed::Change;
use crate::select::classify::{Classifier, Files, Seekable};
use crate::select::mutes::{self, MutedEntry};
use crate::select::unmutes::{self, Unmute};
use crate::select::{self, explicit, Selection};
use crate::{Error, Result};
use git2::Oid;
use std::path::{Path, PathBuf};

/// The variables Buildkite and GitHub Actions set to a pull request's base branch.
const PR_BASE_VARS: [&str; 2] = ["BUILDKITE_PULL_REQUEST_BASE_BRANCH", "GITHUB_BASE_REF"];

/// Selects and classifies the tests the options name; the build comes back
/// with its layout when Gradle could be asked.
pub fn gather(mut build: Build, args: &SelectionConfig) -> Result<(Build, Selection)> {
    let root = build.root.clone();
    let files = DiskFiles { root: root.clone() };
    let specs: Vec<String> = explicit::split(&args.tests, |s| files.is_file(Path::new(s)))
        .into_iter()
        .map(|s| relative_spec(&root, s))
        .collect();
    if specs.is_empty() && !args.changed && !args.unmuted {
        return Err(Error::usage(
            "nothing to select: name tests (FQCN, FQCN#method, a test file or .yml suite) \
             or pass --changed and/or --unmuted",
        ));
    }

    let (muted_exists, muted) = current_mutes(&root, &args.muted_file)?;
    let from_git = match args.changed || args.unmuted {
        true => from_git(&root, args, (muted_exists, &muted))?,
        false => FromGit::default(),
    };
    let FromGit {
        notes,
        based_on,
        changes,
        unmuted,
    } = from_git;
    let mut selection = Selection {
        notes,
        base: based_on,
        ..Selection::default()
    };
    if specs.is_empty() && changes.is_empty() && unmuted.is_empty() {
        return Ok((build, selection)); // nothing to classify: no need to ask Gradle
    }
    let (layout, classifier) = classifier(&build, args, &files, &mut selection.notes)?;
    selection.merge(select::select(
        &classifier,
        &changes,
        &unmuted,
        &specs,
        &muted,
    ));
    build.layout = layout.ok();
    Ok((build, selection))
}

/// What git says: the merge base, the changed files and the unmuted tests.
#[derive(Default)]
struct FromGit {
    notes: Vec<String>,
    based_on: Option<String>,
    changes: Vec<Change>,
    unmuted: Vec<Unmute>,
}

fn from_git(
    root: &Path,
    args: &SelectionConfig,
    mutes_now: (bool, &[MutedEntry]),
) -> Result<FromGit> {
    let repo = Repo::discover(root)?;
    let pr_base = PR_BASE_VARS.iter().find_map(|var| {
        let branch = std::env::var(var).ok().filter(|b| !b.trim().is_empty())?;
        Some((*var, branch))
    });
    let (base_name, base) = resolve_base(&repo, args.base.as_deref(), pr_base)?;
    let merge_base = repo.merge_base(&base_name, base)?;
    let mut found = FromGit {
        notes: vec![format!("merge base with `{base_name}`: {merge_base}")],
        based_on: repo.branch_name_of(&base_name),
        ..FromGit::default()
    };
    if args.changed {
        found.changes = changed_files(&repo, root, merge_base)?;
    }
    if args.unmuted {
        let notes = &mut found.notes;
        found.unmuted = unmuted_tests(&repo, root, &args.muted_file, mutes_now, merge_base, notes)?;
    }
    Ok(found)
}

/// The layout from Gradle and the classifier over it; the reference's path
/// rules when Gradle cannot be asked (said in `notes`).
fn classifier<'a>(
    build: &Build,
    args: &SelectionConfig,
    files: &'a DiskFiles,
    notes: &mut Vec<String>,
) -> Result<(Result<crate::layout::Layout>, Classifier<'a>)> {
    let root = &build.root;
    let layout = if build.gradle_found {
        crate::layout::load(root, &build.gradle, args.refresh_layout, &build.reading)
            .map(|(l, _)| l)
    } else {
        Err(Error::GradleNotFound(
            "no Gradle found (no ./gradlew, no `gradle` on PATH)".into(),
        ))
    };
    // A stopped read is no reason to guess: a build whose configuration hangs
    // would hang every batch too.
    let layout = match layout {
        Err(e @ (Error::Interrupted | Error::TimedOut(_))) => return Err(e),
        layout => layout,
    };
    let classifier = match &layout {
        Ok(layout) => Classifier::from_layout(layout, files).with_choice(args.choice),
        Err(e) => {
            // Gradle's own report comes last, as its lines.
            notes.push(format!(
                "the build layout could not be had from Gradle; tests were classified by the \
                 reference path rules instead, which know only the test, internalClusterTest, \
                 javaRestTest and yamlRestTest source sets and the test/external-modules rename. \
                 {e}"
            ));
            Classifier::path_rules(files).with_choice(args.choice)
        }
    };
    Ok((layout, classifier))
}

/// The base ref: `--base`, else the pull request's base branch from the CI
/// (`pr_base`: the variable and its value; as `origin/<branch>` first: in CI
/// the local branch is usually absent or stale), else `origin/main`, else
/// `main`. A named base that does not exist is an error, never a silent fall
/// back to another branch.
fn resolve_base(
    repo: &Repo,
    base: Option<&str>,
    pr_base: Option<(&str, String)>,
) -> Result<(String, Oid)> {
    let (candidates, what) = match (base, pr_base) {
        (Some(base), _) => (vec![base.to_string()], "--base".to_string()),
        (None, Some((var, branch))) => (
            vec![format!("origin/{branch}"), branch.to_string()],
            format!("${var}"),
        ),
        (None, None) => (
            vec!["origin/main".to_string(), "main".to_string()],
            "the default base".to_string(),
        ),
    };
    for name in &candidates {
        if let Some(oid) = repo.commit(name)? {
            return Ok((name.clone(), oid));
        }
    }
    let tried = candidates
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(" or ");
    Err(Error::input(
        what,
        format!("no commit {tried} in this repository; fetch the base branch (e.g. `git fetch origin main`) or pass --base REF"),
    ))
}

/// Changed files relative to the build root; those outside it are dropped.
fn changed_files(repo: &Repo, root: &Path, merge_base: Oid) -> Result<Vec<Change>> {
    let changes = repo.changes_since(merge_base)?;
    Ok(changes
        .into_iter()
        .filter_map(|c| {
            let path = repo
                .workdir()
                .join(&c.path)
                .strip_prefix(root)
                .ok()?
                .to_path_buf();
            Some(Change { path, ..c })
        })
        .collect())
}

/// The working tree's muted-tests file, parsed (none when it is absent):
/// the tests it mutes run with the build's mutes off.
fn current_mutes(root: &Path, muted_file: &Path) -> Result<(bool, Vec<MutedEntry>)> {
    let path = root.join(muted_file);
    let name = muted_file.display().to_string();
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok((true, mutes::parse(&text, &name)?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((false, Vec::new())),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            Err(Error::input(&name, "not UTF-8 text"))
        }
        Err(e) => Err(Error::io(&path, e)),
    }
}

/// The tests the muted-tests file at the merge base muted in some tasks
/// and the working tree's file (`now`, `exists` or not) no longer mutes
/// there.
fn unmuted_tests(
    repo: &Repo,
    root: &Path,
    muted_file: &Path,
    (exists, now): (bool, &[MutedEntry]),
    merge_base: Oid,
    notes: &mut Vec<String>,
) -> Result<Vec<Unmute>> {
    let path = root.join(muted_file);
    let name = muted_file.display().to_string();
    let in_repo = path.strip_prefix(repo.workdir()).map_err(|_| {
        Error::input(
            "--muted-file",
            format!("{} is outside the git repository", path.display()),
        )
    })?;
    let short = &merge_base.to_string()[..10];
    let old_name = format!("{short}:{name}");
    let old = match repo.file_at(merge_base, in_repo)? {
        Some(bytes) => {
            Some(String::from_utf8(bytes).map_err(|_| Error::input(&old_name, "not UTF-8 text"))?)
        }
        None => None,
    };
    if old.is_none() && !exists {
        notes.push(format!(
            "{name} exists neither at the merge base nor now: no unmutes"
        ));
    }
    let old = old.map_or(Ok(vec![]), |t| mutes::parse(&t, &old_name))?;
    Ok(unmutes::unmuted(&old, now))
}

/// An absolute path spec inside the build becomes relative to its root.
fn relative_spec(root: &Path, spec: String) -> String {
    match Path::new(&spec).strip_prefix(root) {
        Ok(rel) if Path::new(&spec).is_absolute() => rel.to_string_lossy().into_owned(),
        _ => spec,
    }
}

/// The build's files on disk.
struct DiskFiles {
    root: PathBuf,
}

impl Files for DiskFiles {
    fn is_file(&self, path: &Path) -> bool {
        self.root.join(path).is_file()
    }

    fn read(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(self.root.join(path)).ok()
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.root.join(path).is_dir()
    }

    fn read_bytes(&self, path: &Path) -> Option<Vec<u8>> {
        std::fs::read(self.root.join(path)).ok()
    }

    fn open(&self, path: &Path) -> Option<Box<dyn Seekable>> {
        let file = std::fs::File::open(self.root.join(path)).ok()?;
        Some(Box::new(file))
    }

    fn walk(&self, dir: &Path) -> Vec<PathBuf> {
        Walk::new(&self.root.join(dir))
            .run()
            .files
            .into_iter()
            .map(|f| dir.join(f.rel))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_specs_inside_the_build_become_relative() {
        let root = Path::new("/repo");
        assert_eq!(
            relative_spec(root, "/repo/server/A.java".into()),
            "server/A.java"
        );
        assert_eq!(
            relative_spec(root, "/elsewhere/A.java".into()),
            "/elsewhere/A.java"
        );
        assert_eq!(relative_spec(root, "a.BTests".into()), "a.BTests");
    }

    /// A jar of a classpath is opened by absolute path and read at offsets;
    /// a class folder is a directory.
    #[test]
    fn files_outside_the_build_are_opened_and_read_at_offsets() {
        use std::io::{Read, Seek, SeekFrom};
        let dir = tempfile::tempdir().unwrap();
        let jar = dir.path().join("lib.jar");
        std::fs::write(&jar, b"0123456789").unwrap();
        let files = DiskFiles {
            root: PathBuf::from("/elsewhere"),
        };
        let mut file = files.open(&jar).expect("opened");
        assert_eq!(file.seek(SeekFrom::End(0)).unwrap(), 10);
        file.seek(SeekFrom::Start(6)).unwrap();
        let mut tail = String::new();
        file.read_to_string(&mut tail).unwrap();
        assert_eq!(tail, "6789");
        assert!(files.is_dir(dir.path()) && !files.is_dir(&jar));
        assert!(files.open(&dir.path().join("absent.jar")).is_none());
    }

    #[test]
    fn the_walk_skips_build_output_and_hidden_folders() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in [
            "p/build.gradle",
            "p/build/classes/ATests.java",
            "p/src/test/java/org/build/BTests.java",
            ".git/x.java",
            "p/.gradle/y.java",
            "q/node_modules/z.java",
        ] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), "").unwrap();
        }
        let files = DiskFiles {
            root: d.to_path_buf(),
        };
        let mut found = files.walk(Path::new(""));
        found.sort();
        assert_eq!(
            found,
            [
                PathBuf::from("p/build.gradle"),
                PathBuf::from("p/src/test/java/org/build/BTests.java")
            ]
        );
    }
}
