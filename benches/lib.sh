# Shared by the benchmark scripts (sourced): GNU time's check, the best of three
# wall times, and the CPU time and peak RSS of one run.

# Exits 2 naming the script when GNU time is missing.
need_gnu_time() {
  if [ ! -x /usr/bin/time ]; then
    echo "$1: needs GNU time at /usr/bin/time (apt-get install -y time)" >&2
    exit 2
  fi
}

# Best wall time of three runs of a command (stdout discarded), in seconds.
best_of_3() {
  local best="" t0 t1 t
  for _ in 1 2 3; do
    t0=$(date +%s.%N)
    "$@" > /dev/null || true
    t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

# CPU seconds (user + sys) of one run, then peak RSS in MB.
cpu_and_rss() {
  { /usr/bin/time -f '%U %S %M' "$@" > /dev/null || true; } 2>&1 | tail -1 |
    awk '{ printf "%.2f %.1f\n", $1 + $2, $3 / 1024 }'
}

# The absolute path of the gradle-flaky binary a script was given ($2, default
# target/release/gradle-flaky); exits 2 naming the script ($1) when there is none.
bench_binary() {
  local bin=${2:-target/release/gradle-flaky}
  if [ ! -x "$bin" ]; then
    echo "$1: no gradle-flaky binary at $bin; build one with 'cargo build --release' or pass its path" >&2
    exit 2
  fi
  echo "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
}

# A compiled copy of tests/fixtures/conditions at $2 (the repository at $1).
conditions_build() {
  fixture_build "$1" conditions "$2"
}

# A compiled copy of tests/fixtures/$2 at $3 (the repository at $1).
fixture_build() {
  cp -r "$1/tests/fixtures/$2" "$3"
  rm -rf "$3/.gradle" "$3/build"
  (cd "$3" && gradle -q --offline testClasses > /dev/null 2>&1)
}
