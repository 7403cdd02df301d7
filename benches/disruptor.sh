#!/usr/bin/env bash
# LMAX Disruptor 3.4.4's own test suite (plain JUnit 4, 32 classes, several of which leave threads
# running), from Debian's source package, under `local`: what a class remembered as leaking state by
# itself costs on its next runs (a fresh test JVM per execution, in one Gradle invocation) against Gradle
# runs, and what the whole suite costs on a second run on the same commit against plain whole-suite
# Gradle runs.
#
# The build is made from the unpacked source package: its src/main and src/test and a build.gradle that
# mirrors the project's test configuration (Debian's junit4 and hamcrest jars, the Test tasks'
# maxParallelForks half the cores), Gradle 4.4.1, --offline, committed to a git repository of its own (a
# class is remembered for its commit). Fetch the source with
#     (a deb-src line for bookworm in /etc/apt/sources.list.d/), apt-get update,
#     apt-get source --download-only disruptor && tar xf disruptor_3.4.4.orig.tar.xz
# and pass the unpacked directory as DISRUPTOR.
#
# Scenarios (SCENARIOS, default both):
#   batching  com.lmax.disruptor.BatchingTest, ITERS (default 15) iterations: `local` twice (the first
#             samples a few fresh JVMs and may remember the class as leaking; the second then runs each
#             execution in a fresh JVM of its own), and `local --repetition gradle-runs`
#   suite     every test class of the suite, SUITE_ITERS (default 30) iterations: `local` twice, against
#             SUITE_ITERS times one plain `gradle cleanTest test` (its median of 3, times SUITE_ITERS)
# Each line: wall seconds, Gradle invocations, the classes remembered as leaking after the run, and the
# ratio asked of it.
#
# Usage: DISRUPTOR=/path/to/disruptor-3.4.4 benches/disruptor.sh [GRADLE_FLAKY_BINARY]
# Needs gradle, git, python3, bc.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
bin=$(bench_binary benches/disruptor.sh "${1:-}")
src=${DISRUPTOR:?set DISRUPTOR to the unpacked source package (see the header)}
iters=${ITERS:-15}
suite_iters=${SUITE_ITERS:-30}
scenarios=${SCENARIOS:-batching suite}
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-disruptor.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# A fresh copy of the build at $1, compiled and committed.
make_build() {
  mkdir -p "$1/src"
  cp -r "$src/src/main" "$src/src/test" "$1/src/"
  echo "rootProject.name = 'disruptor'" > "$1/settings.gradle"
  cat > "$1/build.gradle" <<'GRADLE'
// LMAX Disruptor's test suite as its own build runs it: plain JUnit 4, maxParallelForks half the cores.
apply plugin: 'java'
sourceCompatibility = '1.8'
targetCompatibility = '1.8'
tasks.withType(JavaCompile) {
  options.encoding = 'UTF-8'
  options.compilerArgs << '-XDignore.symbol.file' << '-Xlint:-options' << '-nowarn'
}
dependencies {
  testCompile files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar',
    '/usr/share/java/hamcrest-library.jar')
}
tasks.withType(Test) {
  maxParallelForks = Math.max(1, Runtime.runtime.availableProcessors().intdiv(2))
  reports.html.enabled = false
}
GRADLE
  (cd "$1" && git init -q && git add -A && git -c user.name=bench -c user.email=bench@localhost commit -qm build \
    && gradle -q --offline testClasses > /dev/null 2>&1)
}

# One `local` run: prints "WALL INVOCATIONS REMEMBERED".
local_run() {
  local build=$1 t0 t1; shift
  t0=$(date +%s.%N)
  "$bin" --project-dir "$build" local --format json "$@" -- --offline > "$work/report.json" 2> "$work/stderr.log" || true
  t1=$(date +%s.%N)
  local invocations remembered
  invocations=$(sed -n 's/.* batch(es), \([0-9]*\) Gradle invocation(s).*/\1/p' "$work/stderr.log" | tail -1)
  remembered=$(python3 - "$build/.gradle/gradle-flaky/flakiness-durations.json" <<'PY'
import json, sys
try:
    table = json.load(open(sys.argv[1]))
except OSError:
    table = {}
print(",".join(c.rsplit(".", 1)[-1] for c in sorted(table.get("stateAccumulates", {}))) or "-")
PY
)
  echo "$(echo "$t1 - $t0" | bc -l) ${invocations:-?} $remembered"
}

printf '%-9s %-22s %6s %8s %12s  %s\n' scenario way iters "wall s" invocations "remembered as leaking"
for scenario in $scenarios; do
  build="$work/$scenario"
  make_build "$build"
  case $scenario in
    batching)
      test=com.lmax.disruptor.BatchingTest
      read -r w1 i1 r1 < <(local_run "$build" --iters "$iters" "$test")
      read -r w2 i2 r2 < <(local_run "$build" --iters "$iters" "$test")
      read -r w3 i3 r3 < <(local_run "$build" --iters "$iters" --repetition gradle-runs "$test")
      printf '%-9s %-22s %6s %8.1f %12s  %s\n' batching first "$iters" "$w1" "$i1" "$r1"
      printf '%-9s %-22s %6s %8.1f %12s  %s\n' batching second "$iters" "$w2" "$i2" "$r2"
      printf '%-9s %-22s %6s %8.1f %12s  %s\n' batching gradle-runs "$iters" "$w3" "$i3" "$r3"
      echo "batching: second / gradle-runs = $(echo "scale=2; $w2 / $w3" | bc -l)" ;;
    suite)
      classes=$(cd "$build" && gradle -q --offline cleanTest test > /dev/null 2>&1 || true
        ls build/test-results/test | sed -n 's/^TEST-\(.*\)\.xml$/\1/p')
      plain=$(best_of_3 bash -c "cd '$build' && gradle -q --offline cleanTest test > /dev/null 2>&1")
      read -r w1 i1 r1 < <(local_run "$build" --iters "$suite_iters" $classes)
      read -r w2 i2 r2 < <(local_run "$build" --iters "$suite_iters" $classes)
      runs=$(echo "$plain * $suite_iters" | bc -l)
      printf '%-9s %-22s %6s %8.1f %12s  %s\n' suite first "$suite_iters" "$w1" "$i1" "$r1"
      printf '%-9s %-22s %6s %8.1f %12s  %s\n' suite second "$suite_iters" "$w2" "$i2" "$r2"
      printf '%-9s %-22s %6s %8.1f %12s  %s\n' suite "plain x$suite_iters" "$suite_iters" "$runs" "$suite_iters" \
        "(one plain run: $(printf %.1f "$plain") s, best of 3)"
      echo "suite: first / plain runs = $(echo "scale=2; $w1 / $runs" | bc -l)," \
        "second / plain runs = $(echo "scale=2; $w2 / $runs" | bc -l)" ;;
    *) echo "benches/disruptor.sh: unknown scenario $scenario" >&2; exit 2 ;;
  esac
done
