#!/usr/bin/env python3
"""Generates a Gradle build of PROJECTS test projects with CLASSES test classes each (default 30 x
1,000 = 30,000), shaped like Elasticsearch's test hierarchies, for benches/expand-subclasses.sh.

- `:framework` main code holds the generic abstract bases `org.bench.framework.BaseTestCase<T>` (which,
  as Elasticsearch's `ESTestCase`, extends a jar's test base) and `AbstractBase0..49<T> extends
  BaseTestCase<T>` (a test framework's main source set).
- Every test class `org.bench.pK.sQ.CJTests` extends `AbstractBase(J % 50)<String>`, naming it by a
  single-type import, an on-demand import, its fully qualified name, or through an abstract
  intermediate `org.bench.pK.AbstractLocalB<T>` of its own project; most have a nested helper, some a
  nested concrete subclass of the base (`InnerWire`, not a test by name).
- Decoys: `org.bench.pK.decoy.AbstractBase0..4`, same simple names in another package, each with
  subclasses that name them without an import.
- Bodies carry comments and strings with braces and `class X extends Y {` text.

Writes EXPECTED (JSON): the runnable concrete subclasses of `org.bench.framework.AbstractBase7`,
the exact answer the bench checks the tool against.

Usage: gen-subclasses.py DIR [--projects N] [--classes N]
"""
import argparse
import json
import os

BASES = 50
DECOY_BASES = 5
PROBE = 7

BODY = """
    /* A comment with a { brace and class Fake extends Nothing { ... } */
    private static final String TEXT = "class NotReal extends Base { } {";
    private final char brace = '{';

    public void testFirst() {
        int[] values = {1, 2, 3};
        Runnable r = new Runnable() {
            @Override
            public void run() {
                class Local extends Object {}
                new Local();
            }
        };
        r.run();
        assertTrue(values.length == 3);
    }

    public void testSecond() {
        java.util.List<java.util.Map<String, Integer>> list = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            if (i % 2 == 0) {
                list.add(java.util.Collections.singletonMap("k" + i, i));
            }
        }
        // a line comment with } and {
        assertTrue(list.size() == 5);
    }

    private static void assertTrue(boolean condition) {
        if (condition == false) {
            throw new AssertionError("failed");
        }
    }

    static class Helper {
        int value;
    }
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--projects", type=int, default=30)
    ap.add_argument("--classes", type=int, default=1000)
    ap.add_argument("--expected", default=None)
    args = ap.parse_args()
    root = args.dir
    projects = [f"p{k:02d}" for k in range(args.projects)]
    write(
        os.path.join(root, "settings.gradle"),
        "rootProject.name = 'bench'\ninclude ':framework'\n"
        + "".join(f"include ':{p}'\n" for p in projects),
    )
    write(
        os.path.join(root, "build.gradle"),
        "subprojects {\n  apply plugin: 'java'\n  test { include '**/*Tests.class' }\n}\n",
    )
    fw = os.path.join(root, "framework/src/main/java/org/bench/framework")
    write(
        os.path.join(fw, "BaseTestCase.java"),
        "package org.bench.framework;\n\n"
        "import com.carrotsearch.randomizedtesting.RandomizedTest;\n\n"
        "public abstract class BaseTestCase<T> extends RandomizedTest {\n"
        "    protected abstract T create();\n}\n",
    )
    for b in range(BASES):
        write(
            os.path.join(fw, f"AbstractBase{b}.java"),
            f"package org.bench.framework;\n\nimport java.util.List;\n\n"
            f"public abstract class AbstractBase{b}<T> extends BaseTestCase<T> {{\n"
            f"    protected List<T> items;\n}}\n",
        )

    expected = []
    total = 0
    for k, p in enumerate(projects):
        pkg = f"org.bench.{p}"
        src = os.path.join(root, p, "src/test/java", *pkg.split("."))
        for b in range(BASES):
            write(
                os.path.join(src, f"AbstractLocal{b}.java"),
                f"package {pkg};\n\nimport org.bench.framework.AbstractBase{b};\n\n"
                f"public abstract class AbstractLocal{b}<T> extends AbstractBase{b}<T> {{\n}}\n",
            )
        for b in range(DECOY_BASES):
            write(
                os.path.join(src, "decoy", f"AbstractBase{b}.java"),
                f"package {pkg}.decoy;\n\npublic abstract class AbstractBase{b} {{\n}}\n",
            )
        for j in range(args.classes):
            total += 1
            sub = f"s{j % 20}"
            b = j % BASES
            name = f"C{j}Tests"
            if j % 25 == 3:
                # a decoy subclass: same simple name, other package, no import
                d = j % DECOY_BASES
                write(
                    os.path.join(src, "decoy", f"Decoy{j}Tests.java"),
                    f"package {pkg}.decoy;\n\npublic class Decoy{j}Tests extends AbstractBase{d} "
                    f"{{\n{BODY}}}\n",
                )
                continue
            full = f"{pkg}.{sub}"
            shape = (j // BASES) % 4  # every base gets every way of naming it
            if shape == 0:
                head = f"import {pkg}.AbstractLocal{b};\n"
                parent = f"AbstractLocal{b}<String>"
            elif shape == 1:
                head = ""
                parent = f"org.bench.framework.AbstractBase{b}<String>"
            elif shape == 2:
                head = "import org.bench.framework.*;\n"
                parent = f"AbstractBase{b}<String>"
            else:
                head = f"import org.bench.framework.AbstractBase{b};\n"
                parent = f"AbstractBase{b}<String>"
            nested = ""
            if (j // BASES) % 3 == 0:
                nested = (
                    f"\n    public static class InnerWire extends "
                    f"org.bench.framework.AbstractBase{b}<Long> {{\n"
                    f"        protected Long create() {{ return 1L; }}\n    }}\n"
                )
            write(
                os.path.join(src, sub, f"{name}.java"),
                f"package {full};\n\n{head}import java.util.Map;\n\n"
                f"public class {name} extends {parent} {{\n"
                f"    protected String create() {{ return \"x\"; }}\n{BODY}{nested}}}\n",
            )
            if b == PROBE:
                expected.append(f"{full}.{name}")
    expected.sort()
    out = args.expected or os.path.join(root, "expected.json")
    with open(out, "w") as f:
        json.dump({"base": f"org.bench.framework.AbstractBase{PROBE}", "subclasses": expected,
                   "testClasses": total}, f)


if __name__ == "__main__":
    main()
