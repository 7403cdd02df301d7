#!/usr/bin/env bash
# What `auto` saves by switching to Gradle runs once iterations in one JVM cost more than fresh runs.
# On a copy of tests/fixtures/slow (Gradle 4.4.1, --offline): `SlowGrowingTests` scans a cache that
# only grows in its JVM (the i-th execution in a JVM sleeps (i - 1) x GROW_MS; the first, what a
# fresh run runs, takes no time), repeated by -Dtests.iters in one JVM.
#
# Ways, each `local --budget 30m --stop-on-flaky --iters N SlowGrowingTests` (chunks: a probe of
# two iterations, then 2N/10, 4N/10, ... in one JVM each), one after the other in one run:
#   auto         the default, from unknown durations: after a chunk whose iterations cost more than
#                fresh runs (on average, or its last ones each), the rest run as Gradle runs
#   auto-again   auto again, from what the auto run recorded (the class remembered dearer in one
#                JVM: it starts on Gradle runs); run it right after auto
#   in-jvm       --repetition in-jvm: every chunk stays in one JVM (what auto did before the switch)
#   gradle-runs  --repetition gradle-runs: a Gradle run per iteration
# Each line: wall seconds, Gradle invocations, executions, the report's repeatedBy and whether it
# carries inJvmCost.
#
# Usage: benches/auto-switch.sh [GRADLE_FLAKY_BINARY]   (default: target/release/gradle-flaky)
# Environment: ITERS (default 20), GROW_MS (default 2000), WAYS (default: all four). Needs gradle
# and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
source benches/lib.sh
bin=$(bench_binary benches/auto-switch.sh "${1:-}")
iters=${ITERS:-20}
grow=${GROW_MS:-2000}
ways=${WAYS:-auto auto-again in-jvm gradle-runs}
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-auto-switch.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
fixture_build "$repo" slow "$work/build"
growing=org.example.slow.SlowGrowingTests

printf '%-12s %6s %8s %12s %11s %-26s %s\n' way iters "wall s" invocations executions repeatedBy inJvmCost
for way in $ways; do
  args=(--budget 30m --stop-on-flaky --iters "$iters" --format json --repetition "${way%-again}")
  # Each way starts from unknown durations (a probe first), not from what the way before recorded;
  # auto-again from what auto recorded.
  [ "$way" = auto-again ] || rm -f "$work/build/.gradle/gradle-flaky/flakiness-durations.json"
  start=$(date +%s.%N)
  "$bin" --project-dir "$work/build" local "${args[@]}" "$growing" -- --offline \
    "-Dtests.fixture.grow=$grow" > "$work/report.json" 2> "$work/stderr.log" || {
      rc=$?
      echo "local exited $rc" >&2; tail -20 "$work/stderr.log" >&2; exit 1
    }
  end=$(date +%s.%N)
  python3 - "$start" "$end" "$work/report.json" "$work/stderr.log" "$way" "$iters" <<'PY'
import json, re, sys
start, end, path, log, way, iters = sys.argv[1:]
report = json.load(open(path))
test = report["tests"][0]
invocations = re.findall(r"(\d+) Gradle invocation\(s\)", open(log).read())
cost = "yes" if test.get("inJvmCost") else "-"
by = ",".join(test.get("repeatedBy", []))
print(f"{way:<12} {iters:>6} {float(end) - float(start):8.1f} {invocations[-1] if invocations else '?':>12} "
      f"{test['runs']:>11} {by:<26} {cost}")
PY
  grep -E "^ *chunk [0-9]+: |in-JVM iterations of" "$work/stderr.log" | sed "s/^ */    /" | tr "\n" ";" | sed "s/;$/\n/" || true
done
