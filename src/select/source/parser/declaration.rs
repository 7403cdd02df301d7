//! A type's header: its name, its supertypes (Java's `extends`/`implements`,
//! Kotlin's `:` list), and the scope its body opens.

use super::*;

impl Parser<'_> {
    /// A type name in a header: `a.b.C<…>.D`, without its type arguments.
    pub(super) fn type_name(&mut self) -> String {
        while self.peek() == Some(Tok::Punct(b'@')) {
            self.bump();
            self.skip_annotation(); // a type use's annotation qualifies no declaration
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
    pub(super) fn declaration(&mut self, kind: TypeKind, owner: String) {
        let at = self.peek_start();
        let Some(Tok::Ident(name)) = self.peek() else {
            return;
        };
        self.bump();
        let (kind, is_abstract) = self.kind_from_modifiers(kind);
        self.modifiers.clear();
        let local = if owner.is_empty() {
            name.to_string()
        } else {
            format!("{owner}${name}")
        };
        let mut supers = Vec::new();
        let mut interfaces = Vec::new();
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
                    let superclass = kind == TypeKind::Class;
                    let names = self.type_list().into_iter();
                    supers.extend(names.map(|name| Super { name, superclass }));
                }
                Tok::Ident("implements") => {
                    self.bump();
                    interfaces.extend(self.type_list());
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
            interfaces,
            annotations: std::mem::take(&mut self.annotations),
            line: self.line(at),
        });
        if body {
            self.scopes.push(Nesting::Type(local));
        }
    }

    /// The kind and abstractness the modifiers before the keyword give:
    /// Kotlin spells enums, annotations and sealed classes as modifiers.
    fn kind_from_modifiers(&self, kind: TypeKind) -> (TypeKind, bool) {
        let kotlin = self.lang == Language::Kotlin;
        let has = |m: &str| self.modifiers.contains(&m);
        let is_abstract = has("abstract") || (kotlin && has("sealed"));
        let kind = match kind {
            TypeKind::Class if kotlin && has("enum") => TypeKind::Enum,
            TypeKind::Class if kotlin && has("annotation") => TypeKind::Annotation,
            kind => kind,
        };
        (kind, is_abstract)
    }

    /// The comma-separated type names after `extends` or `implements`.
    fn type_list(&mut self) -> Vec<String> {
        let mut names = Vec::new();
        loop {
            let name = self.type_name();
            if !name.is_empty() {
                names.push(name);
            }
            if self.peek() != Some(Tok::Punct(b',')) {
                return names;
            }
            self.bump();
        }
    }

    /// Kotlin's `: Base(args), Iface, Other by delegate`.
    pub(super) fn kotlin_supertypes(&mut self, supers: &mut Vec<Super>) {
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
