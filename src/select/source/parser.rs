//! Reads the declarations of a Java, Groovy or Kotlin file from its tokens.
//! Method bodies and initializers are skipped by brace depth, so local and
//! anonymous classes (which no Test task runs) are not declarations here;
//! only the classes a method body names (`B.class`, `B.suite()`) are kept.

use super::lexer::{Lexer, Tok};

mod declaration;
use super::model::{
    Annotation, BodyClass, Declared, Import, Language, Method, Super, TypeKind, Unit,
};

/// What a `{` opened.
#[derive(Clone, Debug)]
enum Nesting {
    /// The body of a declared type (its local name): members may be types.
    Type(String),
    /// The body of a declared method (its index in the unit's methods).
    Body(usize),
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

/// Names followed by `(` that are statements or keywords, never a method
/// being declared (a Groovy `def "name"()` leaves only `def` before `(`).
const NOT_METHOD_NAMES: [&str; 14] = [
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "synchronized",
    "return",
    "new",
    "super",
    "this",
    "assert",
    "throw",
    "def",
    "void",
];

/// Words before a name and `(` that make it an expression, not a method.
const EXPRESSION_WORDS: [&str; 8] = [
    "new",
    "return",
    "throw",
    "else",
    "case",
    "in",
    "instanceof",
    "yield",
];

/// Parses a source file. Never fails: text it cannot make sense of declares nothing.
pub(crate) fn parse(text: &str, lang: Language) -> Unit {
    let line_starts = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect();
    let mut p = Parser {
        lex: Lexer::new(text, lang),
        lang,
        end: text.len(),
        line_starts,
        peeked: None,
        unit: Unit::default(),
        scopes: Vec::new(),
        modifiers: Vec::new(),
        annotations: Vec::new(),
        previous: None,
        pending_body: None,
        chain: Chain::default(),
    };
    p.run();
    p.unit
}

struct Parser<'a> {
    lex: Lexer<'a>,
    lang: Language,
    /// The text's length: where a missing token would start.
    end: usize,
    /// The byte offset of each line's start.
    line_starts: Vec<usize>,
    peeked: Option<(Tok<'a>, usize)>,
    unit: Unit,
    scopes: Vec<Nesting>,
    /// Modifier words since the last member boundary.
    modifiers: Vec<&'a str>,
    /// Annotations since the last member boundary: those of the next declaration.
    annotations: Vec<Annotation>,
    /// The last token taken, and its offset.
    previous: Option<(Tok<'a>, usize)>,
    /// The method whose body the next `{` opens (until a `;` ends a method without one).
    pending_body: Option<usize>,
    /// The dotted name going by inside bodies.
    chain: Chain,
}

impl<'a> Parser<'a> {
    fn bump(&mut self) -> Option<Tok<'a>> {
        let t = self.peeked.take().or_else(|| self.lex.next());
        if t.is_some() {
            self.previous = t;
        }
        t.map(|(tok, _)| tok)
    }

    fn peek(&mut self) -> Option<Tok<'a>> {
        if self.peeked.is_none() {
            self.peeked = self.lex.next();
        }
        self.peeked.map(|(tok, _)| tok)
    }

    /// Where the next token starts (the end of the text when there is none).
    fn peek_start(&mut self) -> usize {
        self.peek();
        self.peeked.map_or(self.end, |(_, at)| at)
    }

    /// The 1-based line of a byte offset.
    fn line(&self, at: usize) -> u32 {
        u32::try_from(self.line_starts.partition_point(|&s| s <= at)).unwrap_or(u32::MAX)
    }

    /// Ends a member: what preceded it qualifies nothing after.
    fn boundary(&mut self) {
        self.modifiers.clear();
        self.annotations.clear();
    }

    /// The local name of the type whose body we are directly in (`Some("")`
    /// at file level); `None` inside a block.
    fn member_of(&self) -> Option<String> {
        match self.scopes.last() {
            None => Some(String::new()),
            Some(Nesting::Type(local)) => Some(local.clone()),
            Some(Nesting::Block | Nesting::Body(_)) => None,
        }
    }

    /// Keeps a class the body being read names, in its method.
    fn body_class(&mut self, class: BodyClass) {
        let body = self.scopes.iter().rev().find_map(|s| match s {
            Nesting::Body(i) => Some(*i),
            _ => None,
        });
        if let Some(method) = body.and_then(|i| self.unit.methods.get_mut(i)) {
            method.body_classes.push(class);
        }
    }

    fn run(&mut self) {
        while let Some(tok) = self.peek() {
            let at = self.peek_start();
            let before = self.previous;
            let after_dot = matches!(before, Some((Tok::Punct(b'.' | b':'), _)));
            self.bump();
            let owner = self.member_of();
            if owner.is_none() {
                let call_follows = self.peek() == Some(Tok::Punct(b'('));
                if let Some(class) = self.chain.feed(tok, call_follows) {
                    self.body_class(class);
                }
            }
            match tok {
                Tok::Punct(b'{') => {
                    let scope = match self.pending_body.take() {
                        Some(method) if owner.is_some() => Nesting::Body(method),
                        _ => Nesting::Block,
                    };
                    self.scopes.push(scope);
                    self.boundary();
                }
                Tok::Punct(b'}') => {
                    self.scopes.pop();
                    self.pending_body = None;
                    self.boundary();
                }
                Tok::Punct(b';') => {
                    self.pending_body = None;
                    self.boundary();
                }
                Tok::Punct(b'@') => {
                    if let Some(annotation) = self.skip_annotation() {
                        self.annotations.push(annotation);
                    }
                }
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
                        "object" if self.lang == Language::Kotlin => Some(TypeKind::Object),
                        _ => None,
                    };
                    let owner = owner.unwrap_or_default();
                    match kind {
                        Some(kind) => self.declaration(kind, owner),
                        None if self.lang == Language::Kotlin && word == "fun" => {
                            self.kotlin_fun(owner)
                        }
                        None if self.lang != Language::Kotlin
                            && self.method_ahead(word, before) =>
                        {
                            self.method(word, at, owner)
                        }
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

    /// Whether `word`, just taken, names a method being declared: a name
    /// and `(` after a type (`void`, `def`, `String`, `List<T>`, `int[]`), not
    /// after `=`, `new` or an operator.
    fn method_ahead(&mut self, word: &str, before: Option<(Tok<'a>, usize)>) -> bool {
        if self.peek() != Some(Tok::Punct(b'(')) || NOT_METHOD_NAMES.contains(&word) {
            return false;
        }
        match before {
            Some((Tok::Ident(previous), _)) => !EXPRESSION_WORDS.contains(&previous),
            Some((Tok::Punct(b']'), _)) => true,
            // `List<T> name(`, not a lambda's `-> name(`
            Some((Tok::Punct(b'>'), at)) => self.lex.byte_before(at) != b'-',
            _ => false,
        }
    }

    fn method(&mut self, name: &str, at: usize, owner: String) {
        let method = Method {
            name: name.to_string(),
            owner,
            annotations: std::mem::take(&mut self.annotations),
            line: self.line(at),
            body_classes: Vec::new(),
        };
        self.pending_body = Some(self.unit.methods.len());
        self.unit.methods.push(method);
    }

    /// After Kotlin's `fun`: `name(`, `<T> name(`, `Receiver<T>.name(`.
    fn kotlin_fun(&mut self, owner: String) {
        if self.peek() == Some(Tok::Punct(b'<')) {
            self.skip_balanced(b'<', b'>');
        }
        // `fun interface X` declares a type
        if matches!(self.peek(), Some(Tok::Ident("interface")) | None) {
            return;
        }
        if self.type_name().is_empty() {
            return; // a `quoted name`
        }
        if let (Some(Tok::Punct(b'(')), Some((Tok::Ident(name), at))) = (self.peek(), self.previous)
        {
            self.method(name, at, owner);
        }
    }

    /// After `@`: an annotation (kept in the unit, and returned), or an
    /// `@interface` declaration.
    fn skip_annotation(&mut self) -> Option<Annotation> {
        if let Some(Tok::Ident("interface")) = self.peek() {
            self.bump();
            if let Some(owner) = self.member_of() {
                self.declaration(TypeKind::Annotation, owner);
            }
            return None;
        }
        let mut at = self.peek_start();
        let (mut name, _) = self.dotted();
        if self.lang == Language::Kotlin && self.peek() == Some(Tok::Punct(b':')) {
            // `@file:JvmName(…)`, `@field:Inject`
            self.bump();
            at = self.peek_start();
            name = self.dotted().0;
        }
        let classes = if self.peek() == Some(Tok::Punct(b'(')) {
            self.arguments()
        } else {
            Vec::new()
        };
        if name.is_empty() {
            return None;
        }
        let annotation = Annotation {
            name,
            line: self.line(at),
            classes,
        };
        self.unit.annotations.push(annotation.clone());
        Some(annotation)
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

    /// Skips an annotation's balanced `( … )`, at its `(`, returning the
    /// class literals among its arguments.
    fn arguments(&mut self) -> Vec<String> {
        let mut classes = Vec::new();
        let mut chain = Chain::default();
        let mut depth = 0usize;
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Punct(b'(') => depth += 1,
                Tok::Punct(b')') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return classes;
                    }
                }
                Tok::Punct(b';') => return classes,
                _ => {}
            }
            if let Some(BodyClass::Literal(class)) = chain.feed(tok, false) {
                classes.push(class);
            }
            self.bump();
        }
        classes
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
}

/// A dotted name as its tokens go by, to catch the name before `.class`,
/// before a `.suite(` call and after `new`.
#[derive(Debug, Default)]
struct Chain {
    name: String,
    /// The last token was a `.`.
    dot: bool,
    /// The name being read follows `new`.
    created: bool,
}

impl Chain {
    /// Takes the next token (`call_follows`: a `(` comes after it); returns
    /// the class a `.class` or `.suite(` ends, or that `new` creates.
    fn feed(&mut self, tok: Tok<'_>, call_follows: bool) -> Option<BodyClass> {
        let continues = self.dot && !self.name.is_empty();
        self.dot = false;
        match tok {
            Tok::Ident("class") if continues => {
                self.created = false;
                Some(BodyClass::Literal(std::mem::take(&mut self.name)))
            }
            Tok::Ident("suite") if continues && call_follows && !self.created => {
                Some(BodyClass::SuiteCall(std::mem::take(&mut self.name)))
            }
            Tok::Ident("new") if !continues => {
                self.name.clear();
                self.created = true;
                None
            }
            Tok::Ident(word) => {
                if continues {
                    self.name.push('.');
                } else {
                    // Only the name right after `new` is created.
                    self.created &= self.name.is_empty();
                    self.name.clear();
                }
                self.name.push_str(word);
                if self.created && call_follows {
                    self.created = false;
                    return Some(BodyClass::New(std::mem::take(&mut self.name)));
                }
                None
            }
            Tok::Punct(b'.') => {
                self.dot = true;
                None
            }
            Tok::Punct(b'<') if self.created && !self.name.is_empty() => {
                self.created = false;
                Some(BodyClass::New(std::mem::take(&mut self.name)))
            }
            _ => {
                self.name.clear();
                self.created = false;
                None
            }
        }
    }
}
