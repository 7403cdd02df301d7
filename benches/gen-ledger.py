#!/usr/bin/env python3
"""Writes a run ledger of N records (default 1,000,000) for benches/history.sh.

Usage: gen-ledger.py DIR [RECORDS] [TESTS]

An Elasticsearch-like history: TESTS tests (default 2,000) in 200 classes,
runs of 50 tests each on a new commit every run, on a few branches, in two
conditions; about 3% of tests flaky (rates 1-20%), a few fixed halfway
through. Written as the build's own ledger would hold it: ledger-<n>.jsonl
files of at most 16 MiB, lines as gradle-flaky writes them. Deterministic
(a fixed seed).
"""
import json
import os
import random
import sys

FILE_BYTES = 16 << 20


def main():
    out = sys.argv[1]
    records = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    tests = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000
    rng = random.Random(42)
    os.makedirs(out, exist_ok=True)
    names = [
        (f"org.elasticsearch.bench.pkg{t % 20}.Bench{t // 10}Tests", f"testCase{t % 10}")
        for t in range(tests)
    ]
    rates = [rng.choice([0.01, 0.02, 0.05, 0.2]) if rng.random() < 0.03 else 0.0 for _ in names]
    fixed_at = [rng.random() < 0.3 for _ in names]
    conditions = [
        {"context": "alone", "repetition": "in-jvm", "mechanism": "tests-iters"},
        {"context": "alone", "repetition": "fresh-jvm"},
    ]
    number, size = 1, 0
    f = open(os.path.join(out, f"ledger-{number:06}.jsonl"), "w")
    written, run = 0, 0
    t0 = 1_767_225_600  # 2026-01-01T00:00:00Z
    while written < records:
        run += 1
        commit = f"{rng.getrandbits(160):040x}"
        branch = rng.choice(["main", "main", "fix-flake", "feature/ledger"])
        stamp = t0 + run * 600
        time = f"{stamp_to_rfc3339(stamp)}"
        condition = conditions[run % 2]
        runs = 100 if condition["repetition"] == "in-jvm" else 20
        for t in rng.sample(range(tests), min(50, tests)):
            if written >= records:
                break
            rate = rates[t] if not (fixed_at[t] and written > records // 2) else 0.0
            failures = sum(1 for _ in range(runs) if rng.random() < rate)
            line = json.dumps({
                "schema": 1,
                "test": {"class": names[t][0], "method": names[t][1], "task": "test"},
                "commit": commit,
                "branch": branch,
                "condition": condition,
                "runs": runs,
                "failures": failures,
                "failureKinds": {"assertion": failures} if failures else {},
                "failingSeeds": [f"{rng.getrandbits(64):016X}" for _ in range(min(failures, 10))],
                "durationSec": {"median": 0.012, "p90": 0.031, "max": 0.2},
                "tool": "0.1.0",
                "time": time,
                "runId": f"run-{run}",
                "where": "local",
            }, separators=(",", ":")) + "\n"
            if size >= FILE_BYTES:
                f.close()
                number, size = number + 1, 0
                f = open(os.path.join(out, f"ledger-{number:06}.jsonl"), "w")
            f.write(line)
            size += len(line)
            written += 1
    f.close()
    print(f"{written} records in {number} files below {out}")


def stamp_to_rfc3339(stamp):
    import datetime
    return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


if __name__ == "__main__":
    main()
