#!/usr/bin/env python3
"""Writes what benches/learn.sh measures: a ledger of ordinary builds, or one build's JUnit XML.

Usage:
  gen-builds.py ledger DIR [RECORDS] [TESTS]   a main branch's ledger: builds of every one of
                                               TESTS tests (default 10,000), one line each, in the
                                               condition `record` writes, until RECORDS lines
                                               (default 1,000,000: 100 builds); a new commit each
                                               build, every fifth commit built twice; 0.3% of the
                                               tests flaky (rates 2-20%), one broken from the
                                               last quarter on, and 3 tests of one class failing
                                               together (a masked ConnectException) in 5% of the
                                               builds. 16 MiB files, lines as gradle-flaky writes
                                               them. Deterministic (a fixed seed).
  gen-builds.py xml DIR [TESTS]                one build's Gradle reports: TESTS tests (default
                                               10,000) in classes of 20 methods below
                                               DIR/server/build/test-results/test/, 0.1% failing.
"""
import json
import os
import random
import sys

FILE_BYTES = 16 << 20
METHODS = 20
T0 = 1_767_225_600  # 2026-01-01T00:00:00Z


def name(t):
    return f"org.elasticsearch.bench.pkg{t // METHODS % 50}.Build{t // METHODS}Tests", f"testCase{t % METHODS}"


def stamp(secs):
    import datetime
    return datetime.datetime.fromtimestamp(secs, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ledger(out, records, tests):
    rng = random.Random(41)
    os.makedirs(out, exist_ok=True)
    flaky = {t: rng.choice([0.02, 0.05, 0.1, 0.2]) for t in rng.sample(range(tests), max(1, tests * 3 // 1000))}
    broken = rng.randrange(tests)
    together = [t for t in range(tests) if t // METHODS == 7][:3]
    builds = records // tests + (records % tests > 0)
    number, size, written = 1, 0, 0
    f = open(os.path.join(out, f"ledger-{number:06}.jsonl"), "w")
    commit = None
    for b in range(builds):
        if b % 5 != 1 or commit is None:
            commit = f"{rng.getrandbits(160):040x}"
        down = rng.random() < 0.05
        time = stamp(T0 + b * 3600)
        for t in range(tests):
            if written >= records:
                break
            cls, method = name(t)
            failed, signature = 0, None
            if t in together and down:
                failed = 1
                signature = "java.net.ConnectException: Connection refused: localhost/<ip>:<n>"
            elif t == broken and b >= builds * 3 // 4:
                failed, signature = 1, "java.lang.AssertionError: expected:<<n>> but was:<<n>>"
            elif t in flaky and rng.random() < flaky[t]:
                failed, signature = 1, "java.lang.AssertionError: lost the race"
            record = {
                "schema": 1,
                "test": {"class": cls, "method": method, "task": "test"},
                "commit": commit,
                "branch": "main",
                "condition": {"context": "task", "repetition": "fresh-jvm", "execution": "first"},
                "runs": 1,
                "failures": failed,
                "failureKinds": {"assertion": 1} if failed else {},
                "failingSeeds": [],
            }
            if signature:
                record["signature"] = signature
            record.update({
                "durationSec": {"median": 0.012, "p90": 0.012, "max": 0.012},
                "tool": "0.1.0",
                "time": time,
                "runId": f"buildkite-job-{b:08d}",
                "where": "buildkite",
            })
            line = json.dumps(record, separators=(",", ":")) + "\n"
            if size >= FILE_BYTES:
                f.close()
                number, size = number + 1, 0
                f = open(os.path.join(out, f"ledger-{number:06}.jsonl"), "w")
            f.write(line)
            size += len(line)
            written += 1
    f.close()
    print(f"{written} records of {builds} builds in {number} files below {out}")


def xml(out, tests):
    rng = random.Random(42)
    dest = os.path.join(out, "server", "build", "test-results", "test")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(out, "settings.gradle"), "w") as s:
        s.write("include 'server'\n")
    failed = 0
    for c in range(tests // METHODS):
        cls = name(c * METHODS)[0]
        cases = []
        for m in range(METHODS):
            method = name(c * METHODS + m)[1]
            if rng.random() < 0.001:
                failed += 1
                cases.append(
                    f'  <testcase name="{method}" classname="{cls}" time="0.012">\n'
                    f'    <failure message="java.lang.AssertionError: lost the race" type="java.lang.AssertionError">'
                    f'java.lang.AssertionError: lost the race\n\tat {cls}.{method}(X.java:1)\n</failure>\n  </testcase>\n')
            else:
                cases.append(f'  <testcase name="{method}" classname="{cls}" time="0.012"/>\n')
        with open(os.path.join(dest, f"TEST-{cls}.xml"), "w") as f:
            f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="{cls}" tests="{METHODS}" '
                    f'skipped="0" failures="0" errors="0" timestamp="2026-03-01T10:00:00" hostname="bench" '
                    f'time="0.24">\n  <properties/>\n{"".join(cases)}  <system-out><![CDATA[]]></system-out>\n'
                    f'  <system-err><![CDATA[]]></system-err>\n</testsuite>\n')
    print(f"{tests} tests ({failed} failing) in {tests // METHODS} reports below {dest}")


def main():
    what, out = sys.argv[1], sys.argv[2]
    if what == "ledger":
        records = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
        tests = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000
        ledger(out, records, tests)
    elif what == "xml":
        xml(out, int(sys.argv[3]) if len(sys.argv) > 3 else 10_000)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
