//! How selection reads the build: files only through this, so it stays a
//! pure function of its inputs. The build's files are named relative to its
//! root; what the layout reports outside it (classes dirs, the jars and
//! class folders of a task's classpath) by absolute path, as it is.

use std::io::{Cursor, Read, Seek};
use std::path::{Path, PathBuf};

/// A file opened to be read at offsets: a jar, whose central directory and
/// asked-for entries are read without reading it whole.
pub trait Seekable: Read + Seek {}

impl<T: Read + Seek> Seekable for T {}

/// Read-only access to the build's files, relative to the build root (an
/// absolute path is taken as it is).
pub trait Files: Sync {
    fn is_file(&self, path: &Path) -> bool;
    /// Whether `path` is a directory (a class folder of a classpath).
    fn is_dir(&self, path: &Path) -> bool;
    /// The file's text; `None` when it cannot be read as UTF-8.
    fn read(&self, path: &Path) -> Option<String>;
    /// The file's bytes; `None` when it cannot be read.
    fn read_bytes(&self, path: &Path) -> Option<Vec<u8>> {
        self.read(path).map(String::into_bytes)
    }
    /// The file opened for reads at offsets; `None` when it cannot be
    /// opened. A file on disk is opened, not read: a large build's test
    /// classpath holds hundreds of jars, of which a chain walk reads a few
    /// entries.
    fn open(&self, path: &Path) -> Option<Box<dyn Seekable>> {
        let bytes = self.read_bytes(path)?;
        Some(Box::new(Cursor::new(bytes)))
    }
    /// Every file under `dir` (recursively), without build output or VCS folders.
    fn walk(&self, dir: &Path) -> Vec<PathBuf>;
}
