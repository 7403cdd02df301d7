#!/usr/bin/env bash
# The test command: installs what the suite needs when it is missing, then
# runs it. Arguments go to `cargo nextest run` (e.g. `-E 'test(completion)'`).
#
# The suite drives real programs: Debian's Gradle 4.4.1 and the test jars the
# fixture builds use (junit4, randomizedtesting, testng; junit5's console
# launcher for the JUnit Platform helper, which Gradle 4.4.1 cannot run), git, the shells
# whose completions are tested (bash, zsh, fish), and Chromium (the HTML pages are rendered
# headless in a real browser). Missing Debian packages are
# installed with apt-get (as root, or through sudo), cargo-nextest with cargo.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need=()
command -v gradle >/dev/null 2>&1 || need+=(gradle)
[ -f /usr/share/java/junit4.jar ] || need+=(junit4)
[ -f /usr/share/java/randomizedtesting-runner.jar ] || need+=(libcarrotsearch-randomizedtesting-java)
[ -f /usr/share/java/testng.jar ] || need+=(testng)
[ -f /usr/share/java/junit-platform-console-standalone.jar ] || need+=(junit5)
command -v git >/dev/null 2>&1 || need+=(git)
command -v zsh >/dev/null 2>&1 || need+=(zsh)
command -v fish >/dev/null 2>&1 || need+=(fish)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ "${#need[@]}" -gt 0 ]; then
  echo "scripts/test.sh: installing from Debian: ${need[*]} (the tests drive them)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v cargo-nextest >/dev/null 2>&1; then
  echo "scripts/test.sh: installing cargo-nextest (a few minutes, once)" >&2
  cargo install --locked cargo-nextest
fi

# The suite starts a few hundred short-lived JVMs (Gradle clients and daemons,
# test JVMs). Compiled by C1 only, with the serial collector, they take about
# half the CPU time (measured: 7.8 s instead of 16 s of user time for one
# cold `gradle --no-daemon` test run of a fixture), which halves the suite on
# two cores. A JAVA_TOOL_OPTIONS of your own is kept.
export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"

# Every Gradle the suite starts runs in a Gradle user home of the suite's own
# (below the target directory, or a test's own), never in your ~/.gradle: a
# daemon started with the options above would pass them on to your later
# builds that reuse it. The suite home's daemons are stopped when it ends.
status=0
cargo nextest run --no-fail-fast "$@" || status=$?
suite_home="${CARGO_TARGET_DIR:-target}/tmp/gradle-home-suite"
if [ -d "$suite_home/daemon" ]; then
  GRADLE_USER_HOME="$suite_home" gradle --stop -q >/dev/null 2>&1 || true
fi
exit "$status"
