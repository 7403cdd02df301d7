#!/usr/bin/env bash
# Benchmark of learning from ordinary builds (issue 41's targets, on a ledger of a million
# lines: `record` at most 1 s for a build of 10,000 tests, `suspects` at most 2 s). It generates
# a main branch's ledger of ordinary builds (benches/gen-builds.py: 10,000 tests a build, 100
# builds, 16 MiB files) and one build's reports (10,000 tests in 500 Gradle reports), warms the
# page cache, and prints the best wall time of three runs, CPU seconds and peak RSS of
#   record:   `record --ledger DIR` of the build (its reports read, the whole ledger searched
#             for the run id, 10,000 lines appended; a new run id each time)
#   suspects: `suspects --ledger DIR` (every line read, every test judged, clusters, markdown)
# beside `cat` of the ledger, `analyze` of the same reports and `history` of the same ledger.
#
# Usage: benches/learn.sh [RECORDS [TESTS]]   (default: 1000000 10000)
# Needs: python3, bc, GNU time at /usr/bin/time (Debian: apt-get install -y time).
set -euo pipefail
cd "$(dirname "$0")/.."

. benches/lib.sh
need_gnu_time benches/learn.sh
records=${1:-1000000}
tests=${2:-10000}

cargo build --release --quiet
bin=$PWD/target/release/gradle-flaky
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-learn.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 benches/gen-builds.py ledger "$work/ledger" "$records" "$tests"
python3 benches/gen-builds.py xml "$work/build" "$tests"
mkdir "$work/empty" # a build without a ledger of its own
commit=0123456789abcdef0123456789abcdef01234567

record() {
  "$bin" --project-dir "$work/build" record --ledger "$work/ledger" --commit "$commit" \
    --branch main --run-id "bench-$(date +%s%N)" 2> /dev/null
}
analyze() { "$bin" analyze "$work/build" 2> /dev/null; }
suspects() { "$bin" --project-dir "$work/empty" suspects --ledger "$work/ledger" "$@" 2> /dev/null; }
history() { "$bin" --project-dir "$work/empty" history --ledger "$work/ledger" 2> /dev/null; }
cat_all() { cat "$work"/ledger/*.jsonl; }

cat_all > /dev/null # warm the page cache
found=$({ suspects --format json || true; } | python3 -c '
import json, sys
s = json.load(sys.stdin)
kinds = [x["kind"] for x in s["suspects"]]
print(f"""{s["sources"]["records"]} records read: {kinds.count("flaky")} flaky, {kinds.count("broken")} broken, {kinds.count("intermittent")} intermittent, {len(s["clusters"])} cluster(s) of {[len(c["tests"]) for c in s["clusters"]]}""")')
echo "suspects found: $found"

files=$(ls "$work/ledger" | wc -l)
mb=$(du -cb "$work"/ledger/*.jsonl | tail -1 | awk '{ printf "%.0f", $1 / 1000000 }')
cat_s=$(printf '%.2f' "$(best_of_3 cat_all)")
record_s=$(printf '%.2f' "$(best_of_3 record)")
read -r record_cpu record_peak <<< "$(cpu_and_rss "$bin" --project-dir "$work/build" record \
  --ledger "$work/ledger" --commit "$commit" --branch main --run-id "bench-cpu")"
analyze_s=$(printf '%.2f' "$(best_of_3 analyze)")
suspects_s=$(printf '%.2f' "$(best_of_3 suspects)")
read -r suspects_cpu suspects_peak <<< "$(cpu_and_rss "$bin" --project-dir "$work/empty" suspects \
  --ledger "$work/ledger")"
history_s=$(printf '%.2f' "$(best_of_3 history)")
printf '%-9s %6s %5s %5s %6s %8s %9s %9s %10s %11s %12s %9s\n' records tests files MB cat_s \
  record_s record_cpu record_MB analyze_s suspects_s suspects_cpu suspects_MB
printf '%-9s %6s %5s %5s %6s %8s %9s %9s %10s %11s %12s %9s\n' "$records" "$tests" "$files" "$mb" \
  "$cat_s" "$record_s" "$record_cpu" "$record_peak" "$analyze_s" "$suspects_s" "$suspects_cpu" \
  "$suspects_peak"
echo "history of the same ledger: ${history_s}s"
echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
