//! Appending to the ledger: whole lines, under an exclusive lock, in files
//! that rotate so that the ledger never grows without bound.
//!
//! A build's ledger is a folder of `ledger-<n>.jsonl` files (n counts up).
//! Lines go to the newest file; once it holds [`Limits::file_bytes`], the
//! next append starts a new one, and the oldest files are removed while the
//! folder holds more than [`Limits::total_bytes`]. A CI run writes one file
//! (`flakiness-ledger.jsonl`) of its own lines instead, which is as big as the
//! run.
//!
//! Every append holds `flock` on a lock file (the folder's `.lock`, or the
//! single file itself) from choosing the file to the last byte, so that
//! concurrent runs never interleave lines or rotate under each other. A run
//! killed while writing leaves a line without its newline: the next append
//! starts on a new line, so the torn line stays one bad line that readers
//! skip, and the new lines stay whole.

use super::record::Record;
use crate::reports;
use crate::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// The size bounds of a ledger folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A file that reached this many bytes gets no more lines.
    pub file_bytes: u64,
    /// The oldest files are removed while the folder holds more (the newest
    /// file is never removed).
    pub total_bytes: u64,
}

impl Limits {
    /// A build's own ledger: 16 MiB files, 256 MiB in all (about 600,000
    /// records at ~420 bytes each, years of local runs).
    pub const LOCAL: Limits = Limits {
        file_bytes: 16 << 20,
        total_bytes: 256 << 20,
    };

    /// A ledger folder someone named (`record --ledger DIR`): files rotate
    /// as the build's own, but none is removed (its owner keeps it).
    pub const KEPT: Limits = Limits {
        file_bytes: 16 << 20,
        total_bytes: u64::MAX,
    };
}

/// The ledger file a CI run writes in `dir` (its artifact).
pub fn ci_file(dir: &Path) -> PathBuf {
    dir.join(reports::LEDGER_FILE)
}

/// The build's own ledger folder.
pub fn local_dir(project_dir: &Path) -> PathBuf {
    reports::state_dir(project_dir).join(reports::LEDGER_DIR)
}

/// Appends `records` to the ledger folder `dir` (created when missing),
/// rotating within `limits`. Returns the file written.
pub fn append_to_dir(dir: &Path, records: &[Record], limits: Limits) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let lock_path = dir.join(LOCK_FILE);
    let lock = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&lock_path)
        .map_err(|e| Error::io(&lock_path, e))?;
    let _held = Lock::exclusive(&lock, &lock_path)?;
    let files = ledger_files(dir)?;
    let path = match files.last() {
        Some((n, path, size)) if *size >= limits.file_bytes => file_name(dir, n + 1),
        Some((_, path, _)) => path.clone(),
        None => file_name(dir, 1),
    };
    write_lines(&open_append(&path)?, &path, records)?;
    prune(dir, limits.total_bytes)?;
    Ok(path)
}

/// Appends `records` to the one file `path` (a CI run's
/// `flakiness-ledger.jsonl`), created when missing, under a lock on it.
pub fn append_to_file(path: &Path, records: &[Record]) -> Result<()> {
    let file = open_append(path)?;
    let _held = Lock::exclusive(&file, path)?;
    write_lines(&file, path, records)
}

/// Where lines go: a ledger folder (rotated, as a build's own) or one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    Folder(PathBuf),
    File(PathBuf),
}

impl Destination {
    /// `path` as given to `--ledger`: a file when it exists as one or its
    /// name ends in `.jsonl`, else a folder.
    pub fn of(path: &Path) -> Destination {
        let jsonl = path
            .extension()
            .is_some_and(|e| e == reports::LEDGER_EXTENSION);
        match path.is_file() || (jsonl && !path.is_dir()) {
            true => Destination::File(path.to_path_buf()),
            false => Destination::Folder(path.to_path_buf()),
        }
    }

    pub fn path(&self) -> &Path {
        match self {
            Destination::Folder(p) | Destination::File(p) => p,
        }
    }

    /// Appends `records` (a folder within `limits`); the file written.
    pub fn append(&self, records: &[Record], limits: Limits) -> Result<PathBuf> {
        match self {
            Destination::Folder(dir) => append_to_dir(dir, records, limits),
            Destination::File(file) => append_to_file(file, records).map(|()| file.clone()),
        }
    }

    /// Whether it holds a line of run `run_id` (a missing ledger holds none).
    pub fn holds_run(&self, run_id: &str) -> Result<bool> {
        let needle = format!(
            "\"runId\":{}",
            serde_json::to_string(run_id).expect("a string serializes")
        );
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        let files = match self {
            Destination::File(file) => vec![file.clone()],
            Destination::Folder(dir) if dir.is_dir() => {
                ledger_files(dir)?.into_iter().map(|(_, p, _)| p).collect()
            }
            Destination::Folder(_) => Vec::new(),
        };
        for file in files {
            if file.exists() && contains(&file, &finder)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Whether `path` holds what `finder` looks for, read in blocks (each
/// overlapping the last so that a match across two is found).
fn contains(path: &Path, finder: &memchr::memmem::Finder<'_>) -> Result<bool> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let keep = finder.needle().len().saturating_sub(1);
    let mut buf = vec![0u8; 1 << 20];
    let mut held = 0;
    loop {
        let n = match file.read(&mut buf[held..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(path, e)),
        };
        if n == 0 {
            return Ok(false);
        }
        let end = held + n;
        if finder.find(&buf[..end]).is_some() {
            return Ok(true);
        }
        let tail = end.min(keep);
        buf.copy_within(end - tail..end, 0);
        held = tail;
    }
}

/// The lock file of a ledger folder (not a ledger file: readers pass over it).
const LOCK_FILE: &str = ".lock";

/// `ledger-<n>.jsonl`, zero-padded so that names sort as numbers do.
fn file_name(dir: &Path, n: u64) -> PathBuf {
    dir.join(format!("ledger-{n:06}.jsonl"))
}

/// The number of a ledger file's name.
fn number_of(name: &str) -> Option<u64> {
    name.strip_prefix("ledger-")?
        .strip_suffix(".jsonl")?
        .parse()
        .ok()
}

/// The folder's ledger files by number: (number, path, size).
fn ledger_files(dir: &Path) -> Result<Vec<(u64, PathBuf, u64)>> {
    let entries = reports::walk::list(dir).map_err(|e| Error::io(dir, e))?;
    let mut files: Vec<_> = entries
        .into_iter()
        .filter_map(|e| {
            let n = number_of(&e.file_name().to_string_lossy())?;
            let size = e.metadata().ok()?.len();
            Some((n, e.path(), size))
        })
        .collect();
    files.sort_by_key(|(n, _, _)| *n);
    Ok(files)
}

fn open_append(path: &Path) -> Result<File> {
    OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io(path, e))
}

/// Writes every line in one `write_all`, after a newline when the file ends
/// in a torn line.
fn write_lines(mut file: &File, path: &Path, records: &[Record]) -> Result<()> {
    let mut text = String::new();
    if ends_torn(file).map_err(|e| Error::io(path, e))? {
        text.push('\n');
    }
    for record in records {
        text += &serde_json::to_string(record).expect("a record always serializes");
        text.push('\n');
    }
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| Error::io(path, e))
}

/// Whether the file is not empty and its last byte is not a newline.
fn ends_torn(mut file: &File) -> std::io::Result<bool> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// Removes the oldest ledger files while the folder holds more than `total`.
fn prune(dir: &Path, total: u64) -> Result<()> {
    let files = ledger_files(dir)?;
    let mut held: u64 = files.iter().map(|(_, _, size)| size).sum();
    for (_, path, size) in &files[..files.len().saturating_sub(1)] {
        if held <= total {
            break;
        }
        std::fs::remove_file(path).map_err(|e| Error::io(path, e))?;
        held -= size;
    }
    Ok(())
}

/// An exclusive `flock`, released when dropped (or when the process dies).
struct Lock<'f>(&'f File);

impl<'f> Lock<'f> {
    fn exclusive(file: &'f File, path: &Path) -> Result<Lock<'f>> {
        loop {
            // SAFETY: flock on a descriptor we own for the life of `file`.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                return Ok(Lock(file));
            }
            let err = std::io::Error::last_os_error();
            if err.kind() != std::io::ErrorKind::Interrupted {
                return Err(Error::io(path, err));
            }
        }
    }
}

impl Drop for Lock<'_> {
    fn drop(&mut self) {
        // SAFETY: as above; unlocking a held lock cannot fail in a way we could act on.
        unsafe { libc::flock(self.0.as_raw_fd(), libc::LOCK_UN) };
    }
}
