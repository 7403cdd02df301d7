#!/usr/bin/env bash
# Quick start: flakiness detection on the example build this repository ships
# (tests/fixtures/es-mini, a miniature Elasticsearch-style monorepo).
#
# It installs Debian's Gradle and the test jars the example needs when they are
# missing (and says so), builds gradle-flaky (the debug build, which the test
# command reuses; cargo shows its progress), copies the example build to a temp
# dir and re-runs one flaky and one stable test class 20 times each.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

missing=()
command -v gradle >/dev/null 2>&1 || missing+=(gradle)
[ -f /usr/share/java/junit4.jar ] || missing+=(junit4)
[ -f /usr/share/java/randomizedtesting-runner.jar ] || missing+=(libcarrotsearch-randomizedtesting-java)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "quickstart: installing from Debian: ${missing[*]} (the example build needs them)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

work=$(mktemp -d)
cp -r "$repo/tests/fixtures/es-mini" "$work/"
echo "quickstart: example build copied to $work/es-mini" >&2

# The debug build: about 1-2 minutes from scratch on 2 cores (the release
# build takes twice as long and the demo's time is Gradle's anyway), and
# `cargo nextest run` reuses what it compiled. Cargo shows its progress.
echo "quickstart: building gradle-flaky (debug build), then running it" >&2
# The example build is offline-only: its test jars come from /usr/share/java.
exec cargo run --manifest-path "$repo/Cargo.toml" --bin gradle-flaky -- local \
  --project-dir "$work/es-mini" --gradle "gradle --offline" --iters 20 \
  org.elasticsearch.flaky.AssertionFlakyTests org.elasticsearch.common.StringsTests "$@"
