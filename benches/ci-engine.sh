#!/usr/bin/env bash
# Benchmark of CI batch jobs running the repetition engine, and of `local` against the same command
# typed by hand, on the fixture builds (Gradle 4.4.1, offline). Every scenario runs its ways in
# turn, PAIRS rounds of them alternating (so each way meets the same load), and prints each way's
# median wall time and its ratio to the scenario's first way.
#
# Scenarios:
#   fence:   es-mini, two unit classes at --iters 30 (one :server:test invocation, the drift fence's
#            two test JVMs): `hand` (the command `plan --format shell` prints, on a warm daemon),
#            `local` (this binary), `local-base` (BASE_BIN's, when given). Target: local <= 1.10x hand.
#   job:     es-mini, StringsTests at --iters 100, a CI batch job (`buildkite wrap --from-env`, the
#            batch `buildkite upload --dry-run` plans), Gradle isolated as on an agent: `single`
#            (the batch's command line once, --no-daemon: what a job ran before the engine),
#            `whole` (the engine, the batch run whole: no stop on proof), `chunked` (the engine,
#            --stop-on-flaky: chunks of 10, 20, 40 and 30 iterations, none proven), `base`
#            (BASE_BIN's wrap of its own batch, when given). Also the time of one cold Gradle start
#            (`gradle --no-daemon -q help`), to read `chunked`'s extra cost per chunk against.
#   flaky:   the issue's case: tests/fixtures/slow, a branch changing SlowFlakyTests (0.5 s an
#            execution, fails 30%), --unit-iters 60: `local` (`local --changed --base main`),
#            `ci-job` (its batch from `pr --target buildkite --dry-run`, run as the agent runs it),
#            `ci-base` (BASE_BIN's, when given); each run's executions counted from its XML.
#
# Usage: benches/ci-engine.sh [GRADLE_FLAKY_BINARY]     (default: target/release/gradle-flaky)
# Environment: PAIRS (default 5; 3 for `flaky`), SCENARIOS (default "fence job flaky"), BASE_BIN
#   (an earlier build of gradle-flaky to set beside this one).
# Needs: gradle 4.4.1 on PATH (Debian's), python3, bc, git.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
. benches/lib.sh

bin=$(bench_binary benches/ci-engine.sh "${1:-}")
base=${BASE_BIN:-}
if [ -n "$base" ]; then base=$(bench_binary benches/ci-engine.sh "$base"); fi
for tool in gradle bc python3 git; do
  command -v "$tool" > /dev/null || { echo "benches/ci-engine.sh: needs $tool on PATH" >&2; exit 2; }
done
pairs=${PAIRS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-ci-bench.XXXXXX")
export GRADLE_USER_HOME=$work/gradle-home
cleanup() {
  (cd "$work" && gradle --stop > /dev/null 2>&1) || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Wall seconds of one run; its output goes to $work/last.log (a failing run is timed all the same).
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$work/last.log" 2>&1 || true
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The typed batch of the pipeline on stdin (its first step's FLAKINESS_BATCH_0), `$$` unescaped.
first_batch() {
  python3 -c 'import json, sys
p = json.load(sys.stdin)
print(p["steps"][0]["steps"][0]["env"]["FLAKINESS_BATCH_0"].replace("$$", "$"))'
}

# A CI batch job with `batch` (JSON) in the checkout $1, as the agent runs it: a fresh folder of
# reports and status each time. $2: the binary.
ci_job() {
  local checkout=$1 binary=$2 batch=$3
  rm -rf "$checkout/flakiness-iters" "$checkout/flakiness-status"
  (cd "$checkout" && env -u BUILDKITE BUILDKITE_JOB_ID=bench BUILDKITE_STEP_KEY=flakiness-detection:unit \
    FLAKINESS_BATCH_0="$batch" "$binary" buildkite wrap --from-env --timeout 30m)
}

# Test cases of class $2 in the XML below $1 (0 when there is none).
cases() {
  { find "$1" -name "TEST-$2.xml" -exec cat {} + 2> /dev/null || true; } | grep -o '<testcase' | wc -l
}

# Runs the ways of a scenario (`way_<name>` functions) in turn, PAIRS rounds, and prints each way's
# median, its ratio to the first way, and (when `count_<name>` exists) the median of its counts.
compare() {
  local scenario=$1 rounds=$2
  shift 2
  declare -A times counts
  local way r t
  for ((r = 1; r <= rounds; r++)); do
    for way in "$@"; do
      t=$(timed "way_$way")
      times[$way]+="$t "
      if declare -F "count_$way" > /dev/null; then counts[$way]+="$("count_$way") "; fi
      printf '%s round %d: %s %.2f s %s\n' "$scenario" "$r" "$way" "$t" \
        "$(declare -F "count_$way" > /dev/null && echo "($("count_$way") executions)")" >&2
    done
  done
  local first
  first=$(median ${times[$1]})
  for way in "$@"; do
    local m c=""
    m=$(median ${times[$way]})
    if [ -n "${counts[$way]:-}" ]; then c=$(median ${counts[$way]}); fi
    printf '%-7s %-11s %6d %8.2f %6.2f %10s\n' "$scenario" "$way" "$rounds" "$m" \
      "$(echo "$m / $first" | bc -l)" "$c"
  done
}

results=()
extra=(-- --offline -Dtests.fixture.probability=0)

scenario_fence() {
  local project=$work/fence
  cp -r "$repo/tests/fixtures/es-mini" "$project"
  cd "$project"
  local tests=(--iters 30 org.elasticsearch.common.StringsTests org.elasticsearch.flaky.ExceptionFlakyTests)
  hand_line=$("$bin" plan --format shell "${tests[@]}" "${extra[@]}")
  echo "fence: by hand: $hand_line" >&2
  way_hand() { bash -c "$hand_line"; }
  way_local() { "$bin" local "${tests[@]}" "${extra[@]}"; }
  way_local-base() { "$base" local "${tests[@]}" "${extra[@]}"; }
  way_hand > /dev/null 2>&1 || true
  way_local > /dev/null 2>&1 || true
  local ways=(hand local)
  if [ -n "$base" ]; then ways+=(local-base); fi
  compare fence "$pairs" "${ways[@]}"
  cd "$repo"
}

scenario_job() {
  local project=$work/job
  cp -r "$repo/tests/fixtures/es-mini" "$project"
  cd "$project"
  gradle -q --offline testClasses > /dev/null 2>&1 || true
  local test=org.elasticsearch.common.StringsTests
  local gradle_cmd="gradle --offline -Dtests.fixture.probability=0"
  upload() { FLAKINESS_GRADLE=$gradle_cmd "$1" buildkite upload --dry-run --iters 100 "${@:2}" "$test" 2> /dev/null; }
  whole_batch=$(upload "$bin" | first_batch)
  chunked_batch=$(upload "$bin" --stop-on-flaky | first_batch)
  single_line=$("$bin" plan --format shell --iters 100 "$test" -- --offline -Dtests.fixture.probability=0)
  if [ -n "$base" ]; then base_batch=$(upload "$base" | first_batch); fi
  echo "job: single: $single_line --no-daemon" >&2
  way_single() { bash -c "$single_line --no-daemon"; }
  way_whole() { ci_job "$project" "$bin" "$whole_batch"; }
  way_chunked() { ci_job "$project" "$bin" "$chunked_batch"; }
  way_base() { ci_job "$project" "$base" "$base_batch"; }
  way_start() { gradle --offline --no-daemon -q help; }
  count_whole() { cases "$project/flakiness-iters" $test; }
  count_chunked() { cases "$project/flakiness-iters" $test; }
  local ways=(single whole chunked)
  if [ -n "$base" ]; then ways+=(base); fi
  ways+=(start)
  compare job "$pairs" "${ways[@]}"
  cd "$repo"
}

scenario_flaky() {
  local project=$work/flaky
  cp -r "$repo/tests/fixtures/slow" "$project"
  cd "$project"
  rm -rf .gradle build
  git init -q -b main && git add -A && git -c user.name=b -c user.email=b@b commit -qm main
  git checkout -qb pr
  echo '// changed' >> src/test/java/org/example/slow/SlowFlakyTests.java
  git -c user.name=b -c user.email=b@b commit -qam pr
  gradle -q --offline testClasses > /dev/null 2>&1 || true
  local class=org.example.slow.SlowFlakyTests
  local props="-Dtests.fixture.sleep=500"
  plan_pr() {
    FLAKINESS_GRADLE="gradle --offline $props" "$1" pr --target buildkite --dry-run \
      --base main --unit-iters 60 2> /dev/null
  }
  flaky_batch=$(plan_pr "$bin" | first_batch)
  if [ -n "$base" ]; then flaky_base_batch=$(plan_pr "$base" | first_batch); fi
  way_local() {
    rm -rf .gradle/gradle-flaky/runs
    "$bin" local --changed --base main --unit-iters 60 -- --offline $props
  }
  count_local() { cases .gradle/gradle-flaky/runs $class; }
  way_ci-job() { ci_job "$project" "$bin" "$flaky_batch"; }
  count_ci-job() { cases "$project/flakiness-iters" $class; }
  way_ci-base() {
    rm -rf "$project/build/test-results"
    ci_job "$project" "$base" "$flaky_base_batch"
  }
  # An earlier version's job ran one command line: its reports stay where Gradle wrote them.
  count_ci-base() { cases "$project/build/test-results" $class; }
  local ways=(local ci-job)
  if [ -n "$base" ]; then ways+=(ci-base); fi
  compare flaky "${PAIRS:-3}" "${ways[@]}"
  cd "$repo"
}

echo "gradle-flaky: $bin${base:+; base: $base}; GRADLE_USER_HOME=$GRADLE_USER_HOME" >&2
for scenario in ${SCENARIOS:-fence job flaky}; do
  while IFS= read -r line; do results+=("$line"); done < <("scenario_$scenario")
done
printf '%-7s %-11s %6s %8s %6s %10s\n' scenario way rounds median_s ratio executions
printf '%s\n' "${results[@]}"
echo "median_s: median wall time; ratio: to the scenario's first way; executions: median, from the XML."
echo "Cores: $(nproc). Load: $(cut -d' ' -f1-3 /proc/loadavg)."
