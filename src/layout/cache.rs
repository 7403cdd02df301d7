//! The layout cache: `<build>/.gradle/gradle-flaky/layout.json`, keyed on the
//! content of every settings and build script, the Gradle program and the init
//! script, so the next call starts no Gradle until one of them changes.

use super::Layout;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Directories that never hold build scripts of the build being described.
/// `src` is pruned too: build scripts live beside `src/`, never inside it.
const PRUNED_DIRS: &[&str] = &[
    ".git",
    ".gradle",
    "build",
    "node_modules",
    "src",
    "out",
    ".idea",
    crate::reports::ITERS_DIR,
];

#[derive(Serialize, Deserialize)]
struct Entry {
    key: String,
    layout: Layout,
}

pub fn cache_file(project_dir: &Path) -> PathBuf {
    crate::reports::layout_cache_file(project_dir)
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
/// source file of `buildSrc` counts too: its plugins shape the build.
fn build_inputs(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![(root.to_path_buf(), false)];
    while let Some((dir, in_build_src)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let pruned =
                    PRUNED_DIRS.contains(&name.as_ref()) && !(in_build_src && name == "src");
                if !pruned {
                    let build_src = in_build_src || (dir == root && name == "buildSrc");
                    stack.push((entry.path(), build_src));
                }
            } else if kind.is_file() && (in_build_src || is_build_input(&name)) {
                if let Ok(rel) = entry.path().strip_prefix(root) {
                    found.push(rel.to_path_buf());
                }
            }
        }
    }
    found.sort();
    found
}

/// The cache key: a hash of the build's location and its [`content_key`].
pub fn key(project_dir: &Path, gradle_identity: &str, init_script: &str) -> String {
    let mut h = Sha256::new();
    field(&mut h, project_dir.as_os_str().as_encoded_bytes());
    field(
        &mut h,
        content_key(project_dir, gradle_identity, init_script).as_bytes(),
    );
    hex::encode(h.finalize())
}

/// What a layout depends on besides where the build is: its build inputs
/// (names and content), the Gradle program's identity and the init script.
/// Two copies of one build share it; their layouts differ only in paths.
pub fn content_key(project_dir: &Path, gradle_identity: &str, init_script: &str) -> String {
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
    hex::encode(h.finalize())
}

/// One length-prefixed field of a key, so that fields cannot run together.
fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// The cached layout, if the cache holds one for this key.
pub fn read(project_dir: &Path, key: &str) -> Option<Layout> {
    let text = std::fs::read_to_string(cache_file(project_dir)).ok()?;
    let entry: Entry = serde_json::from_str(&text).ok()?;
    (entry.key == key).then_some(entry.layout)
}

/// Stores the layout; a cache that cannot be written only costs the next call time.
pub fn write(project_dir: &Path, key: &str, layout: &Layout) {
    let file = cache_file(project_dir);
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

        // A copy elsewhere has the same content key, not the same key.
        let copy = tempfile::tempdir().unwrap();
        for rel in build_inputs(root) {
            std::fs::create_dir_all(copy.path().join(&rel).parent().unwrap()).unwrap();
            std::fs::copy(root.join(&rel), copy.path().join(&rel)).unwrap();
        }
        assert_eq!(
            content_key(copy.path(), "gradle", "script"),
            content_key(root, "gradle", "script")
        );
        assert_ne!(key(copy.path(), "gradle", "script"), k2);
    }
}
