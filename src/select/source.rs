//! What a Java, Groovy or Kotlin source file declares, as far as class
//! hierarchies need it: its package, its imports, and every class,
//! interface, enum or record declared at file level or as a member of one,
//! with its modifiers and its supertypes as written (names unresolved).
//!
//! A small lexer, not a compiler: comments, string and character literals
//! (Java text blocks, Groovy and Kotlin strings with `${…}` templates, Groovy
//! `~/…/` patterns) are skipped so their braces and keywords never count;
//! method bodies and initializers are skipped by brace depth, so local and
//! anonymous classes (which no Test task runs) are not declarations here.

/// What kind of type a declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Class,
    Interface,
    Enum,
    Record,
    Annotation,
}

/// A supertype as written: a dotted name without type arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Super {
    pub name: String,
    /// Known to be the superclass: Java/Groovy `extends` of a class, or a
    /// Kotlin supertype followed by a constructor call (`: Base()`).
    pub superclass: bool,
}

/// A type declared in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The name inside the package: `Outer`, `Outer$Inner`.
    pub local: String,
    pub kind: TypeKind,
    /// `abstract` (or Kotlin `sealed`, which is abstract).
    pub is_abstract: bool,
    pub supers: Vec<Super>,
}

impl Declared {
    /// The simple name: `Inner` of `Outer$Inner`.
    pub fn simple(&self) -> &str {
        self.local.rsplit('$').next().unwrap_or(&self.local)
    }

    /// The local name of the type declaring this one, if it is a member.
    pub fn enclosing(&self) -> Option<&str> {
        self.local.rsplit_once('$').map(|(outer, _)| outer)
    }
}

/// An import declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// The dotted name without `.*`.
    pub path: String,
    /// `import a.b.*`.
    pub on_demand: bool,
    /// Kotlin's `import a.b.C as D`: `D`.
    pub alias: Option<String>,
}

impl Import {
    /// The simple name a single-type import brings in scope.
    pub fn name(&self) -> &str {
        match &self.alias {
            Some(alias) => alias,
            None => self.path.rsplit('.').next().unwrap_or(&self.path),
        }
    }
}

/// A parsed source file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    /// Dotted; empty for the default package.
    pub package: String,
    pub imports: Vec<Import>,
    /// In source order, enclosing types before their members.
    pub types: Vec<Declared>,
}

/// The language a file is written in, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Java,
    Groovy,
    Kotlin,
}

impl Language {
    pub fn of_extension(ext: &str) -> Option<Language> {
        match ext {
            "java" => Some(Language::Java),
            "groovy" => Some(Language::Groovy),
            "kt" => Some(Language::Kotlin),
            _ => None,
        }
    }

    /// Groovy and Kotlin strings interpolate `${…}`, which may hold braces and strings.
    fn templates(self) -> bool {
        self != Language::Java
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Ident(&'a str),
    Punct(u8),
}

/// Splits source text into identifiers and punctuation, skipping what never
/// declares anything.
struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    lang: Language,
    /// Open `${` templates: the brace depth inside each.
    templates: Vec<usize>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, lang: Language) -> Self {
        Lexer {
            src: text.as_bytes(),
            text,
            pos: 0,
            lang,
            templates: Vec::new(),
        }
    }

    fn peek_byte(&self, at: usize) -> u8 {
        self.src.get(self.pos + at).copied().unwrap_or(0)
    }

    fn next(&mut self) -> Option<Tok<'a>> {
        loop {
            let c = *self.src.get(self.pos)?;
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0c => self.pos += 1,
                b'/' if self.peek_byte(1) == b'/' => self.skip_line(),
                b'/' if self.peek_byte(1) == b'*' => self.skip_block_comment(),
                b'"' => self.skip_string(),
                b'\'' => self.skip_quote(),
                b'~' if self.lang == Language::Groovy && self.peek_byte(1) == b'/' => {
                    self.pos += 1;
                    self.skip_slashy();
                }
                b'`' => self.skip_until_byte(b'`'), // Kotlin `quoted names`
                _ if is_ident_start(c) => {
                    let start = self.pos;
                    while self.pos < self.src.len() && is_ident_part(self.src[self.pos]) {
                        self.pos += 1;
                    }
                    return Some(Tok::Ident(&self.text[start..self.pos]));
                }
                b'{' => {
                    self.pos += 1;
                    if let Some(depth) = self.templates.last_mut() {
                        *depth += 1;
                    }
                    return Some(Tok::Punct(c));
                }
                b'}' => {
                    self.pos += 1;
                    match self.templates.last_mut() {
                        Some(0) => {
                            // the end of a `${…}` template: back inside its string
                            self.templates.pop();
                            self.skip_string_body();
                        }
                        Some(depth) => {
                            *depth -= 1;
                            return Some(Tok::Punct(c));
                        }
                        None => return Some(Tok::Punct(c)),
                    }
                }
                _ => {
                    self.pos += 1;
                    if c.is_ascii_digit() {
                        // numbers (`1.5f`, `0x1F`) are not names
                        while self.pos < self.src.len() && is_ident_part(self.src[self.pos]) {
                            self.pos += 1;
                        }
                        continue;
                    }
                    return Some(Tok::Punct(c));
                }
            }
        }
    }

    fn skip_line(&mut self) {
        while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        self.pos += 2;
        while self.pos < self.src.len() {
            if self.src[self.pos] == b'*' && self.peek_byte(1) == b'/' {
                self.pos += 2;
                return;
            }
            self.pos += 1;
        }
    }

    fn skip_until_byte(&mut self, end: u8) {
        self.pos += 1;
        while self.pos < self.src.len() && self.src[self.pos] != end {
            self.pos += 1;
        }
        self.pos += 1;
    }

    /// A `"…"` or `"""…"""` string, at its opening quote.
    fn skip_string(&mut self) {
        if self.peek_byte(1) == b'"' && self.peek_byte(2) == b'"' {
            self.pos += 3;
            while self.pos < self.src.len() {
                if self.src[self.pos..].starts_with(b"\"\"\"") {
                    // a text block may end with more quotes than three
                    while self.peek_byte(0) == b'"' {
                        self.pos += 1;
                    }
                    return;
                }
                if self.src[self.pos] == b'\\' && self.lang != Language::Kotlin {
                    self.pos += 1;
                } else if self.at_template() {
                    self.open_template();
                    return;
                }
                self.pos += 1;
            }
            return;
        }
        self.pos += 1;
        self.skip_string_body();
    }

    /// The rest of a one-line `"…"` string (also after a template ends).
    fn skip_string_body(&mut self) {
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return;
                }
                b'\n' => return, // unterminated: resynchronise at the line end
                _ if self.at_template() => {
                    self.open_template();
                    return;
                }
                _ => self.pos += 1,
            }
        }
    }

    fn at_template(&self) -> bool {
        self.lang.templates() && self.src[self.pos] == b'$' && self.peek_byte(1) == b'{'
    }

    fn open_template(&mut self) {
        self.pos += 2;
        self.templates.push(0);
    }

    /// `'c'` in Java and Kotlin; a `'…'` or `'''…'''` string in Groovy.
    fn skip_quote(&mut self) {
        if self.lang == Language::Groovy && self.peek_byte(1) == b'\'' && self.peek_byte(2) == b'\''
        {
            self.pos += 3;
            while self.pos < self.src.len() && !self.src[self.pos..].starts_with(b"'''") {
                if self.src[self.pos] == b'\\' {
                    self.pos += 1;
                }
                self.pos += 1;
            }
            self.pos += 3;
            return;
        }
        self.pos += 1;
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'\\' => self.pos += 2,
                b'\'' | b'\n' => {
                    self.pos += 1;
                    return;
                }
                _ => self.pos += 1,
            }
        }
    }

    /// A Groovy `/…/` pattern, at its opening slash.
    fn skip_slashy(&mut self) {
        self.pos += 1;
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'\\' => self.pos += 2,
                b'/' | b'\n' => {
                    self.pos += 1;
                    return;
                }
                _ => self.pos += 1,
            }
        }
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_ident_part(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// What a `{` opened.
#[derive(Clone, Debug)]
enum Scope {
    /// The body of a declared type (its local name): members may be types.
    Type(String),
    /// Anything else: a method body, an initializer, a lambda, an anonymous
    /// class; nothing inside is a member type.
    Block,
}

/// Words that may precede a declaration without being its name.
const MODIFIERS: [&str; 21] = [
    "public",
    "protected",
    "private",
    "static",
    "final",
    "abstract",
    "strictfp",
    "sealed",
    "non",
    "open",
    "internal",
    "inner",
    "data",
    "value",
    "enum",
    "annotation",
    "expect",
    "actual",
    "external",
    "transient",
    "synchronized",
];

/// Parses a source file. Never fails: text it cannot make sense of declares nothing.
pub fn parse(text: &str, lang: Language) -> Unit {
    let mut p = Parser {
        lex: Lexer::new(text, lang),
        lang,
        peeked: None,
        unit: Unit::default(),
        scopes: Vec::new(),
        modifiers: Vec::new(),
        previous: None,
    };
    p.run();
    p.unit
}

struct Parser<'a> {
    lex: Lexer<'a>,
    lang: Language,
    peeked: Option<Tok<'a>>,
    unit: Unit,
    scopes: Vec<Scope>,
    /// Modifier words since the last member boundary.
    modifiers: Vec<&'a str>,
    previous: Option<Tok<'a>>,
}

impl<'a> Parser<'a> {
    fn bump(&mut self) -> Option<Tok<'a>> {
        let t = self.peeked.take().or_else(|| self.lex.next());
        if t.is_some() {
            self.previous = t;
        }
        t
    }

    fn peek(&mut self) -> Option<Tok<'a>> {
        if self.peeked.is_none() {
            self.peeked = self.lex.next();
        }
        self.peeked
    }

    /// The local name of the type whose body we are directly in (`Some("")`
    /// at file level); `None` inside a block.
    fn member_of(&self) -> Option<String> {
        match self.scopes.last() {
            None => Some(String::new()),
            Some(Scope::Type(local)) => Some(local.clone()),
            Some(Scope::Block) => None,
        }
    }

    fn run(&mut self) {
        while let Some(tok) = self.peek() {
            let after_dot = matches!(self.previous, Some(Tok::Punct(b'.' | b':')));
            self.bump();
            let owner = self.member_of();
            match tok {
                Tok::Punct(b'{') => {
                    self.scopes.push(Scope::Block);
                    self.modifiers.clear();
                }
                Tok::Punct(b'}') => {
                    self.scopes.pop();
                    self.modifiers.clear();
                }
                Tok::Punct(b';') => self.modifiers.clear(),
                Tok::Punct(b'@') => self.skip_annotation(),
                Tok::Ident("package") if self.scopes.is_empty() && self.unit.types.is_empty() => {
                    self.unit.package = self.dotted().0;
                }
                Tok::Ident("import") if self.scopes.is_empty() && self.unit.types.is_empty() => {
                    self.import();
                }
                Tok::Ident(word) if owner.is_some() && !after_dot => {
                    let kind = match word {
                        "class" => Some(TypeKind::Class),
                        "interface" | "trait" => Some(TypeKind::Interface),
                        "enum" if self.lang != Language::Kotlin => Some(TypeKind::Enum),
                        "record" if self.lang == Language::Java => self.record_ahead(),
                        _ => None,
                    };
                    match kind {
                        Some(kind) => self.declaration(kind, owner.unwrap_or_default()),
                        None if MODIFIERS.contains(&word) => self.modifiers.push(word),
                        None => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// `record` is a declaration only when a name and `(` or `<` follow.
    fn record_ahead(&mut self) -> Option<TypeKind> {
        matches!(self.peek(), Some(Tok::Ident(_))).then_some(TypeKind::Record)
    }

    fn skip_annotation(&mut self) {
        if let Some(Tok::Ident("interface")) = self.peek() {
            self.bump();
            if let Some(owner) = self.member_of() {
                self.declaration(TypeKind::Annotation, owner);
            }
            return;
        }
        self.dotted();
        if self.lang == Language::Kotlin && self.peek() == Some(Tok::Punct(b':')) {
            // `@file:JvmName(…)`, `@field:Inject`
            self.bump();
            self.dotted();
        }
        if self.peek() == Some(Tok::Punct(b'(')) {
            self.skip_balanced(b'(', b')');
        }
    }

    /// `a.b.C` (also `a.b.*` when `star`); returns the name and whether it ended in `.*`.
    fn dotted(&mut self) -> (String, bool) {
        let mut name = String::new();
        loop {
            match self.peek() {
                Some(Tok::Ident(part)) => {
                    self.bump();
                    name.push_str(part);
                }
                Some(Tok::Punct(b'*')) if name.ends_with('.') => {
                    self.bump();
                    name.pop();
                    return (name, true);
                }
                _ => return (name.trim_end_matches('.').to_string(), false),
            }
            if self.peek() == Some(Tok::Punct(b'.')) {
                self.bump();
                name.push('.');
            } else {
                return (name, false);
            }
        }
    }

    fn import(&mut self) {
        if let Some(Tok::Ident("static")) = self.peek() {
            self.bump();
        }
        let (path, on_demand) = self.dotted();
        let mut alias = None;
        if let Some(Tok::Ident("as")) = self.peek() {
            self.bump();
            if let Some(Tok::Ident(name)) = self.peek() {
                self.bump();
                alias = Some(name.to_string());
            }
        }
        if !path.is_empty() {
            self.unit.imports.push(Import {
                path,
                on_demand,
                alias,
            });
        }
    }

    /// Skips a balanced `open … close` group, at its opening token.
    fn skip_balanced(&mut self, open: u8, close: u8) {
        let mut depth = 0usize;
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Punct(c) if c == open => depth += 1,
                Tok::Punct(c) if c == close => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                // a type parameter list never holds these: stop rather than eat a body
                Tok::Punct(b'{' | b'}' | b';') if open == b'<' => return,
                Tok::Punct(b';') => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// A type name in a header: `a.b.C<…>.D`, without its type arguments.
    fn type_name(&mut self) -> String {
        while self.peek() == Some(Tok::Punct(b'@')) {
            self.bump();
            self.skip_annotation();
        }
        let (mut name, _) = self.dotted();
        while self.peek() == Some(Tok::Punct(b'<')) {
            self.skip_balanced(b'<', b'>');
            if self.peek() == Some(Tok::Punct(b'.')) {
                self.bump();
                let (rest, _) = self.dotted();
                name = format!("{name}.{rest}");
            }
        }
        name
    }

    /// After `class`, `interface`, `enum`, `record` or `@interface`: the name,
    /// the supertypes, and the body's scope.
    fn declaration(&mut self, kind: TypeKind, owner: String) {
        let Some(Tok::Ident(name)) = self.peek() else {
            return;
        };
        self.bump();
        let kotlin = self.lang == Language::Kotlin;
        let is_abstract =
            self.modifiers.contains(&"abstract") || (kotlin && self.modifiers.contains(&"sealed"));
        let kind = match kind {
            TypeKind::Class if kotlin && self.modifiers.contains(&"enum") => TypeKind::Enum,
            TypeKind::Class if kotlin && self.modifiers.contains(&"annotation") => {
                TypeKind::Annotation
            }
            kind => kind,
        };
        self.modifiers.clear();
        let local = if owner.is_empty() {
            name.to_string()
        } else {
            format!("{owner}${name}")
        };
        let mut supers = Vec::new();
        let mut body = false;
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Punct(b'<') => self.skip_balanced(b'<', b'>'),
                Tok::Punct(b'(') => self.skip_balanced(b'(', b')'),
                Tok::Punct(b'{') => {
                    self.bump();
                    body = true;
                    break;
                }
                Tok::Ident("extends") => {
                    self.bump();
                    loop {
                        let name = self.type_name();
                        if !name.is_empty() {
                            supers.push(Super {
                                name,
                                superclass: kind == TypeKind::Class,
                            });
                        }
                        if self.peek() != Some(Tok::Punct(b',')) {
                            break;
                        }
                        self.bump();
                    }
                }
                Tok::Punct(b':') if self.lang == Language::Kotlin => {
                    self.bump();
                    self.kotlin_supertypes(&mut supers);
                }
                Tok::Ident(word) if self.lang == Language::Kotlin && ends_kotlin_header(word) => {
                    break; // a body-less Kotlin class, followed by the next declaration
                }
                Tok::Punct(b';' | b'}' | b'=') => break,
                _ => {
                    self.bump();
                }
            }
        }
        self.unit.types.push(Declared {
            local: local.clone(),
            kind,
            is_abstract,
            supers,
        });
        if body {
            self.scopes.push(Scope::Type(local));
        }
    }

    /// Kotlin's `: Base(args), Iface, Other by delegate`.
    fn kotlin_supertypes(&mut self, supers: &mut Vec<Super>) {
        loop {
            let name = self.type_name();
            let mut superclass = false;
            if self.peek() == Some(Tok::Punct(b'(')) {
                self.skip_balanced(b'(', b')');
                superclass = true;
            }
            if !name.is_empty() {
                supers.push(Super { name, superclass });
            }
            if let Some(Tok::Ident("by")) = self.peek() {
                self.bump();
                self.bump(); // the delegate (a name or the start of an expression)
            }
            if self.peek() != Some(Tok::Punct(b',')) {
                return;
            }
            self.bump();
        }
    }
}

/// Words that start the next declaration after a Kotlin class without a body
/// (visibility words are left out: `class A private constructor()` is a header).
fn ends_kotlin_header(word: &str) -> bool {
    let visibility = matches!(word, "public" | "protected" | "private" | "internal");
    let starts = matches!(
        word,
        "class" | "interface" | "object" | "fun" | "val" | "var" | "typealias"
    );
    starts || (MODIFIERS.contains(&word) && !visibility)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn java(text: &str) -> Unit {
        parse(text, Language::Java)
    }

    fn summary(u: &Unit) -> Vec<(String, bool, Vec<String>)> {
        u.types
            .iter()
            .map(|t| {
                let supers = t
                    .supers
                    .iter()
                    .map(|s| format!("{}{}", s.name, if s.superclass { "!" } else { "" }))
                    .collect();
                (t.local.clone(), t.is_abstract, supers)
            })
            .collect()
    }

    #[test]
    fn java_declarations_with_generics_nesting_and_imports() {
        let u = java(
            r#"
            package org.elasticsearch.common.unit;

            import org.elasticsearch.test.AbstractWireTestCase;
            import static org.junit.Assert.*;
            import java.util.*;

            /** A { brace in a comment, and class Fake extends Nothing. */
            @SuppressWarnings({"unchecked", "rawtypes"})
            public class ByteSizeValueWireTests extends AbstractWireTestCase<ByteSizeValue> {
                private static final String S = "class Nope extends X {";
                char c = '{';
                String block = """
                    } class InBlock {
                    """;

                @Override
                protected ByteSizeValue createTestInstance() {
                    Runnable r = new Runnable() { public void run() { class Local extends Base {} } };
                    Object o = ByteSizeValue.class;
                    return null;
                }

                public static class ZeroBytesWire
                        extends org.elasticsearch.test.AbstractWireTestCase<ByteSizeValue>
                        implements Comparable<ZeroBytesWire> {
                    abstract static class Deeper<T extends Map<String, List<T>>> extends Outer<T>.Inner {}
                }
                interface Marker extends A, B {}
                enum E { ONE { void x() {} }, TWO; class InEnum {} }
                record R(int a) implements Marker {}
            }
            abstract class Second {}
            "#,
        );
        assert_eq!(u.package, "org.elasticsearch.common.unit");
        let imports: Vec<(&str, bool)> = u
            .imports
            .iter()
            .map(|i| (i.path.as_str(), i.on_demand))
            .collect();
        assert_eq!(
            imports,
            [
                ("org.elasticsearch.test.AbstractWireTestCase", false),
                ("org.junit.Assert", true),
                ("java.util", true)
            ]
        );
        assert_eq!(
            summary(&u),
            [
                (
                    "ByteSizeValueWireTests".to_string(),
                    false,
                    vec!["AbstractWireTestCase!".to_string()]
                ),
                (
                    "ByteSizeValueWireTests$ZeroBytesWire".into(),
                    false,
                    vec!["org.elasticsearch.test.AbstractWireTestCase!".into()]
                ),
                (
                    "ByteSizeValueWireTests$ZeroBytesWire$Deeper".into(),
                    true,
                    vec!["Outer.Inner!".into()]
                ),
                (
                    "ByteSizeValueWireTests$Marker".into(),
                    false,
                    vec!["A".into(), "B".into()]
                ),
                ("ByteSizeValueWireTests$E".into(), false, vec![]),
                ("ByteSizeValueWireTests$E$InEnum".into(), false, vec![]),
                ("ByteSizeValueWireTests$R".into(), false, vec![]),
                ("Second".into(), true, vec![]),
            ]
        );
        assert_eq!(u.types[3].kind, TypeKind::Interface);
        assert_eq!(u.types[6].kind, TypeKind::Record);
    }

    #[test]
    fn kotlin_supertypes_templates_and_bodiless_classes() {
        let u = parse(
            r#"
            @file:JvmName("X")
            package a.b
            import org.e.Base as B
            import org.e.*
            val s = "${ if (x) "}" else "{" } class Nope"
            abstract class AbstractKtTests : B<String>(), Marker, Other by delegate {
                inner class Inner : AbstractKtTests() { fun f() { val c = '}' } }
            }
            class FirstKtTests : AbstractKtTests()
            sealed class S
            class NoCall : AbstractKtTests
            "#,
            Language::Kotlin,
        );
        assert_eq!(u.package, "a.b");
        assert_eq!(u.imports[0].name(), "B");
        assert!(u.imports[1].on_demand);
        assert_eq!(
            summary(&u),
            [
                (
                    "AbstractKtTests".to_string(),
                    true,
                    vec!["B!".to_string(), "Marker".into(), "Other".into()]
                ),
                (
                    "AbstractKtTests$Inner".into(),
                    false,
                    vec!["AbstractKtTests!".into()]
                ),
                (
                    "FirstKtTests".into(),
                    false,
                    vec!["AbstractKtTests!".into()]
                ),
                ("S".into(), true, vec![]),
                ("NoCall".into(), false, vec!["AbstractKtTests".into()]),
            ]
        );
    }

    #[test]
    fn groovy_strings_and_patterns_hide_braces() {
        let u = parse(
            r#"
            package a
            import spock.lang.Specification
            abstract class BaseSpec extends Specification {
                def s = "x ${ map["}"] } {"
                def p = ~/\{+/
                def t = '''{ class Fake {'''
            }
            class RealSpec extends BaseSpec { def x = 'a{' }
            "#,
            Language::Groovy,
        );
        assert_eq!(
            summary(&u),
            [
                (
                    "BaseSpec".to_string(),
                    true,
                    vec!["Specification!".to_string()]
                ),
                ("RealSpec".into(), false, vec!["BaseSpec!".into()]),
            ]
        );
    }

    #[test]
    fn broken_text_declares_what_it_can_and_never_panics() {
        assert_eq!(
            summary(&java("public abstract class AbstractFooTests {")),
            [("AbstractFooTests".to_string(), true, vec![])]
        );
        for text in [
            "class",
            "\"unterminated",
            "/* open",
            "class X extends",
            "@",
            "'''",
            "${",
        ] {
            for lang in [Language::Java, Language::Groovy, Language::Kotlin] {
                parse(text, lang);
            }
        }
        // a Java string is no template
        let u = java("class A { String s = \"${\"; } class B extends A {}");
        assert_eq!(u.types.len(), 2);
    }
}
