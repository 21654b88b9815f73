#!/usr/bin/env python3
"""Every student kernel of tests/corpus through `tilescope check` on the model and, compiled
with NVRTC, on the GPU: a kernel the model finds no error in (no race, nothing out of bounds,
no uninitialized read, no divergent barrier: nothing undefined on the GPU) must give the
model's C bit for bit, which is what confirms the front end's FMA rule
(sim/cuda/fma_rule.cpp); and wherever the model's C is wrong under every scheduler the GPU's
must be wrong too (a fault of a kernel the model found out of bounds counts as wrong).

    student_corpus_nvrtc.py TILESCOPE CORPUS_DIR [--table FILE]

Then the bad inputs beside this script: a kernel NVRTC refuses (its message at the line) and
one that faults on the GPU (the worker ends, the check goes on). Prints the table (kernel, findings, model C, GPU C) and PASS, or FAIL: with why. Prints
SKIPPED: with the reason where `check` finds no GPU.
"""
import json
import os
import subprocess
import sys
import tempfile

SCHEDULERS = ["realistic", "thread", "random", "race"]


def check_flags(path):
    """The `// check:` line's flags, as the corpus README writes them."""
    flags = []
    with open(path, encoding="utf-8") as source:
        for line in source:
            if not line.startswith("// check:"):
                continue
            for word in line[len("// check:"):].split():
                name, value = word.split("=", 1)
                flags += ["--" + name, value]
    return flags


def check(tilescope, path, extra):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "report.json")
        done = subprocess.run([tilescope, "check", path, "--json", out] + check_flags(path) + extra,
                              capture_output=True, text=True, timeout=600)
        if not os.path.exists(out):
            raise RuntimeError("%s: check exited %d: %s%s" % (path, done.returncode, done.stdout, done.stderr))
        with open(out, encoding="utf-8") as report:
            return json.load(report)


def size_text(run):
    return "%dx%dx%d" % (run["m"], run["n"], run["k"])


def bad_inputs(tilescope):
    """The GPU half's bad inputs: what went wrong is named, and the model's report stands."""
    here = os.path.dirname(os.path.abspath(__file__))
    problems = []
    refused = check(tilescope, os.path.join(here, "student_nvrtc_error.cu"), [])
    errors = [run["gpu_error"] or "" for run in refused["runs"]]
    if not all("NVRTC could not compile" in e and "student_nvrtc_error.cu(3)" in e for e in errors):
        problems.append("NVRTC's refusal is not named at line 3: %s" % errors)
    faulting = check(tilescope, os.path.join(here, "student_faulting.cu"), [])
    errors = [run["gpu_error"] or "" for run in faulting["runs"]]
    if not all("faulted" in e and "a fresh worker was started" in e for e in errors):
        problems.append("the faulting kernel's fault is not named: %s" % errors)
    return problems


def main():
    if len(sys.argv) not in (3, 5):
        print(__doc__)
        return 2
    tilescope, corpus = sys.argv[1], sys.argv[2]
    table_file = sys.argv[4] if len(sys.argv) == 5 else None
    files = sorted(f for f in os.listdir(corpus) if f.endswith(".cu"))
    problems, rows = [], []
    for name in files:
        path = os.path.join(corpus, name)
        report = check(tilescope, path, [])
        if report["gpu"] is None:
            print("SKIPPED: no GPU run: %s" % report["gpu_absent"])
            return 0
        # C wrong in every schedule, per size: the model's C under each scheduler.
        wrong_everywhere = [run["wrong_elements"] > 0 for run in report["runs"]]
        for scheduler in SCHEDULERS[1:]:
            other = check(tilescope, path, ["--scheduler", scheduler, "--no-gpu"])
            wrong_everywhere = [w and run["wrong_elements"] > 0 for w, run in zip(wrong_everywhere, other["runs"])]
        findings = sorted({"%s%s" % (f["kind"], " " + f["hazard"] if f["hazard"] else "") for f in report["findings"]
                           if f["severity"] == "error"})
        model_c, gpu_c = [], []
        for run, everywhere in zip(report["runs"], wrong_everywhere):
            size = size_text(run)
            model_c.append("%s %s" % (size, "right" if run["wrong_elements"] == 0 else
                                      "wrong %d%s" % (run["wrong_elements"], " (every schedule)" if everywhere else "")))
            if run["gpu_error"] is not None:
                faulted = "faulted" in run["gpu_error"] and "out_of_bounds" in findings
                gpu_c.append("%s %s" % (size, "faulted (out of bounds)" if faulted else "not run"))
                if not faulted:
                    problems.append("%s at %s: the GPU did not run it: %s" % (name, size, run["gpu_error"]))
                continue
            same = run["gpu_differing_from_model"] == 0
            gpu_c.append("%s %s, %s" % (size, "right" if run["gpu_wrong_elements"] == 0 else "wrong %d" % run["gpu_wrong_elements"],
                                         "= model" if same else "%d differ from model" % run["gpu_differing_from_model"]))
            if report["gpu"]["well_defined"] and not same:
                problems.append("%s at %s: no error found, yet %d elements of the GPU's C differ from the model's"
                                % (name, size, run["gpu_differing_from_model"]))
            if everywhere and run["gpu_wrong_elements"] == 0:
                problems.append("%s at %s: the model's C is wrong in every schedule, the GPU's is right" % (name, size))
        rows.append("| %s | %s | %s | %s |" % (name[:-3], ", ".join(findings) or "none", "; ".join(model_c), "; ".join(gpu_c)))
    problems += bad_inputs(tilescope)
    device = report["gpu"]["device"]
    table = ["GPU: %s" % device, "", "| kernel | error findings | model C | GPU C (NVRTC) |", "|---|---|---|---|"] + rows
    print("\n".join(table))
    if table_file:
        with open(table_file, "w", encoding="utf-8") as out:
            out.write("\n".join(table) + "\n")
    if problems:
        print("FAIL: " + "; ".join(problems))
        return 1
    print("PASS: %d kernels; every one without an error bit for bit the model's" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
