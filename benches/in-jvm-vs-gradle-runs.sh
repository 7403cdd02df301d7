#!/usr/bin/env bash
# Benchmark of in-JVM repetition against Gradle runs: `gradle-flaky local --iters N` on the same tests
# with `--repetition in-jvm` (one Gradle invocation, the tests repeated in its test JVM) and with
# `--repetition gradle-runs` (N Gradle invocations, a fresh test JVM each), side by side.
#
# Scenarios (each on a private copy of its build, Gradle 4.4.1, --offline):
#   fixture-junit4   tests/fixtures/plain-java: com.example.core.RetryingClientTest (JUnit 4, 3 methods)
#   fixture-testng   tests/fixtures/plain-java: com.example.client.ConnectionPoolTest (TestNG, 2 methods)
#   lang-junit3      $REALBUILDS/commons-lang (Apache Commons Lang 2.6's own suite):
#                    org.apache.commons.lang.CharRangeTest (JUnit 3 under Gradle's JUnit 4 runner, 28 methods)
#   jcommander-testng $REALBUILDS/jcommander (JCommander 1.71's own suite): com.beust.jcommander.FinderTest
#                    (TestNG, 6 methods)
# The fixture's designed flakes are switched off (probability 0); the real builds run their master
# branch. Both modes use the same warm Gradle daemon (one warm-up invocation per build first). Each
# line: wall seconds of each mode (median of RUNS), the speed-up, and the executions each mode's
# report counted (they must be equal: every method N times).
#
# Usage: benches/in-jvm-vs-gradle-runs.sh [GRADLE_FLAKY_BINARY]   (default: target/release/gradle-flaky)
# Environment:
#   ITERS=N          iterations (default 20)
#   RUNS=N           runs of each mode per scenario (default 1)
#   SCENARIOS="..."  which scenarios (default: all; the real ones only when $REALBUILDS has them)
#   REALBUILDS=DIR   the real builds (default /work/realbuilds)
# Needs: gradle 4.4.1 on PATH (Debian's), python3 (reads the JSON reports).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

bin=${1:-target/release/gradle-flaky}
if [ ! -x "$bin" ]; then
  echo "benches/in-jvm-vs-gradle-runs.sh: no gradle-flaky binary at $bin; build one with" \
    "'cargo build --release' or pass its path" >&2
  exit 2
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
for tool in gradle python3; do
  command -v "$tool" > /dev/null || { echo "benches/in-jvm-vs-gradle-runs.sh: needs $tool on PATH" >&2; exit 2; }
done
iters=${ITERS:-20}
runs=${RUNS:-1}
real=${REALBUILDS:-/work/realbuilds}
scenarios=${SCENARIOS:-fixture-junit4 fixture-testng lang-junit3 jcommander-testng}

work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-in-jvm-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The build and the test of a scenario: "DIR TEST"; empty when its build is not there.
setup() {
  case $1 in
    fixture-*)
      if [ ! -d "$work/plain-java" ]; then
        cp -r "$repo/tests/fixtures/plain-java" "$work/plain-java"
        rm -rf "$work/plain-java/.gradle" "$work/plain-java"/*/build
        echo 0 > "$work/plain-java/fixture-flake-probability"
      fi
      case $1 in
        fixture-junit4) echo "$work/plain-java com.example.core.RetryingClientTest" ;;
        fixture-testng) echo "$work/plain-java com.example.client.ConnectionPoolTest" ;;
      esac ;;
    lang-junit3 | jcommander-testng)
      local name test
      if [ "$1" = lang-junit3 ]; then
        name=commons-lang test=org.apache.commons.lang.CharRangeTest
      else
        name=jcommander test=com.beust.jcommander.FinderTest
      fi
      [ -d "$real/$name" ] || return 0
      if [ ! -d "$work/$name" ]; then
        git clone -q --branch master "$real/$name" "$work/$name"
      fi
      echo "$work/$name $test" ;;
    *) echo "benches/in-jvm-vs-gradle-runs.sh: unknown scenario $1" >&2; exit 2 ;;
  esac
}

# Runs one mode; prints "SECONDS EXECUTIONS".
measure() {
  local dir=$1 test=$2 mode=$3 start end
  start=$(date +%s.%N)
  "$bin" --project-dir "$dir" local --iters "$iters" --repetition "$mode" --format json "$test" \
    -- --offline > "$work/report.json" 2> "$work/stderr.log" || {
      local rc=$?
      # 1: a test failed (a real failure is still a finished run); anything else is not a measurement.
      [ "$rc" = 1 ] || { echo "local exited $rc; see below" >&2; tail -20 "$work/stderr.log" >&2; exit 1; }
    }
  end=$(date +%s.%N)
  python3 - "$start" "$end" "$work/report.json" <<'PY'
import json, sys
start, end, path = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
print(f"{end - start:.1f} {json.load(open(path))['summary']['executions']}")
PY
}

median() {
  python3 -c 'import sys, statistics; print(f"{statistics.median(float(x) for x in sys.argv[1:]):.1f}")' "$@"
}

printf '%-18s %6s %10s %13s %8s %11s\n' scenario iters "in-jvm s" "gradle-runs s" speedup executions
for scenario in $scenarios; do
  read -r dir test < <(setup "$scenario") || true
  if [ -z "${dir:-}" ]; then
    echo "$scenario: skipped ($real has no such build)" >&2
    continue
  fi
  (cd "$dir" && gradle -q --offline help > /dev/null 2>&1) || true
  in_jvm=() gradle_runs=() in_n= runs_n=
  for _ in $(seq "$runs"); do
    read -r s in_n < <(measure "$dir" "$test" in-jvm)
    in_jvm+=("$s")
    read -r s runs_n < <(measure "$dir" "$test" gradle-runs)
    gradle_runs+=("$s")
  done
  a=$(median "${in_jvm[@]}")
  b=$(median "${gradle_runs[@]}")
  speedup=$(python3 -c "print(f'{$b / $a:.1f}x')")
  printf '%-18s %6s %10s %13s %8s %11s\n' "$scenario" "$iters" "$a" "$b" "$speedup" "$in_n/$runs_n"
  unset dir test
done
