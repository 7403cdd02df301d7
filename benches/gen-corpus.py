#!/usr/bin/env python3
"""Generate an Elasticsearch-scale corpus of Gradle JUnit reports for the analyze benchmark.

At --scale 1: 400 reports, about 550 MB, mostly <system-out> log output (in CDATA, as Gradle writes
it), 120,000 test executions (3 methods x 100 randomized iterations per report) of which about 3%
fail with a stack trace and a REPRODUCE WITH line in <system-err>. Reports are laid out as
<project>/build/test-results/<task>/TEST-<class>.xml. Deterministic for a given --seed.

--output-scale multiplies the system-out of every report (same tests, more bytes).

Usage: gen-corpus.py OUT_DIR [--scale S] [--output-scale O] [--seed N]
"""
import argparse
import os
import random

REPORTS = 400
METHODS = 3
ITERATIONS = 100
OUTPUT_BYTES = 1_250_000  # system-out per report
# Per-method failure rates: most tests are clean, a few are flaky; about 3% overall.
RATES = [0.0, 0.0, 0.0, 0.01, 0.02, 0.05, 0.08, 0.1, 0.014]

LOG_LINES = [
    "[2026-12-01T10:{m:02d}:{s:02d},{ms:03d}][INFO ][o.e.c.m.MetadataCreateIndexService] [node_s{n}] "
    "[index-{i}] creating index, cause [api], templates [], shards [{n}]/[1]\n",
    "[2026-12-01T10:{m:02d}:{s:02d},{ms:03d}][DEBUG][o.e.i.s.IndexShard] [node_s{n}] [index-{i}][0] "
    "state: [CREATED]->[RECOVERING], reason [from store] <recovery> & done\n",
    "[2026-12-01T10:{m:02d}:{s:02d},{ms:03d}][WARN ][o.e.t.TransportService] [node_s{n}] "
    "Received response for a request that has timed out, sent [{ms}ms] ago, id [{i}]\n",
    "[2026-12-01T10:{m:02d}:{s:02d},{ms:03d}][INFO ][o.e.t.InternalTestCluster] [{cls}] "
    "Setup InternalTestCluster [TEST-CHILD_VM=[0]-CLUSTER_SEED=[{i}]-HASH=[{n}]-cluster] with seed [{i:X}]\n",
]


def log_block(rng, cls, size):
    """About `size` bytes of log output."""
    parts, total = [], 0
    while total < size:
        line = rng.choice(LOG_LINES).format(
            m=rng.randrange(60), s=rng.randrange(60), ms=rng.randrange(1000),
            n=rng.randrange(8), i=rng.randrange(1 << 30), cls=cls)
        parts.append(line)
        total += len(line)
    return "".join(parts)


def stack_trace(cls, method, seed, depth=40):
    frames = [f"\tat {cls}.{method}({cls.rsplit('.', 1)[1]}.java:{42 + d})\n" for d in range(3)]
    frames += [f"\tat org.elasticsearch.common.util.concurrent.ThreadContext$ContextPreservingRunnable.run(ThreadContext.java:{900 + d})\n"
               for d in range(depth)]
    return (f"java.lang.AssertionError: expected:&lt;green&gt; but was:&lt;yellow&gt;\n"
            f"\tat __randomizedtesting.SeedInfo.seed([{seed}]:0)\n" + "".join(frames))


def report(rng, index):
    project = ["server", f"modules/module-{index % 20}", f"x-pack/plugin/plugin-{index % 15}"][index % 3]
    task = "internalClusterTest" if index % 4 == 0 else "test"
    cls = f"org.elasticsearch.bench{index % 50}.Generated{index}Tests"
    master = f"{rng.getrandbits(64):016X}"
    cases, repro = [], []
    failures = 0
    for m in range(METHODS):
        method = f"testMethod{m}"
        rate = rng.choice(RATES)
        for _ in range(ITERATIONS):
            seed = f"{master}:{rng.getrandbits(64):X}"
            name = f"{method} {{seed=[{seed}]}}"
            if rng.random() < rate:
                failures += 1
                cases.append(
                    f'  <testcase name="{name}" classname="{cls}" time="{rng.random():.3f}">\n'
                    f'    <failure message="java.lang.AssertionError: expected:&lt;green&gt; but was:&lt;yellow&gt;" '
                    f'type="java.lang.AssertionError">{stack_trace(cls, method, seed)}</failure>\n'
                    f'  </testcase>\n')
                repro.append(f"REPRODUCE WITH: ./gradlew \":{project.replace('/', ':')}:{task}\" "
                             f"--tests \"{cls}.{method}\" -Dtests.seed={seed} -Dtests.locale=en -Dtests.timezone=UTC\n")
            else:
                cases.append(f'  <testcase name="{name}" classname="{cls}" time="{rng.random():.3f}"/>\n')
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuite name="{cls}" tests="{METHODS * ITERATIONS}" skipped="0" failures="{failures}" errors="0" '
            f'timestamp="2026-12-01T10:00:00" hostname="bench" time="100.0">\n  <properties/>\n')
    return project, task, cls, head + "".join(cases), "".join(repro)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--output-scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=20261201)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    block = log_block(rng, "bench", 256 * 1024)
    for index in range(int(REPORTS * args.scale)):
        project, task, cls, body, repro = report(rng, index)
        path = os.path.join(args.out, project, "build", "test-results", task, f"TEST-{cls}.xml")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
            f.write("  <system-out><![CDATA[")
            # A private head, then the shared block rotated, so files differ.
            f.write(log_block(rng, cls, 16 * 1024))
            written, shift = 0, rng.randrange(len(block))
            rotated = block[shift:] + block[:shift]
            while written < OUTPUT_BYTES * args.output_scale:
                f.write(rotated)
                written += len(rotated)
            f.write("]]></system-out>\n  <system-err><![CDATA[")
            f.write(log_block(rng, cls, 8 * 1024))
            f.write(repro)
            f.write("]]></system-err>\n</testsuite>\n")


if __name__ == "__main__":
    main()
