//! What a source file declares: the types (kind, nesting, modifiers,
//! supertypes), their methods, the annotations, and the line of each.

/// What kind of type a declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TypeKind {
    Class,
    Interface,
    Enum,
    Record,
    Annotation,
    /// A Kotlin `object` (a singleton; never a test class of its own).
    Object,
}

/// A supertype as written: a dotted name without type arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Super {
    pub name: String,
    /// Known to be the superclass: Java/Groovy `extends` of a class, or a
    /// Kotlin supertype followed by a constructor call (`: Base()`).
    pub superclass: bool,
}

/// An annotation as written, at its use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Annotation {
    /// Dotted, as written: `Test`, `org.junit.Test` (Kotlin's use-site
    /// target left out: `Inject` of `@field:Inject`).
    pub name: String,
    /// 1-based.
    pub line: u32,
    /// The class literals among its arguments, as written (`B` and `a.C` of
    /// `@SuiteClasses({B.class, a.C.class})`); Java's form only.
    pub classes: Vec<String>,
}

impl Annotation {
    /// The last segment of the name: `Test` of `org.junit.Test`.
    pub(crate) fn simple(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }
}

/// A type declared in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Declared {
    /// The name inside the package: `Outer`, `Outer$Inner`.
    pub local: String,
    pub kind: TypeKind,
    /// `abstract` (or Kotlin `sealed`, which is abstract).
    pub is_abstract: bool,
    /// `extends` (Java, Groovy) or the `:` list (Kotlin).
    pub supers: Vec<Super>,
    /// The names after `implements` (Java, Groovy), without type arguments.
    pub interfaces: Vec<String>,
    pub annotations: Vec<Annotation>,
    /// The line of the type's name, 1-based.
    pub line: u32,
}

impl Declared {
    /// The simple name: `Inner` of `Outer$Inner`.
    pub(crate) fn simple(&self) -> &str {
        self.local.rsplit('$').next().unwrap_or(&self.local)
    }

    /// The local name of the type declaring this one, if it is a member.
    pub(crate) fn enclosing(&self) -> Option<&str> {
        self.local.rsplit_once('$').map(|(outer, _)| outer)
    }

    /// Its `@RunWith` annotation (JUnit 4: another runner runs the class).
    pub(crate) fn run_with(&self) -> Option<&Annotation> {
        self.annotations.iter().find(|a| a.simple() == "RunWith")
    }
}

/// A method declared by a type, or at file level in Groovy and Kotlin (a
/// constructor too, when a modifier precedes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Method {
    pub name: String,
    /// The local name of the declaring type; empty at file level.
    pub owner: String,
    pub annotations: Vec<Annotation>,
    /// The line of the method's name, 1-based.
    pub line: u32,
    /// What its body names as classes, as written, in order: class literals
    /// (`B` of `B.class`) and the qualifiers of `suite()` calls (`a.C` of
    /// `a.C.suite()`), the two ways a JUnit 3 `suite()` names what it runs,
    /// and the classes it creates (`B` of `new B(…)`).
    pub body_classes: Vec<BodyClass>,
}

/// A class a method body names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BodyClass {
    /// `B.class`.
    Literal(String),
    /// `B.suite()`.
    SuiteCall(String),
    /// `new B(…)` or `new B<…>(…)`: what a JUnit 3 `bulkTest*()` method
    /// returns for `BulkTest.makeSuite` to run.
    New(String),
}

/// An import declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Import {
    /// The dotted name without `.*`.
    pub path: String,
    /// `import a.b.*`.
    pub on_demand: bool,
    /// Kotlin's `import a.b.C as D`: `D`.
    pub alias: Option<String>,
}

impl Import {
    /// The simple name a single-type import brings in scope.
    pub(crate) fn name(&self) -> &str {
        match &self.alias {
            Some(alias) => alias,
            None => self.path.rsplit('.').next().unwrap_or(&self.path),
        }
    }
}

/// A parsed source file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Unit {
    /// Dotted; empty for the default package.
    pub package: String,
    pub imports: Vec<Import>,
    /// In source order, enclosing types before their members.
    pub types: Vec<Declared>,
    /// In source order.
    pub methods: Vec<Method>,
    /// Every annotation of the file, wherever it is (on a type, a member, a
    /// parameter, a type use, inside a body), in source order.
    pub annotations: Vec<Annotation>,
}

impl Unit {
    /// The types whose simple name is `simple`, at any nesting.
    pub(crate) fn types_named<'a>(&'a self, simple: &'a str) -> impl Iterator<Item = &'a Declared> {
        self.types.iter().filter(move |t| t.simple() == simple)
    }

    /// The local name (`Outer$Inner`) of a binary name declared here: the
    /// binary name without this file's package.
    pub(crate) fn local_of<'a>(&self, binary: &'a str) -> &'a str {
        match self.package.as_str() {
            "" => binary,
            package => binary
                .strip_prefix(package)
                .and_then(|r| r.strip_prefix('.'))
                .unwrap_or(binary),
        }
    }
}

/// The language a file is written in, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Language {
    Java,
    Groovy,
    Kotlin,
}

impl Language {
    pub(crate) fn of_extension(ext: &str) -> Option<Language> {
        match ext {
            "java" => Some(Language::Java),
            "groovy" => Some(Language::Groovy),
            "kt" => Some(Language::Kotlin),
            _ => None,
        }
    }

    /// The language of a file, by its extension.
    pub(crate) fn of_path(path: &std::path::Path) -> Option<Language> {
        Language::of_extension(path.extension()?.to_str()?)
    }

    /// Groovy and Kotlin strings interpolate `${…}`, which may hold braces and strings.
    pub(super) fn templates(self) -> bool {
        self != Language::Java
    }
}

/// Whether `word` appears as a whole word anywhere in `text`, comments and
/// strings included: the lenient check for a name that declarations cannot
/// show (a method inherited from outside the build, generated, or only
/// documented), so that only a name that cannot be there is refused.
pub(crate) fn mentions(text: &str, word: &str) -> bool {
    text.split(|c: char| !is_word_char(c))
        .any(|w| !w.is_empty() && w == word)
}

/// A character of a Java, Groovy or Kotlin identifier.
pub(crate) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}
