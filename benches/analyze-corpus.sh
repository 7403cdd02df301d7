#!/usr/bin/env bash
# Benchmark of `gradle-flaky analyze` on an Elasticsearch-scale corpus (issue 5):
# throughput in MB/s, wall time relative to `cat` of the same files, and peak RSS,
# at 1x (about 400 reports, 550 MB, 120,000 executions), at 2x the reports (twice
# the tests: memory grows only with the report it builds) and at 2x the output of
# the same tests (memory stays flat as the input doubles).
#
# Usage: benches/analyze-corpus.sh [SCALE[:OUTPUT_SCALE]...]   (default: 1 2 1:2)
# Needs: python3, GNU time at /usr/bin/time (Debian: apt-get install -y time).
# The corpus is generated in a temp dir and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

. benches/lib.sh
need_gnu_time benches/analyze-corpus.sh
scales=("$@")
[ ${#scales[@]} -gt 0 ] || scales=(1 2 1:2)

cargo build --release --quiet
bin=$PWD/target/release/gradle-flaky
work=$(mktemp -d "${TMPDIR:-/tmp}/gradle-flaky-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat_all() { find "$1" -name 'TEST-*.xml' -print0 | xargs -0 cat; }

printf '%-5s %7s %6s %10s %7s %6s %9s %6s %6s %7s %11s %8s\n' \
  scale reports MB executions failed cat_s analyze_s MB/s vs_cat cat_cpu analyze_cpu peak_MB
for scale in "${scales[@]}"; do
  dir=$work/corpus-$scale
  python3 benches/gen-corpus.py "$dir" --scale "${scale%%:*}" \
    --output-scale "$( [[ $scale == *:* ]] && echo "${scale#*:}" || echo 1)"
  reports=$(find "$dir" -name 'TEST-*.xml' | wc -l)
  bytes=$(find "$dir" -name 'TEST-*.xml' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
  mb=$(echo "$bytes / 1000000" | bc -l)
  cat_all "$dir" > /dev/null # warm the page cache
  summary=$("$bin" analyze --format json "$dir" | python3 -c \
    'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["executions"], s["failed"])' || true)
  read -r executions failed <<< "$summary"
  cat_s=$(best_of_3 cat_all "$dir")
  analyze_s=$(best_of_3 "$bin" analyze --format json "$dir")
  read -r cat_cpu _ <<< "$(cpu_and_rss sh -c "find '$dir' -name 'TEST-*.xml' -print0 | xargs -0 cat")"
  read -r analyze_cpu peak_mb <<< "$(cpu_and_rss "$bin" analyze --format json "$dir")"
  printf '%-5s %7d %6.0f %10d %7d %6.2f %9.2f %6.0f %6.2f %7.2f %11.2f %8.1f\n' \
    "$scale" "$reports" "$mb" "$executions" "$failed" "$cat_s" "$analyze_s" \
    "$(echo "$mb / $analyze_s" | bc -l)" "$(echo "$cat_s / $analyze_s" | bc -l)" \
    "$cat_cpu" "$analyze_cpu" "$peak_mb"
  rm -rf "$dir"
done
echo "s = best wall time of 3 runs; vs_cat = cat_s / analyze_s (target >= 0.5); cpu = user + sys seconds."
echo "Cores: $(nproc) (analyze reads files in parallel; cat is one process). Load: $(cut -d' ' -f1-3 /proc/loadavg)."
