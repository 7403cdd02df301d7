//! git access (git2): merge base, changed files with status, file content at a revision,
//! first-parent lines (what history calls before).

use crate::select::changed::{Change, ChangeStatus};
use crate::{Error, Result};
use git2::{Delta, DiffFindOptions, DiffOptions, ErrorCode, Oid, Repository};
use std::path::{Path, PathBuf};

/// A working tree's HEAD, as a run records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Head {
    /// The full hash.
    pub commit: String,
    /// The branch checked out; `None` when detached.
    pub branch: Option<String>,
    /// Tracked files differ from the commit.
    pub dirty: bool,
}

/// The commit checked out in the working tree holding `dir`; `None` outside
/// git (or before a first commit).
pub(crate) fn head_commit(dir: &Path) -> Option<String> {
    let repo = Repo::discover(dir).ok()?;
    repo.head().ok().map(|h| h.commit)
}

/// A repository and its working tree.
pub(crate) struct Repo {
    repo: Repository,
    workdir: PathBuf,
}

fn git_error(what: &str, e: git2::Error) -> Error {
    Error::infra(format!("git: {what}: {}", e.message()))
}

impl Repo {
    /// The repository holding `dir`.
    pub(crate) fn discover(dir: &Path) -> Result<Repo> {
        let repo = Repository::discover(dir).map_err(|e| {
            Error::input(
                dir.display().to_string(),
                format!(
                    "not inside a git repository ({}); --changed and --unmuted compare the working \
                     tree with a base branch",
                    e.message()
                ),
            )
        })?;
        let workdir = repo.workdir().ok_or_else(|| {
            Error::input(
                dir.display().to_string(),
                "a bare git repository has no working tree",
            )
        })?;
        let workdir = workdir.canonicalize().map_err(|e| Error::io(workdir, e))?;
        Ok(Repo { repo, workdir })
    }

    /// The working tree's root (canonical).
    pub(crate) fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// The commit a ref, branch, tag or hash names; `None` when it names nothing here.
    pub(crate) fn commit(&self, name: &str) -> Result<Option<Oid>> {
        match self.repo.revparse_single(name) {
            Ok(object) => object
                .peel_to_commit()
                .map(|c| Some(c.id()))
                .map_err(|e| git_error(&format!("`{name}` is not a commit"), e)),
            Err(e)
                if matches!(
                    e.code(),
                    ErrorCode::NotFound | ErrorCode::InvalidSpec | ErrorCode::Ambiguous
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(git_error(&format!("reading `{name}`"), e)),
        }
    }

    /// The merge base of HEAD and `base` (named `base_name` in messages).
    /// None — a shallow clone, unrelated histories — is an error that says how
    /// to get the missing history, never an empty selection.
    pub(crate) fn merge_base(&self, base_name: &str, base: Oid) -> Result<Oid> {
        let head = self
            .repo
            .head()
            .and_then(|h| h.peel_to_commit())
            .map_err(|e| git_error("reading HEAD", e))?;
        match self.repo.merge_base(head.id(), base) {
            Ok(oid) => Ok(oid),
            Err(e) if e.code() == ErrorCode::NotFound => {
                let why = if self.repo.is_shallow() {
                    "this is a shallow clone, so the history that joins them is missing"
                } else {
                    "their histories are unrelated, or the history that joins them was not fetched"
                };
                Err(Error::input(
                    "git history",
                    format!(
                        "no merge base between HEAD and `{base_name}`: {why}. Fetch more history, \
                         e.g. `git fetch --unshallow` or `git fetch --deepen=500 origin <base branch>`, \
                         then try again"
                    ),
                ))
            }
            Err(e) => Err(git_error(
                &format!("merge base of HEAD and `{base_name}`"),
                e,
            )),
        }
    }

    /// Files changed from `base` to the working tree (staged, unstaged and
    /// untracked, not ignored), with renames detected; paths relative to the
    /// working tree, the new path for a rename.
    pub(crate) fn changes_since(&self, base: Oid) -> Result<Vec<Change>> {
        let tree = self.tree(base, "reading the merge base")?;
        let mut options = DiffOptions::new();
        options.include_untracked(true).recurse_untracked_dirs(true);
        let mut diff = self
            .repo
            .diff_tree_to_workdir_with_index(Some(&tree), Some(&mut options))
            .map_err(|e| git_error("diffing against the merge base", e))?;
        diff.find_similar(Some(
            DiffFindOptions::new().renames(true).for_untracked(true),
        ))
        .map_err(|e| git_error("detecting renames", e))?;
        let changes = diff
            .deltas()
            .filter_map(|delta| {
                let status = match delta.status() {
                    Delta::Added | Delta::Untracked => ChangeStatus::Added,
                    Delta::Modified | Delta::Typechange => ChangeStatus::Modified,
                    Delta::Renamed => ChangeStatus::Renamed,
                    Delta::Copied => ChangeStatus::Copied,
                    Delta::Deleted => ChangeStatus::Deleted,
                    _ => return None,
                };
                let file = if status == ChangeStatus::Deleted {
                    delta.old_file()
                } else {
                    delta.new_file()
                };
                Some(Change {
                    path: file.path()?.to_path_buf(),
                    status,
                })
            })
            .collect();
        Ok(changes)
    }

    fn tree(&self, commit: Oid, what: &str) -> Result<git2::Tree<'_>> {
        self.repo
            .find_commit(commit)
            .and_then(|c| c.tree())
            .map_err(|e| git_error(what, e))
    }

    /// What the working tree is: its HEAD commit, the branch checked out
    /// (`None` when detached), and whether tracked files differ from HEAD
    /// (changes not committed: a run of them is not a run of the commit).
    pub(crate) fn head(&self) -> Result<Head> {
        let head = self.repo.head().map_err(|e| git_error("reading HEAD", e))?;
        let commit = head
            .peel_to_commit()
            .map_err(|e| git_error("reading HEAD", e))?
            .id();
        let branch = match head.is_branch() {
            true => head.shorthand().ok().map(String::from),
            false => None,
        };
        let mut options = git2::StatusOptions::new();
        options
            .include_untracked(false)
            .include_ignored(false)
            .exclude_submodules(true);
        let dirty = self
            .repo
            .statuses(Some(&mut options))
            .map_err(|e| git_error("reading the working tree's status", e))?
            .iter()
            .any(|s| s.status() != git2::Status::CURRENT);
        Ok(Head {
            commit: commit.to_string(),
            branch,
            dirty,
        })
    }

    /// Whether `path` (relative to the working tree; a file or a folder)
    /// exists at `commit`.
    pub(crate) fn exists_at(&self, commit: Oid, path: &Path) -> Result<bool> {
        let what = format!("reading {} at {commit}", path.display());
        match self.tree(commit, &what)?.get_path(path) {
            Ok(_) => Ok(true),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(false),
            Err(e) => Err(git_error(&what, e)),
        }
    }

    /// The branch `name` names, as runs record branches (without a
    /// remote: `origin/main` is `main`); `None` for a tag, a hash or an
    /// expression.
    pub(crate) fn branch_name_of(&self, name: &str) -> Option<String> {
        if self.repo.find_branch(name, git2::BranchType::Local).is_ok() {
            return Some(name.to_string());
        }
        let remote = self.repo.find_branch(name, git2::BranchType::Remote).ok()?;
        let full = remote.name().ok().flatten()?.to_string();
        let remote_name = self
            .repo
            .branch_remote_name(remote.get().name().ok()?)
            .ok()?;
        let prefix = format!("{}/", remote_name.as_str().ok()?);
        Some(full.strip_prefix(&prefix).unwrap_or(&full).to_string())
    }

    /// The commit a recorded hash (full or abbreviated, hex only: never a
    /// ref's name, whatever a ledger line says) names here; `None` when the
    /// repository does not hold it.
    pub(crate) fn recorded_commit(&self, hash: &str) -> Option<Oid> {
        if hash.len() < 7 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.repo.find_commit_by_prefix(hash).ok().map(|c| c.id())
    }

    /// The first parent of `commit`; `None` for a root commit, or where a
    /// shallow clone's history (or the repository) ends.
    pub(crate) fn first_parent(&self, commit: Oid) -> Option<Oid> {
        let commit = self.repo.find_commit(commit).ok()?;
        (commit.parent_count() > 0)
            .then(|| commit.parent_id(0).ok())
            .flatten()
    }

    /// The first-parent line from `good` (exclusive of nothing: it comes
    /// first) to `bad`, oldest first; `None` when `good` is not on `bad`'s
    /// first-parent line.
    pub(crate) fn first_parent_line(&self, good: Oid, bad: Oid) -> Option<Vec<Oid>> {
        let mut line = vec![bad];
        let mut at = bad;
        while at != good {
            at = self.first_parent(at)?;
            line.push(at);
        }
        line.reverse();
        Some(line)
    }

    /// A commit's subject line and author (`Name <mail>`).
    pub(crate) fn subject_and_author(&self, commit: Oid) -> (String, String) {
        let Ok(c) = self.repo.find_commit(commit) else {
            return (String::new(), String::new());
        };
        let author = c.author();
        (
            String::from_utf8_lossy(c.summary_bytes().unwrap_or_default()).into_owned(),
            format!(
                "{} <{}>",
                author.name().unwrap_or_default(),
                author.email().unwrap_or_default()
            ),
        )
    }

    /// The content of `path` (relative to the working tree) at `commit`;
    /// `None` when the file did not exist there.
    pub(crate) fn file_at(&self, commit: Oid, path: &Path) -> Result<Option<Vec<u8>>> {
        let what = format!("reading {} at {commit}", path.display());
        let tree = self.tree(commit, &what)?;
        let entry = match tree.get_path(path) {
            Ok(entry) => entry,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(git_error(&what, e)),
        };
        let blob = entry
            .to_object(&self.repo)
            .and_then(|o| o.peel_to_blob())
            .map_err(|e| git_error(&what, e))?;
        Ok(Some(blob.content().to_vec()))
    }
}

/// Runs the `git` program (what libgit2 does not do: worktrees, fetching
/// by hash) in `dir` with `args`, stdin closed. `needs` says what needs it,
/// for the error when `git` is not on PATH; a failure gives git's own error
/// output.
pub(crate) fn run_program(dir: &Path, args: &[&str], needs: &str) -> Result<()> {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| Error::infra(format!("{needs} `git` on PATH: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    Err(Error::infra(format!(
        "git {} (in {}): {}",
        args.join(" "),
        dir.display(),
        String::from_utf8_lossy(&out.stderr).trim()
    )))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::process::Command;

    /// `git ARGS` in `dir` as a test's author; its output, trimmed.
    pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn write(dir: &Path, path: &str, text: &str) {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A repo with `main` (a, b, c, muted) and a branch `work` checked out.
    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        git(d, &["init", "-q", "-b", "main"]);
        write(d, "a.txt", "a\n");
        write(d, "b.txt", "b\n");
        write(
            d,
            "c/long.txt",
            &"a line that makes rename detection sure\n".repeat(20),
        );
        write(d, "muted.yml", "tests: []\n");
        git(d, &["add", "."]);
        git(d, &["commit", "-qm", "base"]);
        git(d, &["checkout", "-qb", "work"]);
        dir
    }

    fn statuses(repo: &Repo, base: Oid) -> Vec<(String, ChangeStatus)> {
        let mut changes: Vec<_> = repo
            .changes_since(base)
            .unwrap()
            .into_iter()
            .map(|c| (c.path.to_string_lossy().into_owned(), c.status))
            .collect();
        changes.sort_by(|a, b| a.0.cmp(&b.0));
        changes
    }

    #[test]
    fn changes_cover_commits_the_index_and_untracked_files_with_renames() {
        let dir = repo();
        let d = dir.path();
        write(d, "a.txt", "a changed\n");
        git(d, &["commit", "-qam", "edit a"]);
        git(d, &["rm", "-q", "b.txt"]);
        git(d, &["mv", "c/long.txt", "c/moved.txt"]);
        write(d, "new dir/$(x) `y` é.txt", "new\n");
        let repo = Repo::discover(d).unwrap();
        let base = repo.commit("main").unwrap().unwrap();
        let mb = repo.merge_base("main", base).unwrap();
        assert_eq!(mb, base);
        assert_eq!(
            statuses(&repo, mb),
            [
                ("a.txt".to_string(), ChangeStatus::Modified),
                ("b.txt".into(), ChangeStatus::Deleted),
                ("c/moved.txt".into(), ChangeStatus::Renamed),
                ("new dir/$(x) `y` é.txt".into(), ChangeStatus::Added),
            ]
        );
    }

    #[test]
    fn file_content_at_a_revision() {
        let dir = repo();
        let d = dir.path();
        write(d, "muted.yml", "tests:\n- class: X\n");
        git(d, &["commit", "-qam", "mute"]);
        let repo = Repo::discover(&d.join("c")).unwrap();
        let base = repo.commit("main").unwrap().unwrap();
        assert_eq!(
            repo.file_at(base, Path::new("muted.yml")).unwrap().unwrap(),
            b"tests: []\n"
        );
        let head = repo.commit("HEAD").unwrap().unwrap();
        assert_eq!(
            repo.file_at(head, Path::new("muted.yml")).unwrap().unwrap(),
            b"tests:\n- class: X\n"
        );
        assert_eq!(repo.file_at(base, Path::new("nope.yml")).unwrap(), None);
        assert_eq!(repo.commit("no-such-branch").unwrap(), None);
    }

    #[test]
    fn head_paths_and_branch_names() {
        let dir = repo();
        let d = dir.path();
        let repo = Repo::discover(d).unwrap();
        let head = repo.head().unwrap();
        assert_eq!(head.branch.as_deref(), Some("work"));
        assert!(!head.dirty);
        write(d, "a.txt", "changed\n");
        write(d, "untracked.txt", "new\n");
        assert!(repo.head().unwrap().dirty, "a tracked file changed");
        let main = repo.commit("main").unwrap().unwrap();
        assert!(repo.exists_at(main, Path::new("c")).unwrap());
        assert!(repo.exists_at(main, Path::new("c/long.txt")).unwrap());
        assert!(!repo.exists_at(main, Path::new("untracked.txt")).unwrap());
        assert_eq!(repo.branch_name_of("main").as_deref(), Some("main"));
        assert_eq!(repo.branch_name_of("HEAD~0"), None);
        git(d, &["update-ref", "refs/remotes/origin/main", "main"]);
        git(
            d,
            &["config", "remote.origin.url", "https://example.com/x.git"],
        );
        git(
            d,
            &[
                "config",
                "remote.origin.fetch",
                "+refs/heads/*:refs/remotes/origin/*",
            ],
        );
        assert_eq!(repo.branch_name_of("origin/main").as_deref(), Some("main"));
    }

    #[test]
    fn unrelated_histories_have_no_merge_base_and_say_how_to_fix_it() {
        let dir = repo();
        let d = dir.path();
        git(d, &["checkout", "-q", "--orphan", "other"]);
        git(d, &["commit", "-qm", "unrelated"]);
        let repo = Repo::discover(d).unwrap();
        let base = repo.commit("main").unwrap().unwrap();
        let err = repo.merge_base("main", base).unwrap_err().to_string();
        assert!(
            err.contains("no merge base between HEAD and `main`"),
            "{err}"
        );
        assert!(err.contains("git fetch --unshallow"), "{err}");
    }

    #[test]
    fn outside_a_repository_is_a_clear_input_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = Repo::discover(dir.path()).err().unwrap();
        assert_eq!(err.exit().code(), 2);
        assert!(err.to_string().contains("not inside a git repository"));
    }
}
