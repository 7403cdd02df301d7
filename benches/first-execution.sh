#!/usr/bin/env bash
# The cold-start failure against `local --iters N`: how often a run finds a test that fails only on its
# first execution in a JVM, and whether the rate it gives for the CI condition (first executions) holds
# the true rate, for each in-JVM mechanism. The test fails with probability P (default 0.4) on its first
# execution in a JVM only:
#   junit4       tests/fixtures/conditions: demo.ColdStartTest.coldStart (gradle-flaky's JUnit 4 runner)
#   testng       tests/fixtures/conditions: demo.ng.ColdStartNgTest.coldStart (TestNG's invocationCount)
#   tests-iters  tests/fixtures/es-mini: org.elasticsearch.flaky.ColdStartTests.testColdStart
#                (randomizedtesting's -Dtests.iters, as Elasticsearch repeats a test)
# (Gradle 4.4.1, --offline, each on a compiled copy of its fixture.)
#
# Two ways side by side, RUNS times each:
#   fresh-jvms  as `local` runs it: the iterations over several fresh JVMs of one Gradle invocation
#   one-jvm     the same with `-Dflaky.repeat.jvms=1` passed to Gradle: every iteration in one JVM (what
#               in-JVM repetition did before)
# Each line: runs that found the test failing (a verdict other than clean), runs whose first-execution
# interval (95%) holds P, the median wall seconds, each run's failed first executions.
#
# Usage: benches/first-execution.sh [GRADLE_FLAKY_BINARY]   (default: target/release/gradle-flaky)
# Environment: RUNS (default 10), ITERS (default 20), P (default 0.4), MECHANISMS (default: all three),
# WAYS (default: fresh-jvms one-jvm). Needs gradle and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
source benches/lib.sh
bin=$(bench_binary benches/first-execution.sh "${1:-}")
runs=${RUNS:-10}
iters=${ITERS:-20}
p=${P:-0.4}
mechanisms=${MECHANISMS:-junit4 testng tests-iters}
ways=${WAYS:-fresh-jvms one-jvm}
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-first-execution.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The build, the test and the property of a mechanism: "DIR TEST PROPERTY".
setup() {
  case $1 in
    junit4 | testng)
      [ -d "$work/conditions" ] || conditions_build "$repo" "$work/conditions"
      local test=demo.ColdStartTest.coldStart
      [ "$1" = testng ] && test=demo.ng.ColdStartNgTest.coldStart
      echo "$work/conditions $test fixture.cold.probability" ;;
    tests-iters)
      [ -d "$work/es-mini" ] || fixture_build "$repo" es-mini "$work/es-mini"
      echo "$work/es-mini org.elasticsearch.flaky.ColdStartTests.testColdStart tests.fixture.cold.probability" ;;
    *) echo "benches/first-execution.sh: unknown mechanism $1" >&2; exit 2 ;;
  esac
}

# One run of a way; prints "FOUND HOLDS SECONDS FIRST_FAILURES/FIRST_RUNS".
measure() {
  local build=$1 test=$2 property=$3 extra=$4 start end
  start=$(date +%s.%N)
  "$bin" --project-dir "$build" local --iters "$iters" --format json "$test" \
    -- --offline "-D$property=$p" $extra > "$work/report.json" 2> "$work/stderr.log" || {
      local rc=$?
      [ "$rc" = 1 ] || { echo "local exited $rc" >&2; tail -20 "$work/stderr.log" >&2; exit 1; }
    }
  end=$(date +%s.%N)
  python3 - "$start" "$end" "$work/report.json" "$p" "${test##*.}" <<'PY'
import json, sys
start, end, path, p, method = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], float(sys.argv[4]), sys.argv[5]
t = next(t for t in json.load(open(path))["tests"] if t["method"] == method)
first = t.get("firstExecution", {}).get("first") or t["verdict"]
lo, hi = first["ci95"]
print(int(t["verdict"]["kind"] != "clean"), int(lo <= p <= hi), f"{end - start:.1f}",
      f"{first['failures']}/{first['runs']}")
PY
}

printf '%-12s %-11s %5s %6s %12s %10s  %s\n' mechanism way runs found "holds ${p}" "median s" "first executions failed"
for mechanism in $mechanisms; do
  read -r build test property < <(setup "$mechanism")
  for way in $ways; do
    extra=""
    [ "$way" = one-jvm ] && extra="-Dflaky.repeat.jvms=1"
    found=0 holds=0 secs=() firsts=()
    for _ in $(seq "$runs"); do
      read -r f h s first < <(measure "$build" "$test" "$property" "$extra")
      found=$((found + f)) holds=$((holds + h))
      secs+=("$s") firsts+=("$first")
    done
    median=$(python3 -c 'import sys, statistics; print(f"{statistics.median(float(x) for x in sys.argv[1:]):.1f}")' "${secs[@]}")
    printf '%-12s %-11s %5s %6s %12s %10s  %s\n' "$mechanism" "$way" "$runs" "$found" "$holds" "$median" "${firsts[*]}"
  done
done
