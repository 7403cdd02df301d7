#!/usr/bin/env bash
# Benchmark of `gradle-flaky local` against running the same Gradle commands by hand, on the
# es-mini fixture (tests/fixtures/es-mini, Gradle 4.4.1, offline). What a user compares: by hand,
# Gradle uses their warm daemon; `local` should cost no more than that plus a little analysis.
#
# Scenarios, each as PAIRS alternating pairs (ours, then by hand), median wall time of each:
#   unit: `local --iters 30` on two unit classes (one :server:test invocation with -Dtests.iters=30);
#         by hand: the command `plan --format shell` prints for the same arguments, run once.
#   rest: `local --iters 5` on a YAML runner (a REST loop: 5 invocations of :lang-painless:yamlRestTest);
#         by hand: the `gradle ...` part of the `gradle-flaky repeat --times 5 -- gradle ...` line that
#         `plan --format shell` prints, run 5 times in a shell loop.
#   unit-isolated, rest-isolated: the same with `local --isolate` (Gradle isolated from the user's
#         daemon: --no-daemon for one invocation, else a private daemon), against the same by hand.
# Every run gets -Dtests.fixture.probability=0 (no designed flake fails or sleeps) and --offline.
# Both sides use the same Gradle user home, so by hand and (by default) ours run on the same warm
# daemon; the script warns when a run of ours started a daemon of its own there.
#
# Usage: benches/local-vs-hand.sh [GRADLE_FLAKY_BINARY]     (default: target/release/gradle-flaky)
# Environment:
#   PAIRS=N                  pairs per scenario (default 5)
#   SCENARIOS="..."          which scenarios, in order (default "unit rest")
#   BENCH_GRADLE_USER_HOME   a Gradle user home to use (e.g. ~/.gradle, to measure against your own
#                            daemon). Default: a fresh one in the temp dir, whose daemons the script
#                            stops at the end; daemons of a home you pass are left running.
# Needs: gradle 4.4.1 on PATH (Debian's), bc. The binary is not built here:
#   cargo build --release
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

bin=${1:-target/release/gradle-flaky}
if [ ! -x "$bin" ]; then
  echo "benches/local-vs-hand.sh: no gradle-flaky binary at $bin; build one with" \
    "'cargo build --release' or pass its path" >&2
  exit 2
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
for tool in gradle bc; do
  command -v "$tool" > /dev/null || { echo "benches/local-vs-hand.sh: needs $tool on PATH" >&2; exit 2; }
done
pairs=${PAIRS:-5}

work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-local-bench.XXXXXX")
if [ -n "${BENCH_GRADLE_USER_HOME:-}" ]; then
  export GRADLE_USER_HOME=$BENCH_GRADLE_USER_HOME
  own_home=false
else
  export GRADLE_USER_HOME=$work/gradle-home
  own_home=true
fi
project=$work/es-mini
cleanup() {
  # Only the daemons of our own Gradle user home: other builds on this machine keep theirs.
  if $own_home; then
    (cd "$work" && gradle --stop > /dev/null 2>&1) || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cp -r "$repo/tests/fixtures/es-mini" "$project"
cd "$project"

extra=(-- --offline -Dtests.fixture.probability=0)
unit_tests=(--iters 30 org.elasticsearch.common.StringsTests org.elasticsearch.flaky.ExceptionFlakyTests)
rest_tests=(--iters 5 org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT)

# The one command `plan --format shell` prints for these arguments (also reads the layout once,
# so that no timed run pays for it).
plan_line() {
  local lines
  lines=$("$bin" plan --format shell "$@" "${extra[@]}")
  if [ "$(printf '%s\n' "$lines" | grep -c .)" != 1 ]; then
    echo "benches/local-vs-hand.sh: expected one batch from 'plan $*', got:" >&2
    printf '%s\n' "$lines" >&2
    exit 2
  fi
  printf '%s\n' "$lines"
}
unit_line=$(plan_line "${unit_tests[@]}")
rest_line=$(plan_line "${rest_tests[@]}")
# `gradle-flaky repeat --times N -- CMD`: by hand, CMD N times.
if [[ $rest_line =~ ^gradle-flaky\ repeat\ --times\ ([0-9]+)\ --\ (.*)$ ]]; then
  rest_times=${BASH_REMATCH[1]}
  rest_cmd=${BASH_REMATCH[2]}
else
  echo "benches/local-vs-hand.sh: unexpected REST plan line: $rest_line" >&2
  exit 2
fi

ours_unit() { "$bin" local "${unit_tests[@]}" "${extra[@]}"; }
hand_unit() { bash -c "$unit_line"; }
ours_rest() { "$bin" local "${rest_tests[@]}" "${extra[@]}"; }
hand_rest() {
  local i
  for ((i = 1; i <= rest_times; i++)); do bash -c "$rest_cmd"; done
}
ours_unit-isolated() { "$bin" local --isolate "${unit_tests[@]}" "${extra[@]}"; }
hand_unit-isolated() { hand_unit; }
ours_rest-isolated() { "$bin" local --isolate "${rest_tests[@]}" "${extra[@]}"; }
hand_rest-isolated() { hand_rest; }

# Daemons of this Gradle user home: Gradle daemon JVMs holding a file under it open.
daemons() {
  local p
  for p in $(pgrep -f org.gradle.launcher.daemon.bootstrap.GradleDaemon); do
    if ls -l "/proc/$p/fd" 2> /dev/null | grep -qF "$GRADLE_USER_HOME/"; then echo "$p"; fi
  done | sort | tr '\n' ' '
}

# Wall seconds of one run; its output goes to $work/last.log. A failing run is reported (the
# fixture with probability 0 should never fail) but still timed.
timed() {
  local t0 t1 rc=0
  t0=$(date +%s.%N)
  "$@" > "$work/last.log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  if [ "$rc" != 0 ]; then
    echo "warning: '$*' exited $rc; its output:" >&2
    tail -20 "$work/last.log" >&2
  fi
  echo "$t1 - $t0" | bc -l
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "gradle-flaky: $bin ($("$bin" --version 2>/dev/null || echo '?'))" >&2
echo "by hand (unit): $unit_line" >&2
echo "by hand (rest): $rest_times x $rest_cmd" >&2
echo "GRADLE_USER_HOME=$GRADLE_USER_HOME; warming the daemon..." >&2
hand_unit > /dev/null 2>&1 || true
hand_unit > /dev/null 2>&1 || true
bash -c "$rest_cmd" > /dev/null 2>&1 || true

warm=$(daemons)
echo "warm daemon(s): $warm" >&2
results=()
for scenario in ${SCENARIOS:-unit rest}; do
  if ! declare -F "ours_$scenario" > /dev/null; then
    echo "benches/local-vs-hand.sh: no scenario '$scenario' (unit, rest, unit-isolated, rest-isolated)" >&2
    exit 2
  fi
  ours=() hand=()
  for ((p = 1; p <= pairs; p++)); do
    ours+=("$(timed "ours_$scenario")")
    if [ "$(daemons)" != "$warm" ]; then
      echo "warning: after ours, the daemons of $GRADLE_USER_HOME are '$(daemons)', were '$warm'" >&2
      warm=$(daemons)
    fi
    hand+=("$(timed "hand_$scenario")")
    printf '%s pair %d: ours %.2f s, by hand %.2f s (%.2f)\n' "$scenario" "$p" "${ours[-1]}" \
      "${hand[-1]}" "$(echo "${ours[-1]} / ${hand[-1]}" | bc -l)" >&2
  done
  o=$(median "${ours[@]}")
  h=$(median "${hand[@]}")
  results+=("$(printf '%-8s %5d %8.2f %8.2f %6.2f' "$scenario" "$pairs" "$o" "$h" "$(echo "$o / $h" | bc -l)")")
done

printf '%-8s %5s %8s %8s %6s\n' scenario pairs ours_s hand_s ratio
printf '%s\n' "${results[@]}"
echo "s = median wall time; ratio = ours_s / hand_s (1.00: no overhead over a warm daemon by hand)."
echo "unit: local ${unit_tests[*]}; rest: local ${rest_tests[*]} (each with ${extra[*]:1});"
echo "*-isolated: the same with local --isolate."
echo "Cores: $(nproc). Load: $(cut -d' ' -f1-3 /proc/loadavg)."
