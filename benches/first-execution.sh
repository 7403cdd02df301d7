#!/usr/bin/env bash
# The cold-start failure against `local --iters N`: how often a run finds a test that fails only on its
# first execution in a JVM, and whether the rate it gives for the CI condition (first executions) holds
# the true rate. On a copy of tests/fixtures/conditions (Gradle 4.4.1, --offline): `demo.ColdStartTest`
# whose `coldStart` fails with probability P (default 0.4) on its first execution in a JVM only.
#
# Two ways side by side, RUNS times each:
#   fresh-jvms  gradle-flaky's JUnit 4 runner as `local` runs it: the iterations over several fresh JVMs
#   one-jvm     the same with `-Dflaky.repeat.jvms=1` passed to Gradle: every iteration in one JVM (what
#               in-JVM repetition did before)
# Each line: runs that found the test failing (a verdict other than clean), runs whose first-execution
# interval (95%) holds P, the median wall seconds.
#
# Usage: benches/first-execution.sh [GRADLE_FLAKY_BINARY]   (default: target/release/gradle-flaky)
# Environment: RUNS (default 10), ITERS (default 20), P (default 0.4). Needs gradle and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
source benches/lib.sh
bin=$(bench_binary benches/first-execution.sh "${1:-}")
runs=${RUNS:-10}
iters=${ITERS:-20}
p=${P:-0.4}
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-first-execution.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
conditions_build "$repo" "$work/build"

# One run of a way; prints "FOUND HOLDS SECONDS FIRST_FAILURES/FIRST_RUNS".
measure() {
  local extra=$1 start end
  start=$(date +%s.%N)
  "$bin" --project-dir "$work/build" local --iters "$iters" --format json demo.ColdStartTest.coldStart \
    -- --offline "-Dfixture.cold.probability=$p" $extra > "$work/report.json" 2> "$work/stderr.log" || {
      local rc=$?
      [ "$rc" = 1 ] || { echo "local exited $rc" >&2; tail -20 "$work/stderr.log" >&2; exit 1; }
    }
  end=$(date +%s.%N)
  python3 - "$start" "$end" "$work/report.json" "$p" <<'PY'
import json, sys
start, end, path, p = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
t = next(t for t in json.load(open(path))["tests"] if t["method"] == "coldStart")
first = t.get("firstExecution", {}).get("first") or t["verdict"]
lo, hi = first["ci95"]
print(int(t["verdict"]["kind"] != "clean"), int(lo <= p <= hi), f"{end - start:.1f}",
      f"{first['failures']}/{first['runs']}")
PY
}

printf '%-11s %5s %6s %12s %10s  %s\n' way runs found "holds ${p}" "median s" "first executions failed"
for way in fresh-jvms one-jvm; do
  extra=""
  [ "$way" = one-jvm ] && extra="-Dflaky.repeat.jvms=1"
  found=0 holds=0 secs=() firsts=()
  for _ in $(seq "$runs"); do
    read -r f h s first < <(measure "$extra")
    found=$((found + f)) holds=$((holds + h))
    secs+=("$s") firsts+=("$first")
  done
  median=$(python3 -c 'import sys, statistics; print(f"{statistics.median(float(x) for x in sys.argv[1:]):.1f}")' "${secs[@]}")
  printf '%-11s %5s %6s %12s %10s  %s\n' "$way" "$runs" "$found" "$holds" "$median" "${firsts[*]}"
done
