//! How selection reads the build: files only through this, so it stays a
//! pure function of its inputs.

use std::path::{Path, PathBuf};

/// Read-only access to the build's files, relative to the build root.
pub trait Files: Sync {
    fn is_file(&self, path: &Path) -> bool;
    /// The file's text; `None` when it cannot be read as UTF-8.
    fn read(&self, path: &Path) -> Option<String>;
    /// The file's bytes; `None` when it cannot be read.
    fn read_bytes(&self, path: &Path) -> Option<Vec<u8>> {
        self.read(path).map(String::into_bytes)
    }
    /// Every file under `dir` (recursively), without build output or VCS folders.
    fn walk(&self, dir: &Path) -> Vec<PathBuf>;
}
