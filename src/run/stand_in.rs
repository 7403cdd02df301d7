//! A stand-in for Gradle, for the unit tests of the engine and of the local
//! run: a shell script that writes one report per `--tests` class (or class
//! gradle-flaky's helpers are given, `-Dflaky.repeat.classes.<task>`) with as
//! many executions of its test `m` as `-Dtests.iters` asks (named with a
//! seed each, as the randomized runner names its iterations), unless a marker
//! file in the build says the class ignores it (`ignores-<class>`), a suite
//! timeout cut it (`timeout-<class>`), it fails every second execution
//! (`fails-<class>`), or its state grows in the JVM (`grows-<class>`: its
//! i-th execution of an invocation sleeps (i − 1) × 0.5 s, or × the
//! milliseconds the marker holds, and says so in its time). It stands in for what real Gradle does on demand only
//! slowly; tests/integration runs the same rules on real Gradle.

use std::path::{Path, PathBuf};

const SCRIPT: &str = r#"iters=1; classes=""
while [ $# -gt 0 ]; do
  case "$1" in
    -Dtests.iters=*) iters="${1#-Dtests.iters=}";;
    --tests) shift; classes="$classes $1";;
    -Dflaky.repeat.classes.*=*) classes="$classes $(echo "${1#*=}" | tr ',' ' ')";;
  esac
  shift
done
mkdir -p p/build/test-results/test
for c in $classes; do
  n=$iters
  [ -f "ignores-$c" ] && n=1
  {
    echo "<testsuite name=\"$c\">"
    i=1
    while [ $i -le $n ]; do
      name="m"
      [ $n -gt 1 ] && name="m {seed=[0:$i]}"
      ms=0
      if [ -f "grows-$c" ]; then step=$(cat "grows-$c"); ms=$(( (i - 1) * ${step:-500} )); fi
      secs="$((ms / 1000)).$(printf %03d $((ms % 1000)))"
      [ $ms -gt 0 ] && sleep "$secs"
      if [ -f "timeout-$c" ]; then
        echo "<testcase classname=\"$c\" name=\"$name\"><failure type=\"java.lang.Exception\" message=\"Test abandoned because suite timeout was reached.\"/></testcase>"
        break
      elif [ -f "fails-$c" ] && [ $((i % 2)) -eq 0 ]; then
        echo "<testcase classname=\"$c\" name=\"$name\"><failure type=\"java.lang.AssertionError\" message=\"no\"/></testcase>"
      else
        echo "<testcase classname=\"$c\" name=\"$name\" time=\"$secs\"/>"
      fi
      i=$((i + 1))
    done
    echo "</testsuite>"
  } > "p/build/test-results/test/TEST-$c.xml"
done
"#;

/// Writes the script into `dir`; its path.
pub fn write(dir: &Path) -> PathBuf {
    let script = dir.join("gradle.sh");
    std::fs::write(&script, SCRIPT).expect("the stand-in is written");
    script
}

/// The Gradle program that runs it.
pub fn program(script: &Path) -> Vec<String> {
    vec!["sh".into(), script.display().to_string()]
}
