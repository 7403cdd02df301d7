#!/usr/bin/env bash
# What sampling fresh JVMs costs: `local --iters N` of one class as `local` runs it (its iterations over
# several fresh test JVMs of one Gradle invocation) against the same iterations in one JVM, side by side
# in alternating pairs, for each in-JVM mechanism (Gradle 4.4.1, --offline, the fixtures' cold-start
# tests with their failure switched off, so that no triage runs):
#   tests-iters  tests/fixtures/es-mini: org.elasticsearch.flaky.ColdStartTests (randomizedtesting)
#   testng       tests/fixtures/conditions: demo.ng.ColdStartNgTest (TestNG)
#   junit4       tests/fixtures/conditions: demo.ColdStartTest (gradle-flaky's JUnit 4 runner)
# Ways:
#   hand         (tests-iters only) the Gradle command an Elasticsearch developer types:
#                gradle :server:cleanTest :server:test --tests CLASS -Dtests.iters=N
#   one-jvm      local with -Dflaky.repeat.jvms=1 passed to Gradle: every iteration in one JVM
#   fresh-jvms   local as it runs
# Each line: the median wall seconds of each way over PAIRS rounds, and fresh-jvms over each other way.
# `local`'s own figures include reading the layout (cached after the first run) and the analysis; the
# `gradle` column is its Gradle invocation alone, as its progress line timed it.
#
# Usage: benches/fresh-jvms-cost.sh [GRADLE_FLAKY_BINARY]   (default: target/release/gradle-flaky)
# Environment: PAIRS (default 5), ITERS (default 20), MECHANISMS (default: all three), WORK_MS
# (tests-iters only, default 0): the milliseconds of CPU each execution of the class's steady test
# spends, for a class that costs something (Elasticsearch's unit test classes take tenths of a second to
# seconds an iteration); the JVM starts weigh less the more the tests cost. Needs gradle, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
source benches/lib.sh
bin=$(bench_binary benches/fresh-jvms-cost.sh "${1:-}")
pairs=${PAIRS:-5}
iters=${ITERS:-20}
work_ms=${WORK_MS:-0}
mechanisms=${MECHANISMS:-tests-iters testng junit4}
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-fresh-jvms-cost.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# "DIR CLASS PROPERTY TASK" of a mechanism.
setup() {
  case $1 in
    junit4) [ -d "$work/conditions" ] || conditions_build "$repo" "$work/conditions"
      echo "$work/conditions demo.ColdStartTest fixture.cold.probability :test" ;;
    testng) [ -d "$work/conditions" ] || conditions_build "$repo" "$work/conditions"
      echo "$work/conditions demo.ng.ColdStartNgTest fixture.cold.probability :ngTest" ;;
    tests-iters) [ -d "$work/es-mini" ] || fixture_build "$repo" es-mini "$work/es-mini"
      echo "$work/es-mini org.elasticsearch.flaky.ColdStartTests tests.fixture.cold.probability :server:test" ;;
    *) echo "benches/fresh-jvms-cost.sh: unknown mechanism $1" >&2; exit 2 ;;
  esac
}

# Wall seconds of one way, then the seconds of its Gradle invocation ("-" for hand).
run_way() {
  local way=$1 build=$2 class=$3 property=$4 task=$5 t0 t1 busy=()
  [ "$work_ms" = 0 ] || busy=("-Dtests.fixture.cold.workMs=$work_ms")
  t0=$(date +%s.%N)
  case $way in
    hand)
      (cd "$build" && gradle --offline -q "-D$property=0" "-Dtests.iters=$iters" "${busy[@]}" \
        "${task%:*}:cleanTest" "$task" --tests "$class" > /dev/null 2>&1) ;;
    one-jvm | fresh-jvms)
      local extra=()
      [ "$way" = one-jvm ] && extra=(-Dflaky.repeat.jvms=1)
      "$bin" --project-dir "$build" local --iters "$iters" --format json "$class" \
        -- --offline "-D$property=0" "${extra[@]}" "${busy[@]}" > "$work/report.json" 2> "$work/stderr.log" ;;
  esac
  t1=$(date +%s.%N)
  local gradle_s=-
  if [ "$way" != hand ]; then
    gradle_s=$(sed -n 's/.* · \([0-9.]*\)s$/\1/p' "$work/stderr.log" | tail -1)
  fi
  echo "$(echo "$t1 - $t0" | bc -l) ${gradle_s:--}"
}

median() {
  python3 -c 'import sys, statistics; xs=[float(x) for x in sys.argv[1:] if x != "-"]; print(f"{statistics.median(xs):.2f}" if xs else "-")' "$@"
}

printf '%-12s %-11s %6s %8s %9s %12s\n' mechanism way pairs "wall s" "gradle s" "fresh/this"
for mechanism in $mechanisms; do
  read -r build class property task < <(setup "$mechanism")
  ways="one-jvm fresh-jvms"
  [ "$mechanism" = tests-iters ] && ways="hand one-jvm fresh-jvms"
  # Warm the daemon and the layout cache.
  for way in $ways; do run_way "$way" "$build" "$class" "$property" "$task" > /dev/null; done
  declare -A walls=() grads=()
  for _ in $(seq "$pairs"); do
    for way in $ways; do
      read -r w g < <(run_way "$way" "$build" "$class" "$property" "$task")
      walls[$way]+="$w " grads[$way]+="$g "
    done
  done
  fresh=$(median ${walls[fresh-jvms]})
  for way in $ways; do
    m=$(median ${walls[$way]})
    printf '%-12s %-11s %6s %8s %9s %12s\n' "$mechanism" "$way" "$pairs" "$m" "$(median ${grads[$way]})" \
      "$(echo "scale=2; $fresh / $m" | bc -l)"
  done
  unset walls grads
done
