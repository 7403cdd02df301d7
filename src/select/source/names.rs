//! Java's scoping of a type name as written in a file, after the member types
//! of its enclosing classes (which only the caller's index can tell): the
//! file's own types and single-type imports, the same package, on-demand
//! imports; and a dotted name read as a qualified one. `exists` says whether
//! the build declares a binary name.

use super::model::Unit;

/// The binary name of a type declared in `unit` under `local` (`Outer$Inner`).
pub(crate) fn binary_in(unit: &Unit, local: &str) -> String {
    if unit.package.is_empty() {
        local.to_string()
    } else {
        format!("{}.{local}", unit.package)
    }
}

/// The type the simple name `simple` names in `unit` by its own types, its
/// imports and its package. An imported type the build does not declare is
/// someone else's: it shadows the package, and names nothing here.
pub(crate) fn by_imports(
    unit: &Unit,
    simple: &str,
    exists: &dyn Fn(&str) -> bool,
) -> Option<String> {
    if unit
        .types
        .iter()
        .any(|t| t.enclosing().is_none() && t.local == simple)
    {
        return Some(binary_in(unit, simple));
    }
    if let Some(import) = unit
        .imports
        .iter()
        .find(|i| !i.on_demand && i.name() == simple)
    {
        return qualified(&import.path, exists);
    }
    let same_package = binary_in(unit, simple);
    if exists(&same_package) {
        return Some(same_package);
    }
    unit.imports
        .iter()
        .filter(|i| i.on_demand)
        .find_map(|i| qualified(&format!("{}.{simple}", i.path), exists))
}

/// A dotted name read as package + type + member types, the longest package
/// first: `a.b.Outer.Inner` → `a.b.Outer$Inner`, when the build declares it.
pub(crate) fn qualified(dotted: &str, exists: &dyn Fn(&str) -> bool) -> Option<String> {
    let segments: Vec<&str> = dotted.split('.').collect();
    (0..segments.len()).rev().find_map(|i| {
        let types = segments[i..].join("$");
        let binary = match i {
            0 => types,
            _ => format!("{}.{types}", segments[..i].join(".")),
        };
        exists(&binary).then_some(binary)
    })
}
