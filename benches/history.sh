#!/usr/bin/env bash
# Benchmark of `gradle-flaky history` on a large run ledger (issue 33's target: 1,000,000
# records in at most 1 s, in bounded memory). For each size it generates a ledger
# (benches/gen-ledger.py: 2,000 tests, 50 a run, a new commit each run, two conditions,
# 16 MiB files as a build's own ledger rotates them), warms the page cache, and prints the
# best wall time of three runs, CPU seconds and peak RSS of
#   all:  `history --ledger DIR` (every test, every line parsed, the whole markdown printed)
#   one:  `history --ledger DIR CLASS#METHOD` (one test: the other tests' lines passed over)
# beside `cat` of the same files. Memory grows with the tests shown, not with the records:
# doubling the records leaves it flat.
#
# Usage: benches/history.sh [RECORDS...]   (default: 1000000 2000000)
# Needs: python3, bc, GNU time at /usr/bin/time (Debian: apt-get install -y time).
# The ledgers are generated in a temp dir and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

. benches/lib.sh
need_gnu_time benches/history.sh
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 2000000)

cargo build --release --quiet
bin=$PWD/target/release/gradle-flaky
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-history.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/build" # a build without a ledger of its own
one='org.elasticsearch.bench.pkg0.Bench100Tests#testCase0'

history() { "$bin" --project-dir "$work/build" history --ledger "$dir" "$@" 2> /dev/null; }
cat_all() { cat "$dir"/*.jsonl; }

printf '%-9s %5s %6s %5s %6s %7s %8s %6s %7s %8s\n' \
  records files MB cat_s all_s all_cpu all_peak one_s one_cpu one_peak
for records in "${sizes[@]}"; do
  dir=$work/ledger-$records
  python3 benches/gen-ledger.py "$dir" "$records" > /dev/null
  files=$(ls "$dir" | wc -l)
  mb=$(du -cb "$dir"/*.jsonl | tail -1 | awk '{ printf "%.0f", $1 / 1000000 }')
  cat_all > /dev/null # warm the page cache
  read_back=$(history --format json 2> /dev/null | python3 -c \
    'import json,sys; print(json.load(sys.stdin)["sources"]["records"])')
  if [ "$read_back" != "$records" ]; then
    echo "benches/history.sh: read $read_back records of $records" >&2
    exit 1
  fi
  cat_s=$(printf '%.2f' "$(best_of_3 cat_all)")
  all_s=$(printf '%.2f' "$(best_of_3 history)")
  read -r all_cpu all_peak <<< "$(cpu_and_rss "$bin" --project-dir "$work/build" history --ledger "$dir")"
  one_s=$(printf '%.2f' "$(best_of_3 history "$one")")
  read -r one_cpu one_peak <<< "$(cpu_and_rss "$bin" --project-dir "$work/build" history --ledger "$dir" "$one")"
  printf '%-9s %5s %6s %5s %6s %7s %8s %6s %7s %8s\n' \
    "$records" "$files" "$mb" "$cat_s" "$all_s" "$all_cpu" "$all_peak" "$one_s" "$one_cpu" "$one_peak"
done
echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
