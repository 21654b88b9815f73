#!/usr/bin/env python3
"""`tilescope check` over a class's files and `tilescope exercise`, as a grader uses them.

    check_class_test.py TILESCOPE SOURCE_DIR

Several files: one line each, a class summary, and --csv rows that agree with --json's runs
and findings file by file. --grid expressions in M, N, K and blockDim. The exercise's starter
written once (refused the second time without --force) and its milestones. PASS, or FAIL: why.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile


def run(tilescope, *args):
    done = subprocess.run([tilescope] + list(args), capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def expect(condition, why, output=""):
    if not condition:
        print("FAIL: %s\n%s" % (why, output))
        sys.exit(1)


def class_check(tilescope, source, folder):
    corpus = os.path.join(source, "tests", "corpus")
    files = [os.path.join(corpus, f) for f in ("tiled_correct.cu", "wrong_floor_tiles.cu", "race_missing_first_barrier.cu")]
    files.append(os.path.join(source, "tests", "app", "check_refused.cu"))
    table, report = os.path.join(folder, "class.csv"), os.path.join(folder, "class.json")
    status, output = run(tilescope, "check", "--no-gpu", "--csv", table, "--json", report, *files)
    expect(status == 2, "a file the front end refuses makes the status 2, not %d" % status, output)
    expect("class: 4 files: 1 pass, 2 fail, 1 not checked" in output, "the class summary", output)
    for f in files:
        expect(sum(line.startswith(f + ": ") for line in output.splitlines()) == 1, "one line for %s" % f, output)
    with open(table, encoding="utf-8") as rows:
        rows = list(csv.DictReader(rows))
    with open(report, encoding="utf-8") as reports:
        reports = {r["file"]: r for r in json.load(reports)["files"]}
    expect([r["file"] for r in rows] == files, "a row per file, in order", str(rows))
    for row in rows:
        if row["file"].endswith("check_refused.cu"):
            expect(row["compiled"] == "no" and ":3:3:" in row["first_finding"], "the refused file's row", str(row))
            continue
        r = reports[row["file"]]
        right = sum(run["wrong_elements"] == 0 for run in r["runs"])
        errors = sum(f["severity"] == "error" for f in r["findings"])
        warnings = sum(f["severity"] == "warning" for f in r["findings"])
        expect(row["compiled"] == "yes" and row["sizes_right"] == "%d/%d" % (right, len(r["runs"])), "sizes right", str(row))
        expect(row["errors"] == str(errors) and row["warnings"] == str(warnings), "the counts agree with --json", str(row))
    status, output = run(tilescope, "check", "--no-gpu", "--csv", "/proc/no/such.csv", files[0])
    expect(status == 2 and "cannot write /proc/no/such.csv" in output, "an unwritable --csv is named", output)


def grid_expressions(tilescope, source):
    tiled = os.path.join(source, "tests", "corpus", "tiled_correct.cu")
    status, output = run(tilescope, "check", "--no-gpu", "--grid", "(N+15)/16, (M + blockDim.y - 1) / blockDim.y", tiled)
    expect(status == 0 and "50x37x29, grid 3x4x1: C right" in output, "ceil-divided grid covers C", output)
    status, output = run(tilescope, "check", "--no-gpu", "--grid", "N/16,M/16", tiled)
    expect(status == 1 and "50x37x29, grid 2x3x1: C wrong" in output, "a floor-divided grid leaves C's edge", output)
    status, output = run(tilescope, "check", "--no-gpu", "--grid", "(N+15)/16,max(M,1)/0", tiled)
    expect(status == 2 and "--grid" in output, "a bad expression is a usage error", output)


def exercise(tilescope, folder):
    target = os.path.join(folder, "ex")
    status, output = run(tilescope, "exercise", "tiled", target)
    starter = os.path.join(target, "tiled.cu")
    expect(status == 0 and os.path.exists(starter), "the starter is written", output)
    status, output = run(tilescope, "exercise", "tiled", target)
    expect(status == 2 and "--force" in output, "an existing starter is not overwritten", output)
    status, output = run(tilescope, "exercise", "tiled", "--check", starter)
    expect(status == 1 and "[x] compiles" in output and "1 of 6 milestones" in output, "the starter only compiles", output)


def main():
    tilescope, source = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as folder:
        class_check(tilescope, source, folder)
        grid_expressions(tilescope, source)
        exercise(tilescope, folder)
    print("PASS")


if __name__ == "__main__":
    main()
