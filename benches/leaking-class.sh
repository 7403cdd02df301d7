#!/usr/bin/env bash
# A class that leaks a busy thread per execution, batched with a clean neighbour: what in-JVM repetition
# costs against fresh Gradle runs, and whether the leak slows the neighbour. On a copy of
# tests/fixtures/conditions (Gradle 4.4.1, --offline): `demo.LeakyTest` starts a thread that spins
# forever in each execution, `demo.NeighbourTest` does the same fixed work and leaks nothing.
#
# Ways, each `local --iters N` on both classes unless said:
#   fresh-jvms       in-JVM repetition as `local` runs it: each class over several fresh JVMs of its own
#   one-jvm          the same with `-Dflaky.repeat.jvms=1` passed to Gradle: every iteration of both
#                    classes in one JVM (what in-JVM repetition did before)
#   gradle-runs      --repetition gradle-runs: a fresh Gradle run per iteration
#   neighbour-alone  fresh-jvms on demo.NeighbourTest alone
# Each line: wall seconds, NeighbourTest's test seconds (the sum of its executions' times in the XML)
# and the classes the report warned state-accumulates (slower, threads left running, or late failures).
#
# Usage: benches/leaking-class.sh [GRADLE_FLAKY_BINARY]   (default: target/release/gradle-flaky)
# Environment: ITERS (default 30), WAYS (default: all four). Needs gradle and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
source benches/lib.sh
bin=$(bench_binary benches/leaking-class.sh "${1:-}")
iters=${ITERS:-30}
ways=${WAYS:-fresh-jvms one-jvm gradle-runs neighbour-alone}
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-leaking-class.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
conditions_build "$repo" "$work/build"

printf '%-16s %6s %8s %18s %18s\n' way iters "wall s" "NeighbourTest s" "state-accumulates"
for way in $ways; do
  args=(--iters "$iters" --format json) tests=(demo.LeakyTest demo.NeighbourTest) extra=()
  case $way in
    one-jvm) extra=(-Dflaky.repeat.jvms=1) ;;
    gradle-runs) args+=(--repetition gradle-runs) ;;
    neighbour-alone) tests=(demo.NeighbourTest) ;;
  esac
  start=$(date +%s.%N)
  "$bin" --project-dir "$work/build" local "${args[@]}" "${tests[@]}" -- --offline "${extra[@]}" \
    > "$work/report.json" 2> "$work/stderr.log" || {
      rc=$?
      [ "$rc" = 1 ] || { echo "local exited $rc" >&2; tail -20 "$work/stderr.log" >&2; exit 1; }
    }
  end=$(date +%s.%N)
  run_dir=$(sed -n 's/.*reports and logs: //p' "$work/stderr.log" | tail -1)
  python3 - "$start" "$end" "$work/report.json" "$run_dir" "$way" "$iters" <<'PY'
import json, os, re, sys
start, end, path, run_dir, way, iters = sys.argv[1:]
report = json.load(open(path))
neighbour = 0.0
for root, _, files in os.walk(run_dir):
    for f in files:
        if f == "TEST-demo.NeighbourTest.xml":
            text = open(os.path.join(root, f)).read()
            neighbour += sum(float(t) for t in re.findall(r'<testcase name="[^"]*" classname="[^"]*" time="([\d.]+)"', text))
warned = sorted({w["class"] for w in report.get("warnings", []) if w["code"] == "state-accumulates"})
print(f"{way:<16} {iters:>6} {float(end) - float(start):8.1f} {neighbour:18.1f} {','.join(warned) or '-':>18}")
PY
done
