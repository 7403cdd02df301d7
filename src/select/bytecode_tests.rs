use super::*;

/// Compiled by javac from `tests/data/bytecode/Sample.java` (JUnit 4.13.2 on
/// the class path): long and double constants, annotations with class, enum,
/// array and nested values, a member class of each kind.
const SAMPLE: &[u8] = include_bytes!("../../tests/data/bytecode/Sample.class");
const INNER: &[u8] = include_bytes!("../../tests/data/bytecode/Sample$Inner.class");
const NESTED: &[u8] = include_bytes!("../../tests/data/bytecode/Sample$Nested.class");

#[test]
fn a_class_file_gives_its_supertypes_modifiers_and_annotations() {
    let info = read(SAMPLE).unwrap();
    assert_eq!(info.name, "a.b.Sample");
    assert_eq!(info.superclass.as_deref(), Some("junit.framework.TestCase"));
    assert_eq!(info.interfaces, ["java.io.Serializable"]);
    assert!(info.is_abstract && !info.is_interface && !info.is_inner);
    assert_eq!(
        info.annotations,
        [
            "org.junit.runner.RunWith",
            "org.junit.runners.Suite$SuiteClasses",
            "org.junit.FixMethodOrder"
        ]
    );
    assert_eq!(
        info.method_annotations,
        ["org.junit.Test", "java.lang.Deprecated"]
    );
}

#[test]
fn a_member_class_that_is_not_static_is_inner() {
    let inner = read(INNER).unwrap();
    assert_eq!(inner.name, "a.b.Sample$Inner");
    assert_eq!(inner.superclass.as_deref(), Some("java.lang.Object"));
    assert!(inner.is_inner);
    assert!(!read(NESTED).unwrap().is_inner);
}

#[test]
fn anything_else_is_no_class_file() {
    assert_eq!(read(b""), None);
    assert_eq!(read(b"not a class file at all"), None);
    // Cut short anywhere: never a panic, never a half-read class.
    for end in 0..SAMPLE.len() {
        assert_eq!(read(&SAMPLE[..end]), None, "cut at {end}");
    }
}
