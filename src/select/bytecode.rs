//! The little of a compiled class that tells whether Gradle's test scanning
//! runs it: its name, superclass, modifiers and the runtime-visible
//! annotations of the class and of its methods. Read from the class file's
//! constant pool and attributes; code and debug information are skipped.
//!
//! Gradle's detectors read the same (with ASM, skipping code, debug
//! information and frames), for superclasses whose sources are not at hand.

use super::files::Files;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// The build's compiled classes: every classes dir the layout reports,
/// searched by binary name, each class read once. Classes not compiled yet
/// are simply not found.
pub(super) struct Compiled<'a> {
    dirs: Vec<PathBuf>,
    files: &'a dyn Files,
    read: ReadClasses,
}

impl<'a> Compiled<'a> {
    pub(super) fn new(dirs: Vec<PathBuf>, files: &'a dyn Files) -> Self {
        Compiled {
            dirs,
            files,
            read: RefCell::new(HashMap::new()),
        }
    }

    /// The class `binary` (`a.b.Outer$Inner`) of the first classes dir that has it.
    pub(super) fn class(&self, binary: &str) -> Option<Rc<ClassInfo>> {
        cached(&self.read, binary, |file| {
            self.dirs
                .iter()
                .find_map(|dir| self.files.read_bytes(&dir.join(file)))
        })
    }
}

/// Classes read once each, by binary name (`None`: not found).
pub(super) type ReadClasses = RefCell<HashMap<String, Option<Rc<ClassInfo>>>>;

/// The class `binary` from `read`, else from the bytes `find` gives for its
/// class file's name (`a/b/Outer$Inner.class`), remembered either way; a
/// file that declares another class is none.
pub(super) fn cached(
    read: &ReadClasses,
    binary: &str,
    find: impl FnOnce(&str) -> Option<Vec<u8>>,
) -> Option<Rc<ClassInfo>> {
    if let Some(known) = read.borrow().get(binary) {
        return known.clone();
    }
    let found = find(&crate::test_filter::class_file(binary))
        .and_then(|bytes| self::read(&bytes))
        .filter(|info| info.name == binary)
        .map(Rc::new);
    read.borrow_mut().insert(binary.to_string(), found.clone());
    found
}

/// What a class file declares, names in binary form (`a.b.Outer$Inner`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct ClassInfo {
    pub name: String,
    /// `None` for `java.lang.Object` (and module descriptors).
    pub superclass: Option<String>,
    pub interfaces: Vec<String>,
    pub is_abstract: bool,
    pub is_interface: bool,
    /// A member class that is not static: JUnit cannot instantiate it, and
    /// Gradle's JUnit detection treats it as abstract.
    pub is_inner: bool,
    /// The class's runtime-visible annotations, e.g. `org.junit.runner.RunWith`.
    pub annotations: Vec<String>,
    /// Runtime-visible annotations of any of its methods, e.g. `org.junit.Test`.
    pub method_annotations: Vec<String>,
}

const ACC_STATIC: u16 = 0x0008;
const ACC_INTERFACE: u16 = 0x0200;
const ACC_ABSTRACT: u16 = 0x0400;

/// Reads a class file; `None` when it is not one or is cut short.
pub(super) fn read(bytes: &[u8]) -> Option<ClassInfo> {
    let mut r = Reader { bytes, at: 0 };
    if r.u32()? != 0xCAFE_BABE {
        return None;
    }
    r.skip(4)?; // minor and major version
    let pool = Pool::read(&mut r)?;
    let access = r.u16()?;
    let name = pool.class_name(r.u16()?)?;
    let superclass = match r.u16()? {
        0 => None,
        i => Some(pool.class_name(i)?),
    };
    let interfaces = (0..r.u16()?)
        .map(|_| pool.class_name(r.u16()?))
        .collect::<Option<_>>()?;
    let mut info = ClassInfo {
        name,
        superclass,
        interfaces,
        is_abstract: access & ACC_ABSTRACT != 0,
        is_interface: access & ACC_INTERFACE != 0,
        ..ClassInfo::default()
    };
    for _ in 0..r.u16()? {
        r.skip(6)?; // a field's access, name and descriptor
        read_attributes(&mut r, &pool, |_, _| Some(()))?;
    }
    for _ in 0..r.u16()? {
        r.skip(6)?;
        read_attributes(&mut r, &pool, |attribute, body| {
            if attribute == "RuntimeVisibleAnnotations" {
                info.method_annotations.extend(annotations(body, &pool)?);
            }
            Some(())
        })?;
    }
    let own = info.name.clone();
    read_attributes(&mut r, &pool, |attribute, body| {
        match attribute {
            "RuntimeVisibleAnnotations" => info.annotations.extend(annotations(body, &pool)?),
            "InnerClasses" => info.is_inner |= inner_not_static(body, &pool, &own)?,
            _ => {}
        }
        Some(())
    })?;
    Some(info)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        self.take(n).map(|_| ())
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u16(&mut self) -> Option<u16> {
        let b = self.take(2)?;
        Some(u16::from_be_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The constant pool: only its UTF-8 strings and class entries are read.
struct Pool {
    /// By index (1-based, as the class file counts); `None` for other entries.
    utf8: Vec<Option<String>>,
    /// Class entry → index of its name.
    class: Vec<Option<u16>>,
}

impl Pool {
    fn read(r: &mut Reader) -> Option<Pool> {
        let count = usize::from(r.u16()?);
        let mut pool = Pool {
            utf8: vec![None; count],
            class: vec![None; count],
        };
        let mut i = 1;
        while i < count {
            let tag = r.u8()?;
            match tag {
                1 => {
                    let len = usize::from(r.u16()?);
                    // Modified UTF-8 differs from UTF-8 only for NUL and
                    // supplementary characters, never in the names read here.
                    pool.utf8[i] = Some(String::from_utf8_lossy(r.take(len)?).into_owned());
                }
                7 => pool.class[i] = Some(r.u16()?),
                8 | 16 | 19 | 20 => r.skip(2)?,
                15 => r.skip(3)?,
                3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => r.skip(4)?,
                // A long or a double takes two entries.
                5 | 6 => {
                    r.skip(8)?;
                    i += 1;
                }
                _ => return None,
            }
            i += 1;
        }
        Some(pool)
    }

    fn utf8(&self, i: u16) -> Option<&str> {
        self.utf8.get(usize::from(i))?.as_deref()
    }

    /// The binary name of a class entry: `a/b/C$D` → `a.b.C$D`.
    fn class_name(&self, i: u16) -> Option<String> {
        let name = (*self.class.get(usize::from(i))?)?;
        Some(self.utf8(name)?.replace('/', "."))
    }
}

/// Calls `each` with every attribute's name and body.
fn read_attributes<'a>(
    r: &mut Reader<'a>,
    pool: &Pool,
    mut each: impl FnMut(&str, &'a [u8]) -> Option<()>,
) -> Option<()> {
    for _ in 0..r.u16()? {
        let name = pool.utf8(r.u16()?).unwrap_or_default().to_string();
        let len = r.u32()? as usize;
        each(&name, r.take(len)?)?;
    }
    Some(())
}

/// The types of a `RuntimeVisibleAnnotations` attribute's annotations.
fn annotations(body: &[u8], pool: &Pool) -> Option<Vec<String>> {
    let mut r = Reader { bytes: body, at: 0 };
    (0..r.u16()?).map(|_| annotation(&mut r, pool)).collect()
}

/// One annotation (its element values skipped); its type as a binary name.
fn annotation(r: &mut Reader, pool: &Pool) -> Option<String> {
    let descriptor = pool.utf8(r.u16()?)?;
    for _ in 0..r.u16()? {
        r.skip(2)?;
        skip_element_value(r, pool)?;
    }
    let name = descriptor.strip_prefix('L')?.strip_suffix(';')?;
    Some(name.replace('/', "."))
}

fn skip_element_value(r: &mut Reader, pool: &Pool) -> Option<()> {
    match r.u8()? {
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' | b'c' => r.skip(2),
        b'e' => r.skip(4),
        b'@' => annotation(r, pool).map(|_| ()),
        b'[' => {
            for _ in 0..r.u16()? {
                skip_element_value(r, pool)?;
            }
            Some(())
        }
        _ => None,
    }
}

/// Whether `InnerClasses` says the class `own` is a member class that is not static.
fn inner_not_static(body: &[u8], pool: &Pool, own: &str) -> Option<bool> {
    let mut r = Reader { bytes: body, at: 0 };
    let mut inner = false;
    for _ in 0..r.u16()? {
        let class = r.u16()?;
        let outer = r.u16()?;
        r.skip(2)?;
        let access = r.u16()?;
        if outer != 0 && pool.class_name(class).as_deref() == Some(own) {
            inner = access & ACC_STATIC == 0;
        }
    }
    Some(inner)
}

#[cfg(test)]
#[path = "bytecode_tests.rs"]
mod tests;
