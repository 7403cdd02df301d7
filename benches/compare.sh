#!/usr/bin/env bash
# Benchmark of `local --compare REF` (issue 33's target: at most 2.0x a single run of the same
# plan, less when it stops early), on two fixture builds made git repositories: `main` holds a
# test that fails 30% of its executions, the checked-out branch `fix` removes the cause.
#
#   fast:  es-mini's AssertionFlakyTests, --iters 100 (three methods of milliseconds: Gradle's
#          start and the build's configuration are most of a run)
#   slow:  the slow fixture's SlowFlakyTests, --iters 40 at 250 ms an execution (10 s of tests
#          a side: the tests are most of a run)
#
# For each it prints the best wall time of REPEAT runs (default 2) of
#   single:    `local` of the plan here (the branch)
#   two:       `local` on main (checked out in the same tree), then on the branch: what a user
#              does by hand, compiling only what changed
#   cold:      `local --compare main`, REF's worktree made and compiled from scratch
#   warm:      the same with the build's kept worktree of REF (compiled before)
#   one-look:  warm, --looks 1 (no stop before the end)
#   ledger:    with REF's runs in the ledger already (REF does not run again)
# and each one's ratio to `single`. The ledger is emptied before every run but the last kind.
#
# Usage: benches/compare.sh [REPEAT]
# Needs: Debian's gradle, git, the fixtures' jars (scripts/test.sh installs them), bc.
set -euo pipefail
cd "$(dirname "$0")/.."

. benches/lib.sh
repeat=${1:-2}
cargo build --release --quiet
bin=$PWD/target/release/gradle-flaky
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-compare.XXXXXX")
# A Gradle home of its own: daemons other builds keep busy would make Gradle start new
# ones mid-measure. Its daemons are stopped at the end.
export GRADLE_USER_HOME=$work/gradle-home
trap 'gradle --stop -q > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

# A copy of fixture $1 as a repository: main as it is, the branch fix with $2 replaced by $3 in $4.
setup() {
  local dir=$work/$1
  cp -r "tests/fixtures/$1" "$dir"
  printf 'build/\n.gradle/\n*.hprof\n' > "$dir/.gitignore"
  git -C "$dir" init -q -b main
  git -C "$dir" add -A
  git -C "$dir" commit -qm main
  git -C "$dir" checkout -qb fix
  sed -i "s/$2/$3/" "$dir/$4"
  git -C "$dir" commit -qam fix
  echo "$dir"
}

# Best wall time of `repeat` runs of "$@" (exit status ignored), after `before` each.
best() {
  local before=$1 best="" t0 t1 t
  shift
  for _ in $(seq "$repeat"); do
    eval "$before"
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || true
    t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

# bench NAME DIR CLASS GRADLE_ARGS... (the plan's own options are --iters, below)
bench() {
  local name=$1 dir=$2 class=$3 iters=$4
  shift 4
  local gradle=("$@")
  local head=("$bin" --project-dir "$dir" local --format json --iters "$iters")
  local tail=("$class" -- --offline "${gradle[@]}")
  local reset_ledger="rm -rf '$dir/.gradle/gradle-flaky/ledger'"
  local reset_worktree="$reset_ledger; rm -rf '$dir/.gradle/gradle-flaky/base'; git -C '$dir' worktree prune"
  # Warm: the daemon, the layout cache, the branch compiled.
  "${head[@]}" "${tail[@]}" > /dev/null 2>&1 || true
  two() {
    git -C "$dir" checkout -q main
    "${head[@]}" "${tail[@]}" || true
    git -C "$dir" checkout -q fix
    "${head[@]}" "${tail[@]}" || true
  }
  local single two_s cold warm one ledger
  single=$(best "$reset_ledger" "${head[@]}" "${tail[@]}")
  two_s=$(best "$reset_ledger" two)
  cold=$(best "$reset_worktree" "${head[@]}" --compare main "${tail[@]}")
  warm=$(best "$reset_ledger" "${head[@]}" --compare main "${tail[@]}")
  one=$(best "$reset_ledger" "${head[@]}" --compare main --looks 1 "${tail[@]}")
  ledger=$(best ":" "${head[@]}" --compare main "${tail[@]}")
  for kind in single two_s cold warm one ledger; do
    local t=${!kind}
    printf '%-5s %-9s %7.1f s %5.2fx\n' "$name" "${kind/two_s/two}" "$t" "$(echo "$t / $single" | bc -l)"
  done
}

fast=$(setup es-mini FLAKE_PROBABILITY\ =\ 0.30 FLAKE_PROBABILITY\ =\ 0.0 \
  server/src/test/java/org/elasticsearch/flaky/AssertionFlakyTests.java)
slow=$(setup slow FLAKE_PROBABILITY\ =\ 0.30 FLAKE_PROBABILITY\ =\ 0.0 \
  src/test/java/org/example/slow/SlowFlakyTests.java)
printf '%-5s %-9s %9s %6s\n' build run wall ratio
bench fast "$fast" org.elasticsearch.flaky.AssertionFlakyTests 100
bench slow "$slow" org.example.slow.SlowFlakyTests 40 -Dtests.fixture.sleep=250
echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
