//! In-JVM repetition on `tests/fixtures/plain-java` (Gradle 4.4.1): TestNG
//! through gradle-flaky's annotation transformer, JUnit 4 (and JUnit 3
//! classes) through its runner; and the Java helpers on their own, run by
//! the frameworks' own launchers on Debian's jars.

use crate::common::{plain_java_copy, repo_root, text};
use crate::plain_java::{flake_probability, flaky, is_designed_flake, json, row, rows};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const CORE: &str = "com.example.core";
const CLIENT: &str = "com.example.client";
const LEGACY: &str = "com.example.legacy";

/// The `<testcase>` elements named `method` in every report file of `class`
/// below `dir` (the run folder): what the XML says ran.
fn xml_cases(dir: &Path, class: &str, method: &str) -> usize {
    xml_names(dir, class)
        .iter()
        .filter(|name| {
            // gradle-flaky's helpers append each execution's iteration in its JVM.
            let base = match name.rsplit_once(" #") {
                Some((base, i)) if i.bytes().all(|b| b.is_ascii_digit()) => base,
                _ => name.as_str(),
            };
            base == method
        })
        .count()
}

/// The `<testcase>` names of `class`'s reports below `dir`.
fn xml_names(dir: &Path, class: &str) -> Vec<String> {
    let file = format!("TEST-{class}.xml");
    let mut names = Vec::new();
    for path in walk(dir)
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n == file.as_str()))
    {
        let text = std::fs::read_to_string(path).unwrap();
        for case in text.split("<testcase name=\"").skip(1) {
            let name = case.split('"').next().unwrap();
            names.push(name.replace("&amp;", "&"));
        }
    }
    names
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `auto` gives plain JUnit 4 gradle-flaky's runner and TestNG its annotation
/// transformer, each spreading the iterations over 7 fresh JVMs a class (the
/// classes named to the helpers, their `--tests` filters moved into the test
/// JVMs by the helpers' script: from Gradle 4.7 a filter would drop their
/// slices); one Gradle run each; `--repetition gradle-runs` takes them back.
#[test]
fn plan_gives_each_framework_its_in_jvm_mechanism() {
    let build = plain_java_copy();
    let b = build.path();
    let tests = [
        format!("{CORE}.KeyValueParserTest#parses"),
        format!("{CORE}.LruCacheTest"),
        format!("{CLIENT}.ConnectionPoolTest"),
    ];
    let mut args = vec!["plan", "--iters", "20", "--format", "json"];
    args.extend(tests.iter().map(String::as_str));
    let out = flaky(b, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let plan = json(&out);
    let commands = plan["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 2, "{plan:#}");
    let argv = |c: &Value| -> Vec<String> {
        c["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    };
    let junit4 = &commands[0];
    assert_eq!(junit4["inJvm"], "junit4-runner", "{junit4:#}");
    assert_eq!(junit4["repetition"], "inJvm");
    assert_eq!(
        (&junit4["iterations"], &junit4["restLoops"]),
        (&Value::from(20), &Value::from(1))
    );
    assert_eq!(
        argv(junit4)[1..],
        [
            "-Dflaky.repeat.iters=20",
            "-Dflaky.repeat.jvms=7",
            // Its two classes share the seven JVMs, one after the other.
            "-Dflaky.repeat.maxSlices=7",
            ":core:cleanTest",
            ":core:test",
            "--tests",
            "com.example.core.KeyValueParserTest.parses",
            "--tests",
            "com.example.core.KeyValueParserTest.parses[*]",
            "--tests",
            "com.example.core.LruCacheTest",
            "--tests",
            "com.example.core.LruCacheTest$*",
            "-Dflaky.repeat.task.:core:test=junit4",
            "-Dflaky.repeat.classes.:core:test=com.example.core.KeyValueParserTest,com.example.core.LruCacheTest$*",
            "--continue",
            "--offline",
        ]
    );
    let testng = &commands[1];
    assert_eq!(testng["inJvm"], "testng-invocation-count", "{testng:#}");
    assert_eq!(
        argv(testng)[1..],
        [
            "-Dflaky.repeat.iters=20",
            "-Dflaky.repeat.jvms=7",
            "-Dflaky.repeat.maxSlices=32",
            ":client:cleanTest",
            ":client:test",
            "--tests",
            "com.example.client.ConnectionPoolTest",
            "-Dflaky.repeat.task.:client:test=testng",
            "-Dflaky.repeat.classes.:client:test=com.example.client.ConnectionPoolTest",
            "--continue",
            "--offline",
        ]
    );
    assert!(
        testng["repetitionReason"]
            .as_str()
            .unwrap()
            .contains("invocationCount"),
        "{testng:#}"
    );
    // The shell lines: only the init script repeats these, which a comment
    // before each says (typed by hand, the line runs each test once).
    let mut args = vec!["plan", "--iters", "20", "--format", "shell"];
    args.extend(tests.iter().map(String::as_str));
    let out = flaky(b, &args);
    let shell = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = shell.lines().collect();
    assert_eq!(lines.len(), 4, "{shell}");
    for (i, mechanism) in [(0, "junit4-runner"), (2, "testng-invocation-count")] {
        assert_eq!(
            lines[i],
            format!(
                "# {mechanism}: only gradle-flaky's init script repeats these tests (gradle-flaky \
                 local adds it); run by hand, the next line runs each selected test once"
            )
        );
        assert_eq!(
            shell_words::split(lines[i + 1]).unwrap(),
            argv(&commands[i / 2]),
            "{shell}"
        );
    }

    let mut args = vec![
        "plan",
        "--iters",
        "20",
        "--repetition",
        "gradle-runs",
        "--format",
        "json",
    ];
    args.extend(tests.iter().map(String::as_str));
    let plan = json(&flaky(b, &args));
    for c in plan["commands"].as_array().unwrap() {
        assert_eq!(c["repetition"], "gradleRuns", "{c:#}");
        assert!(c.get("inJvm").is_none(), "{c:#}");
        assert!(!argv(c).iter().any(|a| a.contains("flaky.repeat")), "{c:#}");
    }
}

/// The case: `local --iters 20` executes every selected JUnit 4,
/// JUnit 3 and TestNG method 20 times in one Gradle run per batch (counted in
/// the XML: 20 `<testcase>`s of each name), counts each, finds every designed
/// flake, and says what repeated the tests; the JUnit 4 runner and TestNG
/// spread each class's iterations over 7 fresh JVMs (7 first executions; a
/// TestNG data provider's row too, numbered by its invocation count).
#[test]
fn local_repeats_junit4_junit3_and_testng_tests_20_times_in_one_test_jvm() {
    let build = plain_java_copy();
    let b = build.path();
    // 0.6 per execution: a designed flake passes 20 runs in a row with probability 1e-8.
    flake_probability(b, "0.6");
    let classes = [
        format!("{CORE}.RetryingClientTest"),
        format!("{CORE}.KeyValueParserTest"),
        format!("{CORE}.LruCacheTest"),
        format!("{LEGACY}.TestCounter"),
        format!("{CLIENT}.ConnectionPoolTest"),
        format!("{CLIENT}.RequestEncoderTest"),
        format!("{CORE}.ServiceIT"),
    ];
    let mut args = vec![
        "local", "--iters", "20", "--cap", "unit=6", "--format", "json",
    ];
    args.extend(classes.iter().map(String::as_str));
    let out = flaky(b, &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3 of 3 batch(es), 3 Gradle invocation(s)"),
        "JUnit 4 (with JUnit 3), TestNG, integrationTest: one Gradle run each: {stderr}"
    );
    let report = json(&out);
    let tests = report["tests"].as_array().unwrap();
    // 3 + 8 Parameterized cases + 2 + 2 nested + 3 JUnit 3 + 2 + 4 TestNG + 2
    assert_eq!(tests.len(), 26, "{report:#}");
    for t in tests {
        assert_eq!(
            (&t["runs"], &t["plannedRuns"]),
            (&Value::from(20), &Value::from(20)),
            "{t:#}"
        );
        assert!(t.get("belowPlan").is_none(), "{t:#}");
        let by = if t["class"].as_str().unwrap().starts_with(CLIENT) {
            "testng-invocation-count"
        } else {
            "junit4-runner"
        };
        assert_eq!(t["repeatedBy"], serde_json::json!([by]), "{t:#}");
    }
    let designed = [
        (format!("{CORE}.RetryingClientTest"), "retriesUntilSuccess"),
        (format!("{CORE}.KeyValueParserTest"), "parses[2: flaky]"),
        (
            format!("{CORE}.LruCacheTest$EvictionTest"),
            "evictsUnderPressure",
        ),
        (format!("{LEGACY}.TestCounter"), "testConcurrentIncrements"),
        (
            format!("{CLIENT}.ConnectionPoolTest"),
            "reusesIdleConnection",
        ),
        (
            format!("{CLIENT}.RequestEncoderTest"),
            "encodes[2](flaky, x&y, x%26y)",
        ),
        (format!("{CORE}.ServiceIT"), "handlesConcurrentRequests"),
    ];
    for t in tests {
        let is_flake = is_designed_flake(t, &designed);
        let failures = t["failures"].as_u64().unwrap();
        assert_eq!(failures > 0, is_flake, "{t:#}");
        if is_flake {
            assert!(t["passes"].as_u64() > Some(0), "flaky, not broken: {t:#}");
        }
    }
    // What the XML holds: each name 20 times, in one file per class, every
    // JVM's executions numbered (`#i`).
    let run_dir = stderr
        .lines()
        .find_map(|l| {
            l.split_once("reports and logs: ")
                .map(|(_, d)| PathBuf::from(d.trim()))
        })
        .unwrap_or_else(|| panic!("no run folder in {stderr}"));
    for (class, method) in [
        (format!("{CORE}.RetryingClientTest"), "retriesUntilSuccess"),
        (format!("{CORE}.KeyValueParserTest"), "parses[2: flaky]"),
        (format!("{LEGACY}.TestCounter"), "testIncrements"),
        (
            format!("{CLIENT}.ConnectionPoolTest"),
            "acquiresAndReleases",
        ),
        (format!("{CORE}.ServiceIT"), "startsAndStops"),
    ] {
        assert_eq!(xml_cases(&run_dir, &class, method), 20, "{class}.{method}");
    }
    // The JUnit 4 runner's iterations over 7 fresh JVMs per class: each
    // name's `#1` (the first execution in its JVM) 7 times.
    let firsts = xml_names(&run_dir, &format!("{CORE}.RetryingClientTest"))
        .iter()
        .filter(|n| n.as_str() == "retriesUntilSuccess #1")
        .count();
    assert_eq!(firsts, 7);
    // A batch's JUnit 4 classes share those seven JVMs, one after the other.
    let logs: String = (1..=9)
        .filter_map(|n| std::fs::read_to_string(run_dir.join(format!("batch-{n}.log"))).ok())
        .collect();
    assert!(
        logs.contains(
            "each selected test runs 20 times over 7 fresh test JVMs per class, 7 JVMs in all, \
             each running its classes one after the other (junit4)"
        ),
        "{logs}"
    );
    for t in tests {
        let (first, repeat) = (
            &t["firstExecution"]["first"],
            &t["firstExecution"]["repeat"],
        );
        assert_eq!(
            (&first["runs"], &repeat["runs"]),
            (&7.into(), &13.into()),
            "{t:#}"
        );
    }
    // TestNG numbers a row's repetitions on: the report names each row as one run does.
    assert_eq!(
        rows(&report, &format!("{CLIENT}.RequestEncoderTest")).len(),
        4
    );
    let row2 = row(
        &report,
        &format!("{CLIENT}.RequestEncoderTest"),
        "encodes[2](flaky, x&y, x%26y)",
    );
    assert_eq!(row2["runs"], 20, "{row2:#}");
}

/// The sources of one framework's helper, as the init script compiles them.
fn helper(name: &str) -> Vec<String> {
    ["Iterations", "Slices", "Selection", name]
        .iter()
        .map(|s| format!("{s}.java"))
        .collect()
}

/// Compiles the helpers gradle-flaky ships against Debian's jars, as the init
/// script does, into `out`.
fn compile_helpers(out: &Path, classpath: &str, sources: &[String]) {
    let dir = repo_root().join("java/repeat/gradleflaky/repeat");
    let status = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(out)
        .args(["-cp", classpath])
        .args(sources.iter().map(|s| dir.join(s)))
        .status()
        .expect("javac");
    assert!(status.success());
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The TestNG transformer on its own, through TestNG's command line: a method
/// with its own `@Test`, one taking the class's, one with its own
/// `invocationCount` (multiplied) and a data provider's rows all run N times.
#[test]
fn the_testng_transformer_multiplies_invocation_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let cp = "/usr/share/java/testng.jar:/usr/share/java/jcommander.jar";
    write(
        &tmp.path().join("src/t/ATest.java"),
        "package t;\nimport org.testng.annotations.*;\n@Test\npublic class ATest {\n\
         public void inherited() {}\n@Test public void own() {}\n\
         @Test(invocationCount = 2) public void twice() {}\n\
         @DataProvider(name = \"d\") public Object[][] d() { return new Object[][] {{1}, {2}}; }\n\
         @Test(dataProvider = \"d\") public void rows(int x) {}\n}\n",
    );
    let out = tmp.path().join("classes");
    compile_helpers(&out, cp, &helper("TestNgRepeat"));
    let status = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(&out)
        .args(["-cp", cp])
        .arg(tmp.path().join("src/t/ATest.java"))
        .status()
        .unwrap();
    assert!(status.success());
    let result = Command::new("java")
        .arg("-Dflaky.repeat.iters=3")
        .arg("-cp")
        .arg(format!("{}:{cp}", out.display()))
        .args([
            "org.testng.TestNG",
            "-listener",
            "gradleflaky.repeat.TestNgRepeat",
        ])
        .args(["-testclass", "t.ATest", "-d"])
        .arg(tmp.path().join("reports"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        stdout.contains("Total tests run: 18, Failures: 0"),
        "{stdout}"
    );
    let xml =
        std::fs::read_to_string(tmp.path().join("reports/junitreports/TEST-t.ATest.xml")).unwrap();
    for (name, n) in [("inherited", 3), ("own", 3), ("twice", 6), ("rows", 6)] {
        assert_eq!(
            xml.matches(&format!("name=\"{name}\"")).count(),
            n,
            "{name}: {xml}"
        );
    }
}

/// The JUnit 4 runner on its own, through JUnitCore: the selected classes (a
/// nested one through `$*`, a JUnit 3 `TestCase`) filtered by Gradle-style
/// patterns, N times each; a property that is not a number is refused.
#[test]
fn the_junit4_runner_repeats_the_selection() {
    let tmp = tempfile::tempdir().unwrap();
    let cp = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";
    write(
        &tmp.path().join("src/t/ATest.java"),
        "package t;\nimport org.junit.Test;\npublic class ATest {\n\
         @Test public void picked() {}\n@Test public void other() {}\n\
         public static class Inner { @Test public void inner() {} }\n}\n",
    );
    write(
        &tmp.path().join("src/t/OldTest.java"),
        "package t;\npublic class OldTest extends junit.framework.TestCase {\n\
         public void testOld() {}\n}\n",
    );
    // JUnit's Enclosed runner reports its tests under the nested classes'
    // names; selected by its class, as Gradle's `--tests` does, they run,
    // once per iteration (the runner runs them, not the runner and the scan).
    write(
        &tmp.path().join("src/t/EncTest.java"),
        "package t;\n@org.junit.runner.RunWith(org.junit.experimental.runners.Enclosed.class)\n\
         public class EncTest {\n\
         public static class Part { @org.junit.Test public void part() {} }\n}\n",
    );
    let out = tmp.path().join("classes");
    compile_helpers(&out, cp, &helper("JUnit4Repeat"));
    let status = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(&out)
        .args(["-cp", cp])
        .arg(tmp.path().join("src/t/ATest.java"))
        .arg(tmp.path().join("src/t/OldTest.java"))
        .arg(tmp.path().join("src/t/EncTest.java"))
        .status()
        .unwrap();
    assert!(status.success());
    let junit = |iters: &str| {
        Command::new("java")
            .arg(format!("-Dflaky.repeat.iters={iters}"))
            .arg("-Dflaky.repeat.classes=t.ATest$*,t.OldTest,t.EncTest$*")
            .arg("-Dflaky.repeat.filters=t.ATest.picked,t.ATest$*,t.OldTest,t.EncTest,t.EncTest$*")
            .arg("-cp")
            .arg(format!("{}:{cp}", out.display()))
            .args([
                "org.junit.runner.JUnitCore",
                "gradleflaky.repeat.JUnit4Repeat",
            ])
            .output()
            .unwrap()
    };
    let stdout = String::from_utf8(junit("4").stdout).unwrap();
    // picked, Inner.inner, OldTest.testOld, EncTest$Part.part: 4 tests × 4;
    // `other` is filtered out.
    assert!(stdout.contains("OK (16 tests)"), "{stdout}");
    let refused = junit("many");
    let stdout = String::from_utf8_lossy(&refused.stdout);
    assert!(
        stdout.contains("flaky.repeat.iters must be a whole number"),
        "{stdout}"
    );
}

/// The JUnit 4 runner's slices, as the init script generates and Gradle runs
/// them (one JVM each): 5 iterations of two class entries over 2 JVMs each,
/// the slices capped at 3, so the entries share one JVM; each entry still
/// runs 5 times over 2 JVMs, 3 in the first and 2 in the second.
#[test]
fn the_junit4_runners_slices_share_out_each_class_over_its_jvms() {
    let tmp = tempfile::tempdir().unwrap();
    let cp = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";
    write(
        &tmp.path().join("src/t/ATest.java"),
        "package t;\nimport org.junit.Test;\npublic class ATest {\n\
         @Test public void one() { System.out.println(\"ran A\"); }\n@Test public void two() {}\n}\n",
    );
    write(
        &tmp.path().join("src/t/BTest.java"),
        "package t;\nimport org.junit.Test;\npublic class BTest {\n\
         @Test public void b() { System.out.println(\"ran B\"); }\n}\n",
    );
    let mut sources = vec![
        tmp.path().join("src/t/ATest.java"),
        tmp.path().join("src/t/BTest.java"),
    ];
    for k in 0..3 {
        let slice = tmp
            .path()
            .join(format!("src/gradleflaky/repeat/Slice{k}.java"));
        write(
            &slice,
            &format!(
                "package gradleflaky.repeat;\n@org.junit.runner.RunWith(JUnit4Repeat.Repeater.class)\n\
                 public final class Slice{k} {{}}\n"
            ),
        );
        sources.push(slice);
    }
    let out = tmp.path().join("classes");
    compile_helpers(&out, cp, &helper("JUnit4Repeat"));
    let status = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(&out)
        .args(["-cp", &format!("{}:{cp}", out.display())])
        .args(&sources)
        .status()
        .unwrap();
    assert!(status.success());
    let run_slice = |k: u32, iters: u32, slices: u32| {
        let run = Command::new("java")
            .arg(format!("-Dflaky.repeat.iters={iters}"))
            .arg("-Dflaky.repeat.jvms=2")
            .arg(format!("-Dflaky.repeat.slices={slices}"))
            .arg("-Dflaky.repeat.classes=t.ATest,t.BTest")
            .arg("-cp")
            .arg(format!("{}:{cp}", out.display()))
            .args([
                "org.junit.runner.JUnitCore",
                &format!("gradleflaky.repeat.Slice{k}"),
            ])
            .output()
            .unwrap();
        String::from_utf8(run.stdout).unwrap()
    };
    // Entry e's k-th JVM is slice (2e + k) mod 3: slice 0 runs ATest 3 times
    // (2 tests) and BTest twice, slice 1 ATest twice, slice 2 BTest 3 times.
    for (k, tests) in [(0, 8), (1, 4), (2, 3)] {
        let stdout = run_slice(k, 5, 3);
        assert!(
            stdout.contains(&format!("OK ({tests} tests)")),
            "slice {k}: {stdout}"
        );
    }
    // Packed (two JVMs for both classes, as gradle-flaky's JUnit 4 runner
    // runs them): a JVM runs its classes one after the other, each one's
    // executions back to back, and the second JVM starts with the other class.
    let order = |stdout: String| {
        stdout
            .lines()
            .filter_map(|l| l.trim_start_matches('.').strip_prefix("ran "))
            .collect::<Vec<_>>()
            .join("")
    };
    assert_eq!(order(run_slice(0, 4, 2)), "AABB");
    assert_eq!(order(run_slice(1, 4, 2)), "BBAA");
}

/// The JUnit Platform engine on its own, through Debian's console launcher
/// (Gradle 4.4.1 cannot run the platform): Jupiter tests (a parameterized
/// one, a nested class) and a Vintage (JUnit 4) test each execute N times in
/// one JVM, every execution reported under its class and name.
#[test]
fn the_platform_engine_repeats_every_engines_selection() {
    let tmp = tempfile::tempdir().unwrap();
    let launcher = "/usr/share/java/junit-platform-console-standalone.jar";
    let junit4 = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";
    write(
        &tmp.path().join("src/t/JTest.java"),
        "package t;\nimport org.junit.jupiter.api.*;\n\
         import org.junit.jupiter.params.ParameterizedTest;\n\
         import org.junit.jupiter.params.provider.ValueSource;\n\
         class JTest {\n@Test void plain() {}\n\
         @ParameterizedTest @ValueSource(ints = {1, 2}) void rows(int x) {}\n\
         @Nested class Inner { @Test void inner() {} }\n}\n",
    );
    write(
        &tmp.path().join("src/t/VTest.java"),
        "package t;\npublic class VTest { @org.junit.Test public void vintage() {} }\n",
    );
    let out = tmp.path().join("classes");
    let cp = format!("{launcher}:{junit4}");
    compile_helpers(&out, &cp, &helper("PlatformRepeat"));
    let status = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(&out)
        .args(["-cp", &cp])
        .arg(tmp.path().join("src/t/JTest.java"))
        .arg(tmp.path().join("src/t/VTest.java"))
        .status()
        .unwrap();
    assert!(status.success());
    // The resource the init script writes beside the compiled helper.
    write(
        &out.join("META-INF/services/org.junit.platform.engine.TestEngine"),
        "gradleflaky.repeat.PlatformRepeat\n",
    );
    let reports = tmp.path().join("reports");
    let result = Command::new("java")
        .arg("-Dflaky.repeat.iters=4")
        .args(["-jar", launcher, "--disable-banner", "--details", "none"])
        .arg("-cp")
        .arg(format!("{}:{junit4}", out.display()))
        .args(["--select-class", "t.JTest", "--select-class", "t.VTest"])
        .arg("--reports-dir")
        .arg(&reports)
        .output()
        .unwrap();
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let mut xml = String::new();
    for f in walk(&reports) {
        xml += &std::fs::read_to_string(f).unwrap();
    }
    for (name, class) in [
        ("plain()", "t.JTest"),
        ("rows(int)[1]", "t.JTest"),
        ("rows(int)[2]", "t.JTest"),
        ("inner()", "t.JTest$Inner"),
        ("vintage", "t.VTest"),
    ] {
        let case = format!("<testcase name=\"{name}\" classname=\"{class}\"");
        assert_eq!(xml.matches(&case).count(), 4, "{case} in {xml}");
    }
}

/// The JUnit Platform engine's slices, through the console launcher as Gradle
/// runs them (one JVM each): 5 iterations of a Jupiter and a Vintage class
/// over 2 JVMs each, 3 slices; each slice runs its classes' shares through
/// every engine, keeps the selected methods only (the filters leave
/// `other()` out), and names each execution with its iteration in its JVM,
/// after the name Gradle writes.
#[test]
fn the_platform_engines_slices_number_each_execution() {
    let tmp = tempfile::tempdir().unwrap();
    let launcher = "/usr/share/java/junit-platform-console-standalone.jar";
    let junit4 = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";
    let mut sources = vec![
        tmp.path().join("src/t/JTest.java"),
        tmp.path().join("src/t/VTest.java"),
    ];
    write(
        &sources[0],
        "package t;\nimport org.junit.jupiter.api.*;\n\
         import org.junit.jupiter.params.ParameterizedTest;\n\
         import org.junit.jupiter.params.provider.ValueSource;\n\
         class JTest {\n@Test void plain() {}\n@Test void other() {}\n\
         @ParameterizedTest @ValueSource(ints = {1, 2}) void rows(int x) {}\n}\n",
    );
    write(
        &sources[1],
        "package t;\npublic class VTest { @org.junit.Test public void vintage() {} }\n",
    );
    for k in 0..3 {
        let slice = tmp
            .path()
            .join(format!("src/gradleflaky/repeat/PlatformSlice{k}.java"));
        write(
            &slice,
            &format!("package gradleflaky.repeat;\npublic final class PlatformSlice{k} {{}}\n"),
        );
        sources.push(slice);
    }
    let out = tmp.path().join("classes");
    let cp = format!("{launcher}:{junit4}");
    compile_helpers(&out, &cp, &helper("PlatformRepeat"));
    let status = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(&out)
        .args(["-cp", &format!("{}:{cp}", out.display())])
        .args(&sources)
        .status()
        .unwrap();
    assert!(status.success());
    write(
        &out.join("META-INF/services/org.junit.platform.engine.TestEngine"),
        "gradleflaky.repeat.PlatformRepeat\n",
    );
    let names = |k: u32| {
        let reports = tmp.path().join(format!("reports-{k}"));
        let result = Command::new("java")
            .args([
                "-Dflaky.repeat.iters=5",
                "-Dflaky.repeat.jvms=2",
                "-Dflaky.repeat.slices=3",
            ])
            .arg("-Dflaky.repeat.classes=t.JTest,t.VTest")
            .arg("-Dflaky.repeat.filters=t.JTest.plain,t.JTest.rows,t.VTest")
            .args(["-jar", launcher, "--disable-banner", "--details", "none"])
            .arg("-cp")
            .arg(format!("{}:{junit4}", out.display()))
            .args([
                "--select-class",
                &format!("gradleflaky.repeat.PlatformSlice{k}"),
            ])
            .arg("--reports-dir")
            .arg(&reports)
            .output()
            .unwrap();
        assert_eq!(
            result.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
        let mut names: Vec<String> = walk(&reports)
            .iter()
            .flat_map(|f| {
                let xml = std::fs::read_to_string(f).unwrap();
                xml.split("<testcase name=\"")
                    .skip(1)
                    .map(|c| c[..c.find('"').unwrap()].to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        names.sort();
        names
    };
    // Entry e's k-th JVM is slice (2e + k) mod 3: slice 0 runs JTest 3 times
    // and VTest twice, slice 1 JTest twice, slice 2 VTest 3 times.
    let jtest = |n: u32| -> Vec<String> {
        (1..=n)
            .flat_map(|i| {
                [
                    format!("plain() #{i}"),
                    format!("rows(int)[1] #{i}"),
                    format!("rows(int)[2] #{i}"),
                ]
            })
            .collect()
    };
    let vtest = |n: u32| -> Vec<String> { (1..=n).map(|i| format!("vintage #{i}")).collect() };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    assert_eq!(names(0), sorted([jtest(3), vtest(2)].concat()));
    assert_eq!(names(1), sorted(jtest(2)));
    assert_eq!(names(2), sorted(vtest(3)));
}

/// The drift fence on TestNG: a class that leaves state behind in its JVM
/// (a system property it never clears) and a neighbour that fails when it
/// finds that state, repeated together: each class gets a test JVM of its
/// own, so the neighbour stays clean and is judged on its own.
#[test]
fn testng_classes_repeated_together_get_a_jvm_each() {
    let build = plain_java_copy();
    let b = build.path();
    let dir = b.join("client/src/test/java/com/example/client");
    std::fs::write(
        dir.join("CachePrimingTest.java"),
        "package com.example.client;\n\
         import org.testng.annotations.Test;\n\
         public class CachePrimingTest {\n\
         \x20   @Test public void primes() { System.setProperty(\"example.primed\", \"yes\"); }\n\
         }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("DefaultsTest.java"),
        "package com.example.client;\n\
         import org.testng.Assert;\n\
         import org.testng.annotations.Test;\n\
         public class DefaultsTest {\n\
         \x20   @Test public void startsUnprimed() { Assert.assertNull(System.getProperty(\"example.primed\")); }\n\
         }\n",
    )
    .unwrap();
    let priming = format!("{CLIENT}.CachePrimingTest");
    let defaults = format!("{CLIENT}.DefaultsTest");
    let out = flaky(
        b,
        &[
            "local", "--iters", "5", "--format", "json", &priming, &defaults,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    let neighbour = row(&report, &defaults, "startsUnprimed");
    assert_eq!(
        (&neighbour["runs"], &neighbour["failures"]),
        (&Value::from(5), &Value::from(0)),
        "{neighbour:#}"
    );
    assert_eq!(
        neighbour["repeatedBy"],
        serde_json::json!(["testng-invocation-count"])
    );
    let log = first_batch_log(b);
    assert!(
        log.contains(":client:test: each selected test runs 5 times over 3 fresh test JVMs per class (testng)"),
        "{log}"
    );
}

/// The drift fence on Elasticsearch's own repetition (`-Dtests.iters`, the
/// es-mini fixture's randomized runner): two classes that each prime a
/// static helper and fail when they find it primed by the other, repeated
/// together in one batch. In one JVM the one that runs second (Gradle's
/// scan decides which) fails every execution; with test JVMs of its own per
/// class (its iterations over 3 fresh JVMs) both stay clean.
#[test]
fn tests_iters_classes_repeated_together_get_a_jvm_each() {
    let build = crate::common::fixture_copy();
    let b = build.path();
    let dir = b.join("server/src/test/java/org/elasticsearch/fence");
    std::fs::create_dir_all(&dir).unwrap();
    let class = |name: &str, body: &str| {
        let text = format!(
            "package org.elasticsearch.fence;\n\
             import org.elasticsearch.test.ESTestCase;\n\
             import org.junit.Test;\n\
             public class {name} extends ESTestCase {{\n{body}\n}}\n"
        );
        std::fs::write(dir.join(format!("{name}.java")), text).unwrap();
    };
    class("Primer", "    static String primedBy;");
    for name in ["CachePrimingTests", "IndexPrimingTests"] {
        class(
            name,
            &format!(
                "    @Test public void testPrimes() {{\n\
                 \x20       org.junit.Assert.assertTrue(Primer.primedBy == null || Primer.primedBy.equals(\"{name}\"));\n\
                 \x20       Primer.primedBy = \"{name}\";\n\
                 \x20   }}"
            ),
        );
    }
    let classes = [
        "org.elasticsearch.fence.CachePrimingTests",
        "org.elasticsearch.fence.IndexPrimingTests",
    ];
    let out = crate::common::run(
        crate::common::gradle_flaky()
            .arg("--project-dir")
            .arg(b)
            .args(["local", "--iters", "5", "--format", "json"])
            .args(classes)
            .args(["--", "--offline"]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    for class in classes {
        let t = row(&report, class, "testPrimes");
        assert_eq!(
            (&t["runs"], &t["failures"]),
            (&Value::from(5), &Value::from(0)),
            "{t:#}"
        );
        assert_eq!(t["repeatedBy"], serde_json::json!(["tests-iters"]));
    }
    let log = first_batch_log(b);
    assert!(
        log.contains(
            ":server:test: each selected test runs 5 times over 3 fresh test JVMs per class (randomized)"
        ),
        "{log}"
    );
}

/// The log of the first batch of the build's runs (empty when there is none).
fn first_batch_log(build: &Path) -> String {
    walk(&build.join(".gradle/gradle-flaky/runs"))
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n == "batch-1.log"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .unwrap_or_default()
}
