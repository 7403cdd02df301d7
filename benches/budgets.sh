#!/usr/bin/env bash
# Benchmark of budgets, shards and stop on proof on the `slow` fixture (tests/fixtures/slow,
# Gradle 4.4.1, offline): one slow class at --iters 100, side by side in one run.
#
#   one job:  `local --iters 100 SlowStableTests` in one batch (durations unknown: one invocation).
#   sharded:  the same with the durations the first run recorded and a budget of about a quarter
#             of its time (plus a Gradle start): the plan splits it into shards, run here in turn. On a CI the shards
#             run side by side: the wall time a CI sees is the longest shard's.
#   flaky, full count:     `local --iters 100 --no-stop-on-flaky SlowFlakyTests` (fails 30%).
#   flaky, stop on proof:  `local --iters 100 --stop-on-flaky SlowFlakyTests`.
# Each prints executions run, job-minutes (the batches' wall time summed), the wall time here and
# the wall time on a CI (the longest job), from the report's `cost` and `batches`.
#
# Usage: benches/budgets.sh [GRADLE_FLAKY_BINARY]     (default: target/release/gradle-flaky)
# Environment: SLEEP_MS=N  the fixture's time per execution (default 2000: a few seconds per
#              iteration; a lower value gives a quicker, noisier run).
# Needs: gradle 4.4.1 on PATH (Debian's), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
bin=${1:-target/release/gradle-flaky}
if [ ! -x "$bin" ]; then
  echo "benches/budgets.sh: no gradle-flaky binary at $bin; build one with" \
    "'cargo build --release' or pass its path" >&2
  exit 2
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
sleep_ms=${SLEEP_MS:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$repo/tests/fixtures/slow" "$work/build"
export GRADLE_USER_HOME="$work/gradle-home"

run() { # NAME ARGS... : one `local` run, its JSON report kept as $work/NAME.json
  local name=$1; shift
  "$bin" --project-dir "$work/build" local --format json "$@" \
    -- --offline "-Dtests.fixture.sleep=$sleep_ms" > "$work/$name.json" 2> "$work/$name.log" || true
}

stable=org.example.slow.SlowStableTests
flaky=org.example.slow.SlowFlakyTests
# Warm up: compile the fixture and start the daemon, so that no scenario pays for it.
run warmup --iters 1 --no-stop-on-flaky "$stable"
rm -f "$work/build/.gradle/gradle-flaky/flakiness-durations.json"
run one-job --iters 100 --no-stop-on-flaky "$stable"
per_run=$(python3 -c "import json,sys; print(int(json.load(open(sys.argv[1]))['cost']['wallSec']))" "$work/one-job.json")
# A quarter of the run's time, plus the 15 s a chunk's Gradle start is assumed to take.
run sharded --iters 100 --budget "$((per_run / 4 + 15))s" --no-stop-on-flaky "$stable"
run flaky-full --iters 100 --no-stop-on-flaky "$flaky"
run flaky-stop --iters 100 --stop-on-flaky "$flaky"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
print(f"{'scenario':22} {'jobs':>4} {'executions':>10} {'saved':>5} {'job-min':>8} {'wall here':>9} {'wall on CI':>10}")
for name in ["one-job", "sharded", "flaky-full", "flaky-stop"]:
    r = json.load(open(f"{work}/{name}.json"))
    c = r["cost"]
    jobs = r.get("batches", [])
    longest = max((b["durationSec"] for b in jobs), default=0)
    print(f"{name:22} {len(jobs):>4} {c['executionsRun']:>5}/{c['executionsRequested']:<4} "
          f"{c['iterationsSaved']:>5} {c['jobMinutes']:>8.2f} {c['wallSec']:>8.0f}s {longest:>9}s")
PY
