//! REF's side of a comparison, on disk: a git worktree of REF in the run
//! folder (removed when the run is done with it), the selected tests that
//! exist there, and the branch's muted-tests file in it.

use crate::domain::ClassifiedTest;
use crate::git::Repo;
use crate::layout::Build;
use crate::{tell, Error, Result};
use git2::Oid;
use std::path::{Path, PathBuf};

/// REF's checkout: a detached git worktree of its commit.
pub(crate) struct Worktree {
    repo_dir: PathBuf,
    path: PathBuf,
    /// The build's kept worktree, held under its lock (kept when dropped);
    /// `None`: a worktree of this run alone, removed when dropped.
    kept: Option<std::fs::File>,
}

impl Worktree {
    /// REF's checkout for a run: the build's kept worktree at `kept`,
    /// moved to `commit` (what earlier comparisons compiled there stays, so
    /// Gradle recompiles only what changed: a fresh checkout compiles the
    /// whole build, often much longer than the tests take); when another
    /// comparison holds it, a worktree of its own at `fallback`, removed
    /// when the run is done with it.
    pub(crate) fn for_run(
        repo_dir: &Path,
        commit: Oid,
        kept: &Path,
        fallback: &Path,
    ) -> Result<Worktree> {
        let lock_path = kept.with_extension("lock");
        if let Some(parent) = kept.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&lock_path)
            .map_err(|e| Error::io(&lock_path, e))?;
        if !try_lock(&lock) {
            tell!(
                "compare: another comparison holds {}: REF gets a worktree of its own, compiled \
                 from scratch",
                kept.display()
            );
            return Worktree::add(repo_dir, commit, fallback);
        }
        let hex = commit.to_string();
        let moved = kept.is_dir()
            && run_git(kept, &["checkout", "--detach", "--force", "--quiet", &hex]).is_ok()
            && run_git(kept, &["clean", "-fdq"]).is_ok();
        if !moved {
            let _ = std::fs::remove_dir_all(kept);
            let _ = run_git(repo_dir, &["worktree", "prune"]);
            let mut fresh = Worktree::add(repo_dir, commit, kept)?;
            fresh.kept = Some(lock);
            return Ok(fresh);
        }
        Ok(Worktree {
            repo_dir: repo_dir.to_path_buf(),
            path: kept.to_path_buf(),
            kept: Some(lock),
        })
    }

    /// `git worktree add --detach PATH COMMIT` in the repository at `repo_dir`.
    fn add(repo_dir: &Path, commit: Oid, path: &Path) -> Result<Worktree> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        let commit = commit.to_string();
        let path_text = path.to_string_lossy();
        run_git(
            repo_dir,
            &[
                "worktree", "add", "--detach", "--quiet", &path_text, &commit,
            ],
        )?;
        Ok(Worktree {
            repo_dir: repo_dir.to_path_buf(),
            path: path.to_path_buf(),
            kept: None,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The build's kept worktree (not removed after the run).
    pub(crate) fn is_kept(&self) -> bool {
        self.kept.is_some()
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        if self.kept.is_some() {
            return;
        }
        let path = self.path.to_string_lossy().into_owned();
        if run_git(&self.repo_dir, &["worktree", "remove", "--force", &path]).is_err() {
            let _ = std::fs::remove_dir_all(&self.path);
            let _ = run_git(&self.repo_dir, &["worktree", "prune"]);
        }
    }
}

/// An exclusive `flock` on `file` if no one holds one, released when the
/// file is closed.
fn try_lock(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor we own for the life of `file`.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// `git ARGS` in `dir`; its error output when it fails.
fn run_git(dir: &Path, args: &[&str]) -> Result<()> {
    crate::git::run_program(dir, args, "--compare makes a git worktree of REF and needs")
}

/// The build's folder in a checkout at `checkout` of the repository whose
/// working tree is `workdir` (the build may be a folder of the repository).
pub(crate) fn build_root_in(checkout: &Path, build_root: &Path, workdir: &Path) -> PathBuf {
    match build_root.strip_prefix(workdir) {
        Ok(rel) => checkout.join(rel),
        Err(_) => checkout.to_path_buf(),
    }
}

/// The selected tests split into those that exist at `commit` and those new
/// in this branch. A test exists there when its source file does (found
/// through the layout in its source set's folders) and, for a named method
/// that its file declares here, when REF's file declares it too. A test
/// whose file is not found here (no layout, a class from a jar) is taken to
/// exist: its run on REF says.
pub(crate) fn existing(
    repo: &Repo,
    commit: Oid,
    build: &Build,
    tests: &[ClassifiedTest],
) -> Result<(Vec<ClassifiedTest>, Vec<ClassifiedTest>)> {
    let (mut there, mut new) = (Vec::new(), Vec::new());
    for t in tests {
        match exists(repo, commit, build, t)? {
            false => new.push(t.clone()),
            true => there.push(t.clone()),
        }
    }
    Ok((there, new))
}

fn exists(repo: &Repo, commit: Oid, build: &Build, t: &ClassifiedTest) -> Result<bool> {
    let Some(file) = source_file(build, t) else {
        return Ok(true);
    };
    let Ok(rel) = file.strip_prefix(repo.workdir()) else {
        return Ok(true);
    };
    if !repo.exists_at(commit, rel)? {
        return Ok(false);
    }
    let Some(method) = t
        .method
        .as_deref()
        .map(method_name)
        .filter(|m| !m.is_empty())
    else {
        return Ok(true);
    };
    if t.yaml_suite.is_some() || file.extension().is_some_and(|e| e == "yml") {
        return Ok(true);
    }
    // A method this file declares here, and REF's does not: new here.
    let needle = format!("{method}(");
    let declares = |text: &[u8]| memchr::memmem::find(text, needle.as_bytes()).is_some();
    let here = std::fs::read(&file).map(|t| declares(&t)).unwrap_or(false);
    let there = repo.file_at(commit, rel)?.is_some_and(|t| declares(&t));
    Ok(!here || there)
}

/// The method name of a selection: a parameterized case's name is its
/// method's (`parses[2: flaky]`, `test {yaml=…}` → `parses`, `test`).
fn method_name(method: &str) -> &str {
    method
        .split(['[', ' ', '('])
        .next()
        .unwrap_or(method)
        .trim()
}

/// The file that declares `t`'s class (or its YAML suite) in this working
/// tree, through the layout; `None` when it cannot be told.
fn source_file(build: &Build, t: &ClassifiedTest) -> Option<PathBuf> {
    let layout = build.layout.as_ref()?;
    let project = layout.projects.iter().find(|p| p.path == t.project)?;
    let set = project
        .source_sets
        .iter()
        .find(|s| s.name == t.source_set)?;
    if let Some(suite) = &t.yaml_suite {
        return set.resources.iter().find_map(|dir| {
            let base = dir.join("rest-api-spec/test");
            [base.join(format!("{suite}.yml")), base.join(suite)]
                .into_iter()
                .find(|p| p.exists())
        });
    }
    let class = t.class.as_deref()?;
    let outer = class.split('$').next().unwrap_or(class);
    let rel: PathBuf = outer.split('.').collect();
    let dirs = set.java.iter().chain(&set.groovy).chain(&set.kotlin);
    dirs.flat_map(|dir| ["java", "groovy", "kt"].map(|ext| dir.join(&rel).with_extension(ext)))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selections_method_name() {
        assert_eq!(method_name("testFoo"), "testFoo");
        assert_eq!(method_name("parses[2: flaky]"), "parses");
        assert_eq!(method_name("test {yaml=a/b/c}"), "test");
        assert_eq!(method_name("encodes(flaky)"), "encodes");
    }

    #[test]
    fn the_build_root_in_a_checkout() {
        let root = build_root_in(
            Path::new("/w/t"),
            Path::new("/repo/sub"),
            Path::new("/repo"),
        );
        assert_eq!(root, Path::new("/w/t/sub"));
        let root = build_root_in(Path::new("/w/t"), Path::new("/repo"), Path::new("/repo"));
        assert_eq!(root, Path::new("/w/t"));
    }
}
