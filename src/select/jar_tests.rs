use super::*;
use crate::select::testing::MemFiles;
use std::io::Write;

const SAMPLE: &[u8] = include_bytes!("../../tests/data/bytecode/Sample.class");
const NESTED: &[u8] = include_bytes!("../../tests/data/bytecode/Sample$Nested.class");

/// A zip of `entries` (name, bytes, deflated), as `jar` writes one, with a
/// comment after the end record.
fn zip(entries: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, bytes, deflate) in entries {
        let data = if *deflate {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        } else {
            bytes.to_vec()
        };
        let method: u16 = if *deflate { 8 } else { 0 };
        let offset = out.len() as u32;
        let fields = |signature: u32, central: bool| {
            let mut h = signature.to_le_bytes().to_vec();
            if central {
                h.extend(20u16.to_le_bytes()); // made by
            }
            h.extend(20u16.to_le_bytes()); // needed
            h.extend(0u16.to_le_bytes()); // flags
            h.extend(method.to_le_bytes());
            h.extend([0; 8]); // time, date, crc
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((bytes.len() as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes()); // extra
            h
        };
        out.extend(fields(LOCAL_SIGNATURE, false));
        out.extend(name.as_bytes());
        out.extend(&data);
        central.extend(fields(CENTRAL_SIGNATURE, true));
        central.extend([0; 10]); // comment length, disk, attributes
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let directory_at = out.len() as u32;
    out.extend(&central);
    out.extend(END_SIGNATURE.to_le_bytes());
    out.extend([0; 4]); // disks
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(directory_at.to_le_bytes());
    let comment = b"a jar comment";
    out.extend((comment.len() as u16).to_le_bytes());
    out.extend(comment);
    out
}

/// The classpath reads through the build's files: jars at offsets, class
/// folders by path (here in memory).
#[test]
fn classes_are_read_from_jars_stored_or_deflated_and_from_class_folders() {
    let jar = zip(&[
        ("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\n", true),
        ("a/b/Sample.class", SAMPLE, true),
        ("a/b/Sample$Nested.class", NESTED, false),
    ]);
    let files = MemFiles::default()
        .with_bytes("/cp/lib.jar", &jar)
        .with_bytes("/cp/classes/a/b/Sample.class", SAMPLE);
    let (lib, classes) = (PathBuf::from("/cp/lib.jar"), PathBuf::from("/cp/classes"));
    let cp = Classpath::new(vec![PathBuf::from("/cp/absent.jar"), lib.clone()], &files);
    let sample = cp.class("a.b.Sample").expect("deflated entry");
    assert_eq!(
        sample.superclass.as_deref(),
        Some("junit.framework.TestCase")
    );
    assert_eq!(
        cp.class("a.b.Sample$Nested").unwrap().name,
        "a.b.Sample$Nested"
    );
    assert!(cp.class("a.b.Missing").is_none());
    // a class folder first wins
    let cp = Classpath::new(vec![classes, lib], &files);
    assert_eq!(cp.class("a.b.Sample").unwrap().name, "a.b.Sample");
}

#[test]
fn a_file_that_is_no_zip_or_is_cut_short_gives_no_class() {
    let full = zip(&[("a/b/Sample.class", SAMPLE, true)]);
    let jar = PathBuf::from("/cp/cut.jar");
    for end in [0, 10, full.len() / 2, full.len() - 30] {
        let files = MemFiles::default().with_bytes("/cp/cut.jar", &full[..end]);
        assert!(
            Classpath::new(vec![jar.clone()], &files)
                .class("a.b.Sample")
                .is_none(),
            "cut at {end}"
        );
    }
    let files = MemFiles::default().with_bytes("/cp/cut.jar", b"not a zip");
    assert!(Classpath::new(vec![jar], &files)
        .class("a.b.Sample")
        .is_none());
}

/// The jars a Debian machine has: JUnit's and Hamcrest's classes read as
/// Gradle's detector reads them.
#[test]
fn a_real_jar_gives_hamcrests_matcher_chain() {
    let hamcrest = "/usr/share/java/hamcrest-core.jar";
    let Ok(bytes) = std::fs::read(hamcrest) else {
        panic!("{hamcrest} is missing: scripts/test.sh installs it");
    };
    let files = MemFiles::default().with_bytes(hamcrest, &bytes);
    let cp = Classpath::new(vec![PathBuf::from(hamcrest)], &files);
    let typesafe = cp.class("org.hamcrest.TypeSafeMatcher").unwrap();
    assert_eq!(
        typesafe.superclass.as_deref(),
        Some("org.hamcrest.BaseMatcher")
    );
    assert!(typesafe.is_abstract);
    let base = cp.class("org.hamcrest.BaseMatcher").unwrap();
    assert_eq!(base.superclass.as_deref(), Some("java.lang.Object"));
}
