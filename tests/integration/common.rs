//! Shared helpers: the fixture build copied to a temp dir, running the binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped fixture build (do not run Gradle in it from tests: copy it).
pub fn fixture_source() -> PathBuf {
    repo_root().join("tests/fixtures/es-mini")
}

/// A private copy of the es-mini fixture build in a temp dir, compiled (see
/// [`fixture_template`]).
pub fn fixture_copy() -> tempfile::TempDir {
    copy_of_fixture("es-mini")
}

/// A private copy of the `plain-java` fixture (plain JUnit 4 and TestNG, no
/// randomizedtesting, no `tests.*` forwarding) in a temp dir.
pub fn plain_java_copy() -> tempfile::TempDir {
    copy_of_fixture("plain-java")
}

/// A private copy of the `suites` fixture (a `test` task that includes only
/// its suites) in a temp dir.
pub fn suites_copy() -> tempfile::TempDir {
    copy_of_fixture("suites")
}

/// A private copy of the `slow` fixture (a stable and a flaky test whose
/// iterations take seconds) in a temp dir.
pub fn slow_copy() -> tempfile::TempDir {
    copy_of_fixture("slow")
}

/// A private copy of the `conditions` fixture (a cold-start failure, a class
/// that leaks a busy thread per execution, its neighbour) in a temp dir.
pub fn conditions_copy() -> tempfile::TempDir {
    copy_of_fixture("conditions")
}

/// A private copy of the `neighbours` fixture (a test that passes only
/// after a neighbour class ran in its test JVM) in a temp dir.
pub fn neighbours_copy() -> tempfile::TempDir {
    copy_of_fixture("neighbours")
}

/// A private copy of the `cofail` fixture (three tests that fail together
/// in every second Gradle run, one that fails alone) in a temp dir.
pub fn cofail_copy() -> tempfile::TempDir {
    copy_of_fixture("cofail")
}

/// A private copy of the es-mini fixture's sources alone, as a fresh clone
/// has them: for tests that check that no Gradle ran (it would have left a
/// `.gradle` folder).
pub fn uncompiled_copy() -> tempfile::TempDir {
    let dir = fixture_dir("es-mini");
    copy_tree(&fixture_source(), dir.path());
    dir
}

/// A private copy of `tests/fixtures/<name>` in a temp dir, compiled (see
/// [`fixture_template`]).
fn copy_of_fixture(name: &str) -> tempfile::TempDir {
    let dir = fixture_dir(name);
    copy_all(&fixture_template(name), dir.path());
    dir
}

/// An empty temp dir for a copy of fixture `name`.
fn fixture_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("gradle-flaky-{name}-"))
        .tempdir()
        .expect("temp dir")
}

/// Fixture `name` after Gradle compiled every source set of it, in another
/// directory: its outputs and its `.gradle` state, as in a developer's
/// checkout that has built before. A test's copy of it compiles only what the
/// test changes, which saves each test seconds of CPU (measured: a first
/// `local` run on es-mini takes 2.4 s instead of 7.3 s). Nothing is tested
/// in it: no test results, no gradle-flaky state. Made once per content of
/// the fixture and target directory, by the first test that needs it while
/// the others wait on a lock.
pub fn fixture_template(name: &str) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let source = repo_root().join("tests/fixtures").join(name);
    let compile_all = repo_root().join("tests/integration/compile-all.gradle");
    let mut hasher = std::hash::DefaultHasher::new();
    std::fs::read(&compile_all).unwrap().hash(&mut hasher);
    for file in files_below(&source) {
        file.strip_prefix(&source).unwrap().hash(&mut hasher);
        std::fs::read(&file).unwrap().hash(&mut hasher);
    }
    let store = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fixtures");
    let dir = store.join(format!("{name}-{:016x}", hasher.finish()));
    let _lock = locked(&store.join(format!("{name}.lock")));
    if !dir.exists() {
        let building = store.join(format!("{name}.building"));
        let _ = std::fs::remove_dir_all(&building);
        copy_tree(&source, &building);
        // A home of the fixtures' own: no Gradle of the suite runs in the user's.
        let home = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gradle-home-fixtures");
        let out = run(Command::new("gradle")
            .env("GRADLE_USER_HOME", home)
            .args(["--offline", "--no-daemon", "-q", "--init-script"])
            .arg(&compile_all)
            .arg("compileAll")
            .current_dir(&building));
        assert!(out.status.success(), "{name}: {}", text(&out));
        std::fs::rename(&building, &dir).unwrap();
        // Templates of earlier contents of the fixture are not used again.
        let stem = format!("{name}-");
        for entry in std::fs::read_dir(&store).unwrap().flatten() {
            let other = entry.file_name().to_string_lossy().into_owned();
            if other.starts_with(&stem) && !other.ends_with(".lock") && entry.path() != dir {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    dir
}

/// The files below `dir`, build outputs left out, in a stable order.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        if name == "build" || name == ".gradle" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            files.extend(files_below(&entry.path()));
        } else {
            files.push(entry.path());
        }
    }
    files
}

/// An exclusive lock on `path` (created), held until the file is dropped:
/// tests run in separate processes.
fn locked(path: &Path) -> std::fs::File {
    use std::os::fd::AsRawFd;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::File::create(path).unwrap();
    // SAFETY: flock(2) on a file this process opened; closing it unlocks.
    assert_eq!(unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) }, 0);
    file
}

/// gradle-flaky with `args` on the build at `build`, offline.
pub fn flaky_offline(build: &Path, args: &[&str]) -> Output {
    run(gradle_flaky()
        .arg("--project-dir")
        .arg(build)
        .args(args)
        .args(["--", "--offline"]))
}

/// Copies a directory tree, leaving out build outputs (`build`, `.gradle`).
pub fn copy_tree(from: &Path, to: &Path) {
    copy_dir(from, to, true);
}

/// Copies a directory tree, build outputs included.
pub fn copy_all(from: &Path, to: &Path) {
    copy_dir(from, to, false);
}

fn copy_dir(from: &Path, to: &Path, skip_outputs: bool) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if skip_outputs && (name == "build" || name == ".gradle") {
            continue;
        }
        let src = entry.path();
        let dst = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&src, &dst, skip_outputs);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// A `Command` for the gradle-flaky binary under test, its Gradle in the
/// suite's own Gradle user home ([`in_suite_home`]; a test's own
/// `GRADLE_USER_HOME`, set after, wins).
pub fn gradle_flaky() -> Command {
    let mut cmd = bare_gradle_flaky();
    in_suite_home(&mut cmd);
    cmd
}

/// [`gradle_flaky`] without a Gradle user home set.
fn bare_gradle_flaky() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gradle-flaky"));
    without_ci_env(&mut cmd);
    cmd
}

/// Gives `cmd` (gradle-flaky, Gradle, or a shell running them) the suite's
/// own Gradle user home, below the target directory: the daemons the suite
/// starts run with the JVM options `scripts/test.sh` exports
/// (`JAVA_TOOL_OPTIONS`), and a daemon left in the user's `~/.gradle` with
/// them would pass them on to the user's later builds that reuse it.
/// `scripts/test.sh` stops this home's daemons when the suite ends.
pub fn in_suite_home(cmd: &mut Command) -> &mut Command {
    cmd.env("GRADLE_USER_HOME", suite_home())
}

/// The suite's Gradle user home: [`home_template`]'s caches, copied once
/// per target directory (the first test that needs it copies while the
/// others wait on a lock).
fn suite_home() -> &'static Path {
    static HOME: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    HOME.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(SUITE_HOME);
        if dir.join(READY).exists() {
            return dir;
        }
        let template = home_template();
        let _lock = locked(&dir.with_extension("lock"));
        if !dir.join(READY).exists() {
            let _ = std::fs::remove_dir_all(&dir);
            copy_home(&template, &dir);
            std::fs::write(dir.join(READY), "").unwrap();
        }
        dir
    })
}

/// The suite's Gradle user home's folder name below `CARGO_TARGET_TMPDIR`
/// (`scripts/test.sh` knows it too).
const SUITE_HOME: &str = "gradle-home-suite";

/// Copies a Gradle user home's files, its daemons' folder left out.
fn copy_home(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let name = entry.file_name();
        let dest = to.join(&name);
        if name == "daemon" || name == READY {
            continue;
        } else if entry.file_type().unwrap().is_dir() {
            copy_all(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// Leaves out of `cmd`'s environment what would make it behave as a CI job
/// (the tests may themselves run in one) or change its options.
pub fn without_ci_env(cmd: &mut Command) -> &mut Command {
    cmd.env_remove("NO_COLOR");
    for (k, _) in std::env::vars() {
        if k.starts_with("FLAKINESS_") || k.starts_with("BUILDKITE") || k.starts_with("GITHUB_") {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// Changes a source file of a branch (a comment at its end).
pub fn change(dir: &Path, file: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}// changed on the branch\n")).unwrap();
}

/// Paths below `dir` named `name`.
pub fn files_named(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_name() == name {
                found.push(path.clone());
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            }
        }
    }
    found
}

/// A JSON file's content.
pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The Gradle command line a CI job renders from its spec (a Buildkite
/// step's `FLAKINESS_BATCH_<n>`, a plan file's `spec`): its typed batch's
/// command, rendered by the code the job runs.
pub fn batch_argv(spec: &serde_json::Value) -> Vec<String> {
    serde_json::from_value::<gradle_flaky::domain::GradleCommand>(spec["command"].clone())
        .unwrap_or_else(|e| panic!("no typed batch ({e}): {spec:#}"))
        .argv()
}

/// A hand-written CI batch (`unit`) that runs `argv` once, as given: what
/// the wrappers are tested with, no Gradle needed.
pub fn given_batch(argv: &[&str]) -> serde_json::Value {
    serde_json::json!({
        "command": {
            "kind": "unit", "label": "unit tests", "key": "flakiness-detection:unit",
            "invocation": {
                "gradle": [argv[0]], "given": &argv[1..],
                "repeat": { "inJvm": { "mechanism": "tests-iters", "iterations": 1 } }
            }
        },
        "policy": {}
    })
}

/// Runs a command, returning its output; panics only if it cannot start.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("start process")
}

/// stdout and stderr as text, for assertion messages.
pub fn text(out: &Output) -> String {
    format!(
        "status: {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Makes `dir` a repository whose branch `main` holds its files as they are.
pub fn git_main(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "base"]);
}

/// Checks out a new `branch` from `main` with one commit that adds a comment
/// line to each of `files` (paths below `dir`): a change that changes nothing.
pub fn branch_touching(dir: &Path, branch: &str, files: &[&str]) {
    git(dir, &["checkout", "-q", "main"]);
    git(dir, &["checkout", "-qb", branch]);
    for file in files {
        let path = dir.join(file);
        let old = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{old}// touched on the branch\n")).unwrap();
    }
    git(dir, &["commit", "-qam", branch]);
}

/// Runs git in `dir` with a fixed identity, panicking on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?} failed: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The fixture as a git repository: everything committed on `main`, then the
/// new branch `branch` checked out.
pub fn fixture_repo(branch: &str) -> tempfile::TempDir {
    let repo = fixture_copy();
    let dir = repo.path();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "fixture"]);
    git(dir, &["checkout", "-qb", branch]);
    repo
}

/// Where the fixture's `lang-painless` YAML suites live.
pub const SUITES: &str = "modules/lang-painless/src/yamlRestTest/resources/rest-api-spec/test";

/// The fixture as a git repository whose checked-out branch `pr` changes
/// `files` and adds the YAML `suites` (path below [`SUITES`] without `.yml`,
/// content), committed.
pub fn pr_branch_with(files: &[&str], suites: &[(&str, String)]) -> tempfile::TempDir {
    let repo = fixture_repo("pr");
    let dir = repo.path();
    for file in files {
        change(dir, file);
    }
    for (suite, yaml) in suites {
        let path = dir.join(SUITES).join(format!("{suite}.yml"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, yaml).unwrap();
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "branch"]);
    repo
}

/// Asserts that no shell ran a hostile name's `$(touch pwned)` in `dirs`.
pub fn assert_nothing_ran_pwned(dirs: &[&Path]) {
    for dir in dirs {
        assert_eq!(
            files_named(dir, "pwned"),
            Vec::<PathBuf>::new(),
            "a shell ran `$(touch pwned)`"
        );
    }
}

/// The fixture as a git repository whose branch `docs-only` adds a file that is no test.
pub fn docs_only_branch() -> tempfile::TempDir {
    let repo = fixture_repo("docs-only");
    let dir = repo.path();
    std::fs::write(dir.join("NOTES.md"), "no tests here\n").unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "docs"]);
    repo
}

/// The payload of job `job` in an outcomes JSON array.
pub fn outcome_of(outcomes: &serde_json::Value, job: &str) -> serde_json::Value {
    outcomes
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["jobId"] == job)
        .unwrap_or_else(|| panic!("no outcome for {job}: {outcomes:#}"))
        .clone()
}

/// Gives `build` its layout cache, asking Gradle (`read`) only the first time
/// any test needs the layout of a build with this content and program.
/// Reading a layout is a cold Gradle run (the fixture's buildSrc compiled,
/// every project configured), and most tests that run batches read it only so
/// that their own run starts no Gradle but its batches. What is reused is the
/// layout real Gradle reported for the same build inputs, its paths moved to
/// `build`, stored under the tool's own content key; tests of reading the
/// layout do not use this.
pub fn layout_read_once(build: &Path, program: &[&str], read: impl FnOnce()) {
    use gradle_flaky::layout::{cache, gradle, Layout};
    let root = build.canonicalize().unwrap();
    let program: Vec<String> = program.iter().map(|w| w.to_string()).collect();
    let identity = gradle::program_identity(&root, &program);
    let declared = cache::included_builds(&root, &[]);
    let content = cache::content_key(&root, &identity, gradle::INIT_SCRIPT, &declared);
    let store = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("layouts");
    let stored = store.join(format!("{content}.json"));
    let root_text = root.to_str().unwrap();
    if let Ok(text) = std::fs::read_to_string(&stored) {
        if let Some((from, json)) = text.split_once('\n') {
            let layout: Layout = serde_json::from_str(&json.replace(from, root_text)).unwrap();
            let included = cache::included_builds(&root, &layout.included_builds);
            let key = cache::key(&root, &identity, gradle::INIT_SCRIPT, &included);
            cache::write(&root, &key, &layout);
            return;
        }
    }
    read();
    let layout = cache::read(&root)
        .expect("the layout was read and cached")
        .layout;
    std::fs::create_dir_all(&store).unwrap();
    let tmp = store.join(format!("{content}.{}", std::process::id()));
    let json = serde_json::to_string(&layout).unwrap();
    std::fs::write(&tmp, format!("{root_text}\n{json}")).unwrap();
    std::fs::rename(&tmp, &stored).unwrap();
}

/// The fixtures whose layout is recorded beside them, as
/// `tests/fixtures/<name>.layout.json`.
pub const RECORDED_FIXTURES: [&str; 3] = ["es-mini", "plain-java", "suites"];

/// Where the paths of the build stand in a recorded layout.
const BUILD_ROOT: &str = "@BUILD@";

/// The recorded layout file of fixture `name`.
pub fn recorded_layout_file(name: &str) -> PathBuf {
    repo_root().join(format!("tests/fixtures/{name}.layout.json"))
}

/// What a layout depends on in `build` itself: its build inputs and the
/// init script (not where it is, nor which Gradle program runs it).
pub fn layout_inputs(build: &Path) -> String {
    use gradle_flaky::layout::{cache, gradle};
    let root = build.canonicalize().unwrap();
    let declared = cache::included_builds(&root, &[]);
    cache::content_key(&root, "recorded", gradle::INIT_SCRIPT, &declared)
}

/// A layout of the build at `build` as it is recorded: its own paths written
/// [`BUILD_ROOT`], with the inputs it was read from.
pub fn recorded_form(build: &Path, layout: &serde_json::Value) -> serde_json::Value {
    let root = build.canonicalize().unwrap();
    let text = serde_json::to_string(layout)
        .unwrap()
        .replace(root.to_str().unwrap(), BUILD_ROOT);
    serde_json::json!({
        "inputs": layout_inputs(build),
        "layout": serde_json::from_str::<serde_json::Value>(&text).unwrap(),
    })
}

/// Gives `build`, a copy of fixture `name`, the layout recorded for it, as
/// the cache entry of `program`: a command run on it with that Gradle program
/// starts no Gradle to read the layout. For tests that only plan or select
/// (what Gradle reports is checked once, by `recorded_layouts_are_what_gradle_reports`).
/// Panics when the copy's build inputs or the init script are not those the
/// layout was recorded from.
pub fn use_recorded_layout(build: &Path, name: &str, program: &[&str]) {
    use gradle_flaky::layout::{cache, gradle, Layout};
    let file = recorded_layout_file(name);
    let recorded = read_json(&file);
    assert_eq!(
        recorded["inputs"].as_str(),
        Some(layout_inputs(build).as_str()),
        "{} was recorded from other build scripts or another init script: regenerate it with \
         `UPDATE_GENERATED=1 cargo nextest run recorded_layouts`, or let this test read the \
         layout with Gradle if it changes the build",
        file.display()
    );
    let root = build.canonicalize().unwrap();
    let text = serde_json::to_string(&recorded["layout"])
        .unwrap()
        .replace(BUILD_ROOT, root.to_str().unwrap());
    let layout: Layout = serde_json::from_str(&text).unwrap();
    let program: Vec<String> = program.iter().map(|w| w.to_string()).collect();
    let identity = gradle::program_identity(&root, &program);
    let included = cache::included_builds(&root, &layout.included_builds);
    let key = cache::key(&root, &identity, gradle::INIT_SCRIPT, &included);
    cache::write(&root, &key, &layout);
}

/// Asserts that `out`'s command read the build's layout from its cache:
/// Gradle never ran to configure the build.
pub fn assert_layout_from_cache(out: &Output) {
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("waiting for Gradle to configure the build"),
        "Gradle read the layout, though it was recorded: {}",
        text(out)
    );
}

/// The Gradle user home of one test: its daemons play the user's own daemon,
/// which `local` and `repeat` use by default, so a test never disturbs other
/// tests' or other people's daemons. Dropping it stops its daemons.
pub struct GradleHome {
    dir: tempfile::TempDir,
}

/// The file that marks [`home_template`] complete.
const READY: &str = "ready";

/// A Gradle user home in which Gradle has read the es-mini fixture's layout,
/// isolated (no daemon is left in it). Made once per target directory, by
/// the first test that needs it while the others wait on a lock.
fn home_template() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gradle-home-template");
    if dir.join(READY).exists() {
        return dir;
    }
    let _lock = locked(&dir.with_extension("lock"));
    if !dir.join(READY).exists() {
        let _ = std::fs::remove_dir_all(&dir);
        let build = fixture_copy();
        let out = run(bare_gradle_flaky()
            .env("GRADLE_USER_HOME", &dir)
            .env("FLAKINESS_ISOLATE", "1")
            .arg("--project-dir")
            .arg(build.path())
            .arg("layout"));
        assert!(out.status.success(), "{}", text(&out));
        std::fs::write(dir.join(READY), "").unwrap();
    }
    dir
}

/// The main class of a Gradle daemon.
const DAEMON_MAIN: &str = "org.gradle.launcher.daemon.bootstrap.GradleDaemon";

impl GradleHome {
    /// A new home, its caches copied from [`home_template`]: a user's home
    /// has run their build before, and a cold one costs each test seconds of
    /// CPU (compiling the build scripts, generating the Gradle API jar).
    pub fn new() -> GradleHome {
        let dir = tempfile::Builder::new()
            .prefix("gradle-flaky-home-")
            .tempdir()
            .expect("temp dir");
        copy_home(&home_template(), dir.path());
        GradleHome { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `gradle` with this home.
    pub fn gradle(&self) -> Command {
        let mut cmd = Command::new("gradle");
        cmd.env("GRADLE_USER_HOME", self.path());
        cmd
    }

    /// Starts (or reuses) a daemon of this home by running `gradle help` in
    /// `build`, as a user's earlier build would have; returns its pid.
    pub fn warm(&self, build: &Path) -> u32 {
        let out = run(self
            .gradle()
            .args(["--offline", "-q", "help"])
            .current_dir(build));
        assert!(out.status.success(), "{}", text(&out));
        let daemons = self.daemons();
        assert_eq!(daemons.len(), 1, "one warm daemon: {daemons:?}");
        daemons[0]
    }

    /// The running daemons of this home (their log file is under it).
    pub fn daemons(&self) -> Vec<u32> {
        let home = self.path().to_string_lossy().into_owned();
        let mut out = Vec::new();
        for (pid, cmdline) in processes() {
            if !cmdline.split('\0').any(|a| a == DAEMON_MAIN) {
                continue;
            }
            let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
                .into_iter()
                .flatten();
            let ours = fds.flatten().any(|fd| {
                std::fs::read_link(fd.path()).is_ok_and(|t| t.to_string_lossy().starts_with(&home))
            });
            if ours {
                out.push(pid);
            }
        }
        out
    }
}

impl Drop for GradleHome {
    fn drop(&mut self) {
        let _ = self
            .gradle()
            .args(["--stop", "-q"])
            .current_dir(self.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        for pid in self.daemons() {
            // SAFETY: kill(2) on a daemon of this test's own Gradle home.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

/// Every process: pid and command line (arguments separated by NUL).
pub fn processes() -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if !cmdline.is_empty() {
            out.push((pid, String::from_utf8_lossy(&cmdline).into_owned()));
        }
    }
    out
}

/// The test JVMs (`Gradle Test Executor N`) the daemon `daemon` runs.
pub fn test_executors(daemon: u32) -> Vec<u32> {
    processes()
        .into_iter()
        .filter(|(pid, cmdline)| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            ppid == Some(daemon) && cmdline.contains("Gradle Test Executor")
        })
        .map(|(pid, _)| pid)
        .collect()
}

/// Whether `pid` still runs (a zombie does not).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit_once(')')
            .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
    })
}

/// The class of each of a JSON report's tests, in order.
pub fn report_classes(report: &serde_json::Value) -> Vec<&str> {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["class"].as_str().unwrap())
        .collect()
}

/// Test cases of `class` in the XML below `dir`.
pub fn executions(dir: &Path, class: &str) -> usize {
    files_named(dir, &format!("TEST-{class}.xml"))
        .iter()
        .map(|xml| {
            std::fs::read_to_string(xml)
                .unwrap()
                .matches("<testcase")
                .count()
        })
        .sum()
}
