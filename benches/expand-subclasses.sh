#!/usr/bin/env bash
# Benchmark of abstract-base expansion (issue 13): `gradle-flaky plan` of an abstract base in a
# test framework's main code, on a generated Gradle build of 30,000 test classes in 30 projects
# (benches/gen-subclasses.py), against the exact answer the generator knows.
#
# Prints: the cold `layout` (real Gradle configures the build once), then, with the layout cached,
# the wall time of `plan` of a concrete class (no expansion: finding the class only) and of the
# abstract base (every source file read and parsed, every superclass resolved, the subclasses
# classified), the difference (the expansion itself), its CPU time and peak RSS, and whether the
# subclasses found are exactly the generator's.
#
# Usage: benches/expand-subclasses.sh [PROJECTS [CLASSES_PER_PROJECT]]   (default: 30 1000)
# Needs: python3, Gradle (GRADLE, default `gradle`; run with --offline), GNU time at /usr/bin/time
# for CPU and RSS (optional). The build is generated in a temp dir and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

projects=${1:-30}
classes=${2:-1000}
gradle="${GRADLE:-gradle} --offline"

cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/gradle-flaky
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-expand.XXXXXX")
trap 'rm -rf "$work"' EXIT
build=$work/build

python3 benches/gen-subclasses.py "$build" --projects "$projects" --classes "$classes" \
  --expected "$work/expected.json"
files=$(find "$build" -name '*.java' | wc -l)
bytes=$(find "$build" -name '*.java' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
base=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base"])' "$work/expected.json")
concrete=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["subclasses"][0])' \
  "$work/expected.json")

now() { date +%s.%N; }
# Median wall time of three runs of a command (stdout discarded), in seconds.
median_of_3() {
  local times=() t0 t1
  for _ in 1 2 3; do
    t0=$(now)
    "$@" > /dev/null 2>&1 || true
    t1=$(now)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | sed -n 2p
}

cd "$build"
t0=$(now)
"$bin" --gradle "$gradle" layout > /dev/null 2> "$work/layout.log" || { cat "$work/layout.log" >&2; exit 1; }
layout_cold=$(echo "$(now) - $t0" | bc -l)
layout_cached=$(median_of_3 "$bin" --gradle "$gradle" layout)

# Exactness: every runnable subclass (no cap), compared with the generator's list.
"$bin" --gradle "$gradle" plan --format json --subclass-cap 1000000 "$base" > "$work/all.json" \
  2> /dev/null || true
exact=$(python3 - "$work/all.json" "$work/expected.json" <<'EOF'
import json, sys
plan = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))["subclasses"]
got = sorted(plan["expansions"][0]["chosen"]) if plan["expansions"] else []
tasks = {t["task"] for t in plan["tests"]}
ok = got == want and len(plan["tests"]) == len(want)
print(f"{'exact' if ok else 'WRONG'} {len(got)} {len(want)} {len(tasks)}")
EOF
)
read -r verdict found wanted task_count <<< "$exact"

plan_concrete=$(median_of_3 "$bin" --gradle "$gradle" plan --format json "$concrete")
plan_base=$(median_of_3 "$bin" --gradle "$gradle" plan --format json "$base")
expansion=$(echo "$plan_base - $plan_concrete" | bc -l)
cpu="-" rss="-"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -o "$work/time" -f '%U %S %M' "$bin" --gradle "$gradle" plan --format json "$base" \
    > /dev/null 2>&1 || true
  read -r cpu rss < <(awk '{ printf "%.2f %.0f\n", $1 + $2, $3 / 1024 }' "$work/time")
fi

printf 'build: %d projects, %d test classes, %d Java files, %.0f MB\n' \
  "$projects" "$((projects * classes))" "$files" "$(echo "$bytes / 1000000" | bc -l)"
printf 'layout: cold %.1f s (Gradle), cached %.3f s\n' "$layout_cold" "$layout_cached"
printf 'plan of a concrete class: %.3f s\n' "$plan_concrete"
printf 'plan of %s: %.3f s (expansion %.3f s; %s CPU s, peak %s MB)\n' \
  "$base" "$plan_base" "$expansion" "$cpu" "$rss"
printf 'subclasses: %s found, %s expected, on %s task(s): %s\n' \
  "$found" "$wanted" "$task_count" "$verdict"
echo "Times are medians of 3 runs, layout cached; cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)."
[ "$verdict" = exact ]
