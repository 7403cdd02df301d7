//! REF's side of a comparison, on disk: a git worktree of REF in the run
//! folder (removed when the run is done with it), the selected tests that
//! exist there, and the branch's muted-tests file in it.

use crate::domain::ClassifiedTest;
use crate::git::Repo;
use crate::layout::Build;
use crate::{tell, warning, Error, Result};
use git2::Oid;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A detached worktree of a commit, removed when dropped.
pub(crate) struct Worktree {
    repo_dir: PathBuf,
    path: PathBuf,
}

impl Worktree {
    /// `git worktree add --detach PATH COMMIT` in the repository at `repo_dir`.
    pub(crate) fn add(repo_dir: &Path, commit: Oid, path: &Path) -> Result<Worktree> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        let out = git(repo_dir)
            .args(["worktree", "add", "--detach", "--quiet"])
            .arg(path)
            .arg(commit.to_string())
            .output()
            .map_err(|e| {
                Error::infra(format!(
                    "--compare makes a git worktree of REF and needs `git` on PATH: {e}"
                ))
            })?;
        if !out.status.success() {
            return Err(Error::infra(format!(
                "git worktree add {} {commit}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(Worktree {
            repo_dir: repo_dir.to_path_buf(),
            path: path.to_path_buf(),
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let removed = git(&self.repo_dir)
            .args(["worktree", "remove", "--force"])
            .arg(&self.path)
            .output()
            .is_ok_and(|o| o.status.success());
        if !removed {
            let _ = std::fs::remove_dir_all(&self.path);
            let _ = git(&self.repo_dir).args(["worktree", "prune"]).output();
        }
    }
}

fn git(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir).stdin(std::process::Stdio::null());
    cmd
}

/// The build's folder in a checkout at `checkout` of the repository whose
/// working tree is `workdir` (the build may be a folder of the repository).
pub(crate) fn build_root_in(checkout: &Path, build_root: &Path, workdir: &Path) -> PathBuf {
    match build_root.strip_prefix(workdir) {
        Ok(rel) => checkout.join(rel),
        Err(_) => checkout.to_path_buf(),
    }
}

/// Copies the branch's muted-tests file (`muted`, relative to the build
/// root) over REF's, so that a test this branch unmutes runs there too;
/// true when REF's differed (and so was replaced).
pub(crate) fn use_branch_muted_file(build: &Build, base_root: &Path, muted: &Path) -> bool {
    let ours = build.root.join(muted);
    let Ok(text) = std::fs::read(&ours) else {
        return false;
    };
    let theirs = base_root.join(muted);
    if std::fs::read(&theirs).is_ok_and(|t| t == text) {
        return false;
    }
    let written = theirs
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&theirs, &text));
    match written {
        Ok(()) => {
            tell!(
                "compare: REF runs with this branch's {} (so that an unmuted test runs there too)",
                muted.display()
            );
            true
        }
        Err(e) => {
            warning!("REF keeps its own {}: {e}", theirs.display());
            false
        }
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
    let declares = |text: &[u8]| contains(text, format!("{method}(").as_bytes());
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

fn contains(text: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(text, needle).is_some()
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
