//! The layout cache: `<build>/.gradle/gradle-flaky/layout.json`, keyed on the
//! content of every settings and build script, every file of `buildSrc` and of
//! every included build (build logic: it makes source sets and Test tasks), the
//! Gradle program and the init script, so the next call starts no Gradle until
//! one of them changes, and a change to build logic is never answered from a
//! stale entry.

use super::Layout;
use crate::hex;
use crate::reports::walk::Walk;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// How deep included builds that include builds are followed.
const MAX_INCLUDE_DEPTH: usize = 8;

#[derive(Serialize, Deserialize)]
pub struct Entry {
    pub key: String,
    pub layout: Layout,
}

/// True for files whose content decides the build's projects, source sets and tasks.
fn is_build_input(name: &str) -> bool {
    name.ends_with(".gradle")
        || name.ends_with(".gradle.kts")
        || name == "gradle.properties"
        || name == "gradle-wrapper.properties"
        || name.ends_with(".versions.toml")
}

/// Every build input below `root`, as paths relative to it, sorted. Every
/// source file of `buildSrc` counts too: its plugins shape the build. Other
/// `src` folders are not entered: build scripts live beside them, never inside.
fn build_inputs(root: &Path) -> Vec<PathBuf> {
    let build_src = root.join("buildSrc");
    let sources = |dir: &Path| dir.ends_with("src") && !dir.starts_with(&build_src);
    let mut found: Vec<PathBuf> = Walk::new(root)
        .pruning(&sources)
        .regular_files()
        .filter(|f| {
            let name = f.rel.file_name().unwrap_or_default().to_string_lossy();
            f.rel.starts_with("buildSrc") || is_build_input(&name)
        })
        .map(|f| f.rel)
        .collect();
    found.sort();
    found
}

/// Every file below an included build's root, relative to it, sorted; build
/// outputs and tool folders left out. Sources count: they are build logic.
fn included_inputs(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Walk::new(root).regular_files().map(|f| f.rel).collect();
    found.sort();
    found
}

/// The builds `dir`'s settings script includes with a literal path
/// (`includeBuild 'x'`, `includeBuild("x")`, in `settings` or in
/// `pluginManagement`), resolved against `dir`. A guard for builds the layout
/// has not reported yet (a new `includeBuild` also changes the settings
/// script, which is hashed anyway); the layout's list is the authority.
fn declared_includes(dir: &Path) -> Vec<PathBuf> {
    ["settings.gradle", "settings.gradle.kts"]
        .iter()
        .filter_map(|name| std::fs::read_to_string(dir.join(name)).ok())
        .flat_map(|text| {
            include_build_paths(&text)
                .into_iter()
                .map(|path| dir.join(path))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The quoted literal of each `includeBuild` call of a settings script, in
/// order: `includeBuild("x")`, `includeBuild 'x'`; an interpolated path (one
/// holding `$`) is left out.
fn include_build_paths(text: &str) -> Vec<&str> {
    const CALL: &str = "includeBuild";
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(CALL) {
        let after = from + i + CALL.len();
        match quoted_argument(&text[after..]) {
            Some((path, used)) => {
                found.push(path);
                from = after + used;
            }
            None => from = after,
        }
    }
    found
}

/// `("x"` or ` 'x'` at the start of `rest` (blanks and one `(` allowed
/// before the quote; either quote ends it): the path, and how many bytes of
/// `rest` it took through its closing quote.
fn quoted_argument(rest: &str) -> Option<(&str, usize)> {
    let s = rest.trim_start();
    let s = s.strip_prefix('(').unwrap_or(s).trim_start();
    let inner = s.strip_prefix(['"', '\''])?;
    let end = inner.find(['"', '\'', '$'])?;
    let tail = inner[end..].strip_prefix(['"', '\''])?;
    (end > 0).then(|| (&inner[..end], rest.len() - tail.len()))
}

/// The included builds whose files the key covers: those the layout reported
/// (`known`) and those the settings scripts name, followed into the builds they
/// include themselves; canonical, existing, sorted, without duplicates.
pub fn included_builds(project_dir: &Path, known: &[PathBuf]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut frontier: Vec<PathBuf> = known.to_vec();
    frontier.extend(declared_includes(project_dir));
    for _ in 0..MAX_INCLUDE_DEPTH {
        let mut next = Vec::new();
        for dir in frontier {
            let Ok(dir) = std::fs::canonicalize(&dir) else {
                continue;
            };
            if dir.is_dir() && dir != project_dir && !found.contains(&dir) {
                next.extend(declared_includes(&dir));
                found.push(dir);
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    found.sort();
    found
}

/// The cache key: a hash of the build's location and its [`content_key`].
pub fn key(
    project_dir: &Path,
    gradle_identity: &str,
    init_script: &str,
    included: &[PathBuf],
) -> String {
    let mut h = Sha256::new();
    field(&mut h, project_dir.as_os_str().as_encoded_bytes());
    let content = content_key(project_dir, gradle_identity, init_script, included);
    field(&mut h, content.as_bytes());
    hex::encode(h.finalize())
}

/// What a layout depends on besides where the build is: its build inputs
/// (names and content), every file of the `included` builds, the Gradle
/// program's identity and the init script. Two copies of one build share it;
/// their layouts differ only in paths.
pub fn content_key(
    project_dir: &Path,
    gradle_identity: &str,
    init_script: &str,
    included: &[PathBuf],
) -> String {
    let mut h = Sha256::new();
    field(&mut h, gradle_identity.as_bytes());
    field(&mut h, init_script.as_bytes());
    for rel in build_inputs(project_dir) {
        field(&mut h, rel.as_os_str().as_encoded_bytes());
        field(
            &mut h,
            &std::fs::read(project_dir.join(&rel)).unwrap_or_default(),
        );
    }
    for dir in included {
        // Inside the build: by its place in it, so copies of the build agree.
        let shown = dir.strip_prefix(project_dir).unwrap_or(dir);
        field(&mut h, shown.as_os_str().as_encoded_bytes());
        for rel in included_inputs(dir) {
            field(&mut h, rel.as_os_str().as_encoded_bytes());
            field(&mut h, &std::fs::read(dir.join(&rel)).unwrap_or_default());
        }
    }
    hex::encode(h.finalize())
}

/// One length-prefixed field of a key, so that fields cannot run together.
fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// The cache entry, whatever its key.
pub fn read(project_dir: &Path) -> Option<Entry> {
    let text = std::fs::read_to_string(crate::reports::layout_cache_file(project_dir)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Stores the layout; a cache that cannot be written only costs the next call time.
pub fn write(project_dir: &Path, key: &str, layout: &Layout) {
    let file = crate::reports::layout_cache_file(project_dir);
    let Some(dir) = file.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let entry = Entry {
        key: key.to_string(),
        layout: layout.clone(),
    };
    let Ok(text) = serde_json::to_string(&entry) else {
        return;
    };
    // Write then rename, so a concurrent reader never sees half a file.
    let tmp = dir.join(format!("layout.json.{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, &file).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_follows_build_scripts_and_ignores_sources() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("settings.gradle"), "include 'a'").unwrap();
        std::fs::create_dir_all(root.join("a/src/test/java")).unwrap();
        std::fs::write(root.join("a/build.gradle"), "apply plugin: 'java'").unwrap();
        let key = |root: &Path, gradle: &str, script: &str| key(root, gradle, script, &[]);
        let k1 = key(root, "gradle", "script");

        std::fs::write(root.join("a/src/test/java/X.java"), "class X {}").unwrap();
        std::fs::create_dir_all(root.join("a/build")).unwrap();
        std::fs::write(root.join("a/build/gen.gradle"), "x").unwrap();
        assert_eq!(
            key(root, "gradle", "script"),
            k1,
            "sources and outputs don't count"
        );

        std::fs::write(root.join("a/build.gradle"), "apply plugin: 'groovy'").unwrap();
        let k2 = key(root, "gradle", "script");
        assert_ne!(k2, k1, "a build script edit changes the key");
        std::fs::create_dir_all(root.join("buildSrc/src/main/java")).unwrap();
        std::fs::write(root.join("buildSrc/src/main/java/P.java"), "class P {}").unwrap();
        let k3 = key(root, "gradle", "script");
        assert_ne!(k3, k2, "a buildSrc plugin source changes the key");
        let k2 = k3;
        assert_ne!(
            key(root, "gradle-8", "script"),
            k2,
            "another Gradle changes the key"
        );
        assert_ne!(
            key(root, "gradle", "script v2"),
            k2,
            "another init script changes it"
        );
    }
}

#[cfg(test)]
mod included_tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn every_source_of_an_included_build_is_in_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        write(
            &root.join("settings.gradle"),
            "includeBuild 'build-tools-internal'\npluginManagement { includeBuild(\"../outside\") }\n",
        );
        let tools = root.join("build-tools-internal");
        write(&tools.join("settings.gradle"), "includeBuild 'nested'");
        write(&tools.join("src/main/java/P.java"), "class P {}");
        write(&tools.join("nested/src/main/java/Q.java"), "class Q {}");
        write(&tools.join("build/libs/x.jar"), "jar");
        let outside = root.parent().unwrap().join("outside");
        let found = included_builds(&root, &[]);
        assert!(found.contains(&tools), "{found:?}");
        assert!(
            found.contains(&tools.join("nested")),
            "nested includes are followed: {found:?}"
        );
        assert_eq!(found.len(), 2 + usize::from(outside.is_dir()));

        let k = |found: &[PathBuf]| key(&root, "g", "s", found);
        let k1 = k(&found);
        write(&tools.join("build/libs/x.jar"), "rebuilt");
        assert_eq!(
            k(&found),
            k1,
            "build outputs of an included build don't count"
        );
        write(&tools.join("src/main/java/P.java"), "class P { int x; }");
        let k2 = k(&found);
        assert_ne!(k2, k1, "an included build's source is build logic");
        write(
            &tools.join("nested/src/main/java/Q.java"),
            "class Q { int y; }",
        );
        assert_ne!(k(&found), k2, "so is a nested included build's");
        assert_eq!(
            included_builds(&root, &[tools.clone(), root.clone()]),
            found,
            "the layout's own list is merged, the build itself left out"
        );
    }

    #[test]
    fn include_build_literals_are_read_without_interpolated_ones() {
        let text = "includeBuild(\"x\")\nincludeBuild 'y'\npluginManagement { includeBuild ( \"../z\" ) }\n\
                    includeBuild \"$root/w\"\nincludeBuild(file('v'))\nincludeBuild ''\nincludeBuild";
        assert_eq!(include_build_paths(text), ["x", "y", "../z"]);
    }
}
