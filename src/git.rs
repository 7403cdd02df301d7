//! git access (git2): merge base, changed files with status, file content at a revision.
