//! The one reading of Java, Groovy and Kotlin sources: what a file declares
//! (package, imports, every class, interface, enum, record or Kotlin object at
//! file level or as a member of one, with its modifiers, supertypes as written
//! and annotations), the methods those types declare, and the line of each.
//!
//! A small lexer, not a compiler: comments and literals are skipped so their
//! braces and keywords never count (`lexer`); bodies are skipped by brace
//! depth (`parser`); names stay as written, unresolved (`model`).

mod lexer;
mod model;
pub(crate) mod names;
mod parser;

pub(crate) use model::{is_word_char, mentions, BodyClass, Declared, Language, TypeKind, Unit};
pub(crate) use parser::parse;

#[cfg(test)]
mod tests;
