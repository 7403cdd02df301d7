//! A Test task's runtime classpath, searched for a class by binary name as
//! Gradle's test detection searches it for a superclass: class folders and
//! jars in order, the first that has it. A jar's central directory is read
//! once, and only the entries asked for are inflated: a large build's test
//! classpath holds hundreds of jars, of which a chain walk opens a few.
//! Every read goes through the build's [`Files`] (`open` for a jar, at
//! offsets), as all of selection's.
//!
//! Only what jars are made of is read: stored and deflated entries, no
//! ZIP64 (a jar that needs it is skipped: its classes are not found, and the
//! chain stays undecided, as without a classpath).

use super::bytecode::{self, ClassInfo, ReadClasses};
use super::files::{Files, Seekable};
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{Read, SeekFrom};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The end of central directory record's signature, and its fixed size.
const END_SIGNATURE: u32 = 0x0605_4b50;
const END_SIZE: u64 = 22;
/// The most a zip comment can add after that record.
const MAX_COMMENT: u64 = 0xFFFF;
const CENTRAL_SIGNATURE: u32 = 0x0201_4b50;
const LOCAL_SIGNATURE: u32 = 0x0403_4b50;
/// A class file larger than this is no class a test derives from.
const MAX_CLASS: u64 = 16 << 20;

/// The classpath of a Test task (or of the tasks that may run a class),
/// read through the build's [`Files`].
pub(super) struct Classpath<'a> {
    entries: Vec<PathBuf>,
    files: &'a dyn Files,
    jars: RefCell<HashMap<PathBuf, Option<Rc<Jar>>>>,
    read: ReadClasses,
}

impl<'a> Classpath<'a> {
    pub(super) fn new(entries: Vec<PathBuf>, files: &'a dyn Files) -> Self {
        Classpath {
            entries,
            files,
            jars: RefCell::new(HashMap::new()),
            read: RefCell::new(HashMap::new()),
        }
    }

    /// The class `binary` (`a.b.Outer$Inner`) from the first entry that has it.
    pub(super) fn class(&self, binary: &str) -> Option<Rc<ClassInfo>> {
        bytecode::cached(&self.read, binary, |name| {
            self.entries
                .iter()
                .find_map(|entry| self.bytes(entry, name))
        })
    }

    /// The bytes of `name` in one classpath entry: a class folder or a jar.
    fn bytes(&self, entry: &Path, name: &str) -> Option<Vec<u8>> {
        if self.files.is_dir(entry) {
            return self.files.read_bytes(&entry.join(name));
        }
        let jar = self
            .jars
            .borrow_mut()
            .entry(entry.to_path_buf())
            .or_insert_with(|| Jar::open(self.files, entry).map(Rc::new))
            .clone()?;
        jar.read(self.files, name)
    }
}

/// A jar's central directory: each entry's place and how it is stored.
struct Jar {
    path: PathBuf,
    entries: HashMap<String, ZipEntry>,
}

#[derive(Clone, Copy)]
struct ZipEntry {
    method: u16,
    compressed: u64,
    size: u64,
    local_header: u64,
}

impl Jar {
    /// Reads the central directory; `None` when the file is no zip we read.
    fn open(files: &dyn Files, path: &Path) -> Option<Jar> {
        let mut file = files.open(path)?;
        let len = file.seek(SeekFrom::End(0)).ok()?;
        let tail_len = len.min(END_SIZE + MAX_COMMENT);
        let tail = read_at(&mut *file, len - tail_len, tail_len)?;
        let end = (0..=tail.len().checked_sub(END_SIZE as usize)?)
            .rev()
            .find(|&i| le32(&tail, i) == Some(END_SIGNATURE))?;
        let count = le16(&tail, end + 10)?;
        let size = u64::from(le32(&tail, end + 12)?);
        let offset = u64::from(le32(&tail, end + 16)?);
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            return None; // ZIP64
        }
        let directory = read_at(&mut *file, offset, size)?;
        let entries = central_entries(&directory, count)?;
        Some(Jar {
            path: path.to_path_buf(),
            entries,
        })
    }

    /// The bytes of the entry `name`, inflated; `None` when absent or unreadable.
    fn read(&self, files: &dyn Files, name: &str) -> Option<Vec<u8>> {
        let e = *self.entries.get(name)?;
        if e.size > MAX_CLASS || e.compressed > MAX_CLASS {
            return None;
        }
        let mut file = files.open(&self.path)?;
        let header = read_at(&mut *file, e.local_header, 30)?;
        if le32(&header, 0)? != LOCAL_SIGNATURE {
            return None;
        }
        let skip = u64::from(le16(&header, 26)?) + u64::from(le16(&header, 28)?);
        let data = read_at(&mut *file, e.local_header + 30 + skip, e.compressed)?;
        match e.method {
            0 => Some(data),
            8 => {
                let mut out = Vec::with_capacity(e.size as usize);
                flate2::read::DeflateDecoder::new(&data[..])
                    .take(MAX_CLASS)
                    .read_to_end(&mut out)
                    .ok()?;
                Some(out)
            }
            _ => None,
        }
    }
}

/// The entries of a central directory of `count` records.
fn central_entries(directory: &[u8], count: u16) -> Option<HashMap<String, ZipEntry>> {
    let mut entries = HashMap::with_capacity(usize::from(count));
    let mut at = 0;
    for _ in 0..count {
        if le32(directory, at)? != CENTRAL_SIGNATURE {
            return None;
        }
        let name_len = usize::from(le16(directory, at + 28)?);
        let extra_len = usize::from(le16(directory, at + 30)?);
        let comment_len = usize::from(le16(directory, at + 32)?);
        let name = directory.get(at + 46..at + 46 + name_len)?;
        if name.ends_with(b".class") {
            entries.insert(
                String::from_utf8_lossy(name).into_owned(),
                ZipEntry {
                    method: le16(directory, at + 10)?,
                    compressed: u64::from(le32(directory, at + 20)?),
                    size: u64::from(le32(directory, at + 24)?),
                    local_header: u64::from(le32(directory, at + 42)?),
                },
            );
        }
        at += 46 + name_len + extra_len + comment_len;
    }
    Some(entries)
}

fn read_at(file: &mut dyn Seekable, offset: u64, len: u64) -> Option<Vec<u8>> {
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut buf = vec![0; usize::try_from(len).ok()?];
    file.read_exact(&mut buf).ok()?;
    Some(buf)
}

fn le16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at + 2)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

fn le32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[cfg(test)]
#[path = "jar_tests.rs"]
mod tests;
