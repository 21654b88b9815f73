#!/usr/bin/env python3
"""The bad-input table (docs/bad-inputs.md), made by running every case below through the
real `tilescope` binary: each command-line flag, GUI action, file kind and output × what was
tried → the message and the exit status. GUI cases run the window in one Xvfb server
started here (Xvfb must be installed, as for the GUI tests).

  bad_input_table.py TILESCOPE --write docs/bad-inputs.md   regenerate the table
  bad_input_table.py TILESCOPE --check docs/bad-inputs.md   the test: PASS, or FAIL: with why

The check fails when a case exits by a signal or above 123 (a crash, an abort, a case past
its CPU limit, or one still running after HANG_SECONDS), when a flag or action given "" is
accepted as if it were not given, or when the committed table differs from what the binary says
today (rerun --write).
"""
import json
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile

# What was tried, in the table's column order.
TRIED = ["0", "negative", "huge", "NaN/inf", "wrong type", "truncated", "empty", "garbage", "directory",
         "unreadable", "read-only output"]
# "0x10": CLI11 alone read a hexadecimal number where a decimal one is meant (--width 0x400 was 1024).
NUMBER_VALUES = [("0", "0"), ("negative", "-1"), ("huge", "18446744073709551615"), ("NaN/inf", "nan"),
                 ("NaN/inf", "inf"), ("wrong type", "four"), ("empty", ""), ("garbage", "12abc"), ("garbage", "0x10")]
NUMBER_NA = ["truncated", "directory", "unreadable", "read-only output"]
NAME_VALUES = [("0", "0"), ("wrong type", "4"), ("empty", ""), ("garbage", "\u00ff\u00fe")]
NAME_NA = ["negative", "huge", "NaN/inf", "truncated", "directory", "unreadable", "read-only output"]


def vectors(m, inner, k, values=None, cut=0):
    """The test-vector harness's format: int32 M, N (inner), K; A M×N, B N×K, C M×K as float32."""
    count = m * inner + inner * k + m * k
    data = struct.pack("<iii", m, inner, k)
    if count >= 0:
        floats = values if values is not None else [1.0] * count
        data += struct.pack("<%df" % len(floats), *floats)
    return data[:len(data) - cut] if cut else data


def file_cases():
    """(input, tried, how it is named in the table, file bytes or a special, command with FILE)."""
    lesson = [
        ("0", '{"m": 0}'), ("negative", '{"m": -1}'), ("huge", '{"m": 18446744073709551615}'),
        ("NaN/inf", '{"m": 1e400}'), ("huge", '{"m": ' + "[" * 100000 + "]" * 100000 + "}"),
        ("wrong type", '{"m": "four"}'), ("truncated", '{"m": 4, "n"'),
        ("empty", ""), ("garbage", "\x89PNG\r\n\x1a\n"), ("directory", "DIR"), ("unreadable", "UNREADABLE"),
        ("wrong type", '{"fill_a": {"kind": 5}}'), ("garbage", '{"m": 4}\x00garbage'), ("0", '{"seed": -0}'),
        # A name of megabytes once cost seconds at start and half a second a frame.
        ("huge", '{"version": 2, "name": "' + "a" * 1000000 + '"}'),
    ]
    inf_a = [1.0] * (2 * 2 * 3)
    inf_a[0] = float("inf")
    vector_files = [
        ("0", vectors(0, 2, 2)), ("negative", struct.pack("<iii", -1, 2, 2)),
        ("huge", struct.pack("<iii", 2 ** 30, 2 ** 30, 3 * 2 ** 29)), ("NaN/inf", vectors(2, 2, 2, inf_a)),
        ("wrong type", b'{"m": 4}'), ("truncated", vectors(2, 2, 2, cut=2)), ("empty", b""),
        ("garbage", b"\x00\x01\x02\x03\x04\x05\x06"), ("directory", "DIR"), ("unreadable", "UNREADABLE"),
        ("wrong type", vectors(2, 2, 2, [1.0] * 8 + [7.0] * 4)),  # C is not A·B: the check fails
    ]
    cases = []
    for tried, text in lesson:
        contents = text if text in ("DIR", "UNREADABLE") else text.encode("latin-1")
        cases.append(("lesson file (`trace --lesson FILE`)", tried, contents, ["trace", "--lesson", "FILE"]))
    # A tour of 200 stops asking `reads` at 200 sizes (18 KB) once ran 159 s and grew to 7.7 GB:
    # the budget covers the whole tour and names the stop that crosses it.
    stops = [{"title": "size %d" % s, "at": {"step": 0}, "text": "{reads m=%d n=%d k=%d}" % (s, s, s)}
             for s in range(16, 816, 4)]
    cases.append(("lesson file (`tour FILE`)", "huge", json.dumps({"version": 2, "tour": stops}).encode(),
                  ["tour", "FILE"]))
    for tried, contents in vector_files:
        cases.append(("test vectors (`verify FILE`)", tried, contents, ["verify", "FILE"]))
        cases.append(("test vectors (`trace --fill file:FILE`)", tried, contents, ["trace", "--fill", "file:FILE"]))
    kernel_files = kernel_file_cases()
    for tried, contents in kernel_files + SWEEP_REFUSED:
        cases.append(("kernel file (`bench --student FILE`)", tried, contents, ["bench", "--student", "FILE"]))
    for tried, contents in kernel_files:
        cases.append(("kernel file (`check FILE`)", tried, contents, ["check", "FILE"]))
        cases.append(("kernel file (`exercise tiled --check FILE`)", tried, contents, ["exercise", "tiled", "--check", "FILE"]))
    return cases


def kernel_file_cases():
    """(tried, contents): the kernel files `check FILE` and `tilescope --kernel FILE` are given."""
    good_kernel = GOOD_KERNEL.encode()
    return [
        ("0", b"__global__ void k(float* C) { __shared__ float s[0]; C[0] = 1.0f; }\n"),
        ("negative", b"__global__ void k(float* C) { __shared__ float s[-1]; C[0] = 1.0f; }\n"),
        ("huge", b"__global__ void k(float* C) { C[0] = " + b"(" * 100000 + b"1" + b")" * 100000 + b"; }\n"),
        ("NaN/inf", b"__global__ void k(float* C) { C[0] = 1e400f; }\n"),
        ("wrong type", b'{"m": 4}'), ("truncated", good_kernel[:len(good_kernel) // 2]), ("empty", b""),
        ("garbage", b"\x89PNG\r\n\x1a\n\x00\x01"), ("directory", "DIR"), ("unreadable", "UNREADABLE"),
    ]


# A correct kernel for the flags of `check` (GOODKERNEL in a command).
GOOD_KERNEL = """__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}
int main() { naive<<<dim3(4, 4), dim3(4, 4)>>>(0, 0, 0, 16, 16, 16); }
"""


# Kernels a sweep cannot time (`bench --student FILE`, GUI action `live-student FILE`): no C
# among its pointers, and a size fixed by a #define, which a sweep over sizes cannot change.
SWEEP_REFUSED = [
    ("wrong type", b"__global__ void k(const float* A, float* B, int N) { int i = threadIdx.x; if (i < N) B[i] = A[i]; }\n"
                   b"int main() { k<<<1, 64>>>(0, 0, 64); }\n"),
    ("wrong type", b"#define SIZE 64\n__global__ void k(const float* A, const float* B, float* C) {\n"
                   b"  int i = threadIdx.x; C[i] = A[i] * B[i * SIZE];\n}\nint main() { k<<<1, 64>>>(0, 0, 0); }\n"),
]


def flag_cases():
    """(input, tried, value, command): every numeric and named flag of the subcommands."""
    cases = []
    for flag in ("--m", "--n", "--k", "--tile", "--tm", "--tn", "--tk", "--seed"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`trace %s`" % flag, tried, value, ["trace", flag, value]))
    for flag in ("--case", "--blocks"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`trace %s`" % flag, tried, value, ["trace", flag, value]))
    for flag in ("--kernel", "--barrier1", "--barrier2", "--guard", "--bs-layout", "--tiles", "--scheduler", "--fill",
                 "--lesson"):
        for tried, value in NAME_VALUES:
            cases.append(("`trace %s`" % flag, tried, value, ["trace", flag, value]))
    for flag in ("--reps", "--warmups", "--trials", "--seed"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`bench %s`" % flag, tried, value, ["bench", flag, value]))
    for tried, value in NUMBER_VALUES:
        cases.append(("`bench --sizes`", tried, value, ["bench", "--sizes", value]))
    for tried, value in NAME_VALUES:
        cases.append(("`bench --kernels`", tried, value, ["bench", "--kernels", value]))
        cases.append(("`verify --kernel`", tried, value, ["verify", "--kernel", value, "FILE"]))
    for tried, value in NUMBER_VALUES:
        cases.append(("`occupancy --tile`", tried, value, ["occupancy", "--tile", value]))
    for flag in ("--block", "--grid", "--sizes", "--seed", "--time-size"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`check %s`" % flag, tried, value, ["check", flag, value, "GOODKERNEL"]))
    # --grid's axes are C expressions in M, N, K and blockDim.
    for tried, value in (("0", "N-N"), ("negative", "-N/16"), ("huge", "N*N*N*N"), ("wrong type", "P/16"),
                         ("truncated", "(N+15"), ("garbage", "N/0"), ("garbage", "1,2,3,4"), ("empty", "1,,1")):
        cases.append(("`check --grid` (expression)", tried, value, ["check", "--grid", value, "GOODKERNEL"]))
    for flag in ("--kernel", "--scheduler", "--define", "--json", "--csv"):
        for tried, value in NAME_VALUES:
            cases.append(("`check %s`" % flag, tried, value, ["check", flag, value, "GOODKERNEL"]))
    # --define binds an int parameter by name, sizes too: any 32-bit value (-1 once meant M), a wider one refused.
    for tried, value in (("negative", "M=-1"), ("huge", "M=5000000000")):
        cases.append(("`check --define`", tried, value, ["check", "--define", value, "GOODKERNEL"]))
    # The window's --kernel FILE takes the same flags, read by the same code (app/cli/kernel_flags.h).
    for flag in ("--block", "--grid", "--sizes"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`tilescope --kernel FILE %s` (GUI)" % flag, tried, value, ["--kernel", "GOODKERNEL", flag, value]))
    for tried, value in NAME_VALUES:
        cases.append(("`tilescope --kernel FILE --define` (GUI)", tried, value, ["--kernel", "GOODKERNEL", "--define", value]))
        cases.append(("`tilescope --kernel FILE --kernel-name` (GUI)", tried, value,
                      ["--kernel", "GOODKERNEL", "--kernel-name", value]))
    # bench --student's kernel runs as check's: the same flags, read by the same code; the sweep's
    # sizes past a GPU's grid or the kernel's int indices are refused before any GPU is asked.
    for tried, value in NAME_VALUES:
        cases.append(("`bench --student FILE --student-kernel`", tried, value,
                      ["bench", "--student", "GOODKERNEL", "--student-kernel", value]))
    for flag in ("--block", "--grid"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`bench --student FILE %s`" % flag, tried, value, ["bench", "--student", "GOODKERNEL", flag, value]))
    for tried, value in (("huge", "2097152x1x1"), ("huge", "65536x65536x1")):
        cases.append(("`bench --student FILE --sizes`", tried, value, ["bench", "--student", "GOODKERNEL", "--sizes", value]))
    cases.append(("`bench --block`", "wrong type", "16x16, no --student", ["bench", "--block", "16x16"]))
    cases.append(("`bench --student FILE`", "wrong type", "with --race", ["bench", "--race", "--student", "GOODKERNEL"]))
    # --open goes with the folder the starter is written into, before any window opens.
    cases.append(("`exercise tiled DIR --open`", "empty", "no DIR", ["exercise", "tiled", "--open"]))
    cases.append(("`exercise tiled DIR --open`", "wrong type", "with --check FILE",
                  ["exercise", "tiled", "--open", "--check", "GOODKERNEL"]))
    # exercise takes check's kernel flags, read by the same code, for --check and the window's Guide.
    for flag in ("--block", "--grid", "--sizes"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`exercise tiled --check FILE %s`" % flag, tried, value,
                          ["exercise", "tiled", "--check", "GOODKERNEL", flag, value]))
    for tried, value in NAME_VALUES:
        cases.append(("`exercise tiled --check FILE --define`", tried, value,
                      ["exercise", "tiled", "--check", "GOODKERNEL", "--define", value]))
    cases.append(("`exercise tiled DIR --block`", "wrong type", "16x16, no --check or --open",
                  ["exercise", "tiled", "starter", "--block", "16x16"]))
    cases.append(("`tilescope --block` (GUI)", "wrong type", "16x16, no --kernel", ["--block", "16x16"]))
    cases.append(("`tilescope --kernel` (GUI)", "wrong type", "with --lesson default",
                  ["--kernel", "GOODKERNEL", "--lesson", "default"]))
    for tried, value in NAME_VALUES:
        cases.append(("`exercise NAME DIR`", tried, value, ["exercise", value, "starter"]))
        cases.append(("`exercise tiled DIR`", tried, value, ["exercise", "tiled", value]))
    for tried, value in NAME_VALUES:
        cases.append(("`occupancy --gpu`", tried, value, ["occupancy", "--gpu", value]))
    for flag in ("--frames", "--width", "--height", "--bench-frames", "--content-scale"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`tilescope %s` (GUI)" % flag, tried, value, [flag, value]))
    for tried, value in NUMBER_VALUES:
        cases.append(("`tilescope --soak` (GUI)", tried, value, ["--soak", value, "--actions", "wait 1"]))
    cases.append(("`tilescope --soak` (GUI)", "wrong type", "10, no --actions", ["--soak", "10"]))
    for tried, value in NUMBER_VALUES:
        cases.append(("`tilescope --dump-state-every` (GUI)", tried, value,
                      ["--dump-state-every", value, "--dump-state", "state.json"]))
    cases.append(("`tilescope --dump-state-every` (GUI)", "wrong type", "1, no --dump-state", ["--dump-state-every", "1"]))
    # A tour's take-away: refused before any window opens.
    for tried, value in NUMBER_VALUES:
        cases.append(("`tour --frame-ms`", tried, value, ["tour", "--frame-ms", value]))
        cases.append(("`tour --record FILE.gif --steps`", tried, value,
                      ["tour", "--record", "take-away.gif", "--steps", value]))
    cases.append(("`tour --record FILE`", "wrong type", "take-away.png", ["tour", "--record", "take-away.png"]))
    # Every flag that takes a name or a file, given "": refused by name, never read as "not given".
    for flag in ("--lesson", "--actions", "--screenshot", "--dump-state"):
        cases.append(("`tilescope %s` (GUI)" % flag, "empty", "", [flag, ""]))
    for command in (["bench", "--csv"], ["bench", "--json"], ["bench", "--tiles"], ["tour", "--ask"], ["tour"]):
        cases.append(("`%s`" % " ".join(command + (["LESSON"] if command == ["tour"] else [])), "empty", "",
                      command + [""]))
    cases.append(("test vectors (`verify FILE`)", "empty", "", ["verify", ""]))
    return cases


LONG_NAME = "a" * 5000


def lesson_name_cases():
    """--lesson NAME|FILE where the path cannot even be checked: std::filesystem threw on these
    and trace, occupancy and tour aborted (issue 32). NOENTRY is a folder nobody may enter."""
    cases = []
    for tried, value, shown_as in (("huge", LONG_NAME, "a 5000-character name"), ("unreadable", "LOOP", "`LOOP` (a symlink loop)"),
                                   ("unreadable", "NOENTRY/lesson.json", "`NOENTRY/lesson.json`")):
        for name, command in (("`trace --lesson`", ["trace", "--lesson", value]),
                              ("`occupancy --lesson`", ["occupancy", "--lesson", value]),
                              ("`tour LESSON`", ["tour", value])):
            cases.append((name, tried, shown_as, command))
    return cases


def stdout_cases():
    """Standard output into /dev/full: every write fails, and the run must say so (issue 32)."""
    return [("standard output (`%s > /dev/full`)" % " ".join(c), "read-only output", "/dev/full", c)
            for c in (["trace"], ["trace", "--json", "-"], ["tour"], ["occupancy", "--json"], ["verify", "GOOD"],
                      ["--help"])]


def output_cases():
    """--json FILE of trace: where it cannot be written."""
    return [
        ("`trace --json FILE` (output)", "empty", "", ["trace", "--json", ""]),
        ("`trace --json FILE` (output)", "directory", "DIR", ["trace", "--json", "DIR"]),
        ("`trace --json FILE` (output)", "read-only output", "READ-ONLY/trace.json", ["trace", "--json", "READ-ONLY/trace.json"]),
        ("`trace --json FILE` (output)", "unreadable", "MISSING/trace.json", ["trace", "--json", "MISSING/trace.json"]),
        ("`check --csv FILE` (output)", "directory", "DIR", ["check", "--csv", "DIR", "GOODKERNEL"]),
        ("`check --csv FILE` (output)", "read-only output", "READ-ONLY/class.csv", ["check", "--csv", "READ-ONLY/class.csv", "GOODKERNEL"]),
        ("`check --csv FILE` (output)", "unreadable", "MISSING/class.csv", ["check", "--csv", "MISSING/class.csv", "GOODKERNEL"]),
        ("`exercise tiled DIR` (output)", "read-only output", "READ-ONLY/ex", ["exercise", "tiled", "READ-ONLY/ex"]),
        ("`exercise tiled DIR` (output)", "wrong type", "a file", ["exercise", "tiled", "FILE"]),
    ]


def device_cases():
    """Devices as outputs: /dev/null takes everything, /dev/full fails every write. Both are
    written in place (never replaced by a renamed file); the cases run as nobody, who cannot
    replace them anyway."""
    cases = []
    for device, tried in (("/dev/null", "0"), ("/dev/full", "read-only output")):
        cases.append(("`trace --json FILE` (output)", tried, device, ["trace", "--json", device]))
    cases.append(("test vectors (`verify FILE`)", "empty", "/dev/null", ["verify", "/dev/null"]))
    return cases


# Values a GUI action's argument was given, as the table's columns name them.
ACTION_VALUES = [("0", "0"), ("negative", "-1"), ("huge", "18446744073709551615"), ("NaN/inf", "nan"),
                 ("wrong type", "four"), ("empty", "")]
ACTION_NA = ["truncated", "garbage", "directory", "unreadable", "read-only output"]
NUMBER_ACTIONS = ["jump-to", "play-speed", "seeds-run", "race-trials", "live-reps", "live-model-size", "live-sizes",
                  "tensor-lane"]


def gui_action_cases():
    """(input, tried, value, GUI arguments): each kind of --actions argument (a step, a speed,
    a count, a size, a list of sizes, a lesson edit, a cell's value) given each bad value, and
    outputs of the window where they cannot be written."""
    cases = []
    for name in NUMBER_ACTIONS:
        for tried, value in ACTION_VALUES:
            cases.append(("GUI action `%s N`" % name, tried, value, ["--actions", ("%s %s" % (name, value)).strip()]))
    for tried, value in NAME_VALUES:
        cases.append(("GUI action `panel-toggle KEY`", tried, value, ["--actions", ("panel-toggle " + value).strip()]))
    for tried, value in ACTION_VALUES:
        edit = "m=%s" % value if value else ""
        cases.append(("GUI action `lesson-set m=N`", tried, edit, ["--actions", ("lesson-set " + edit).strip()]))
    # A case of a test-vector file by number (the file holds one case): -2147483648 once
    # overflowed an int on its way to "case -2147483648".
    for tried, value in ACTION_VALUES + [("negative", "-2147483648")]:
        cases.append(("GUI action `lesson-vectors FILE#N`", tried, value, ["--actions", "lesson-vectors FILE#" + value]))
    # A value read only in part once stored what was read: "1,5" 1, "0x10" 0, "1e-50" 0, "2 junk" 2.
    cells = [("0", "A 0 0 0"), ("negative", "A -1 0 1"), ("huge", "A 0 0 1e400"), ("NaN/inf", "A 0 0 nan"),
             ("wrong type", "A x 0 1"), ("empty", ""), ("garbage", "A 0 0 1,5"), ("garbage", "A 0 0 0x10"),
             ("0", "A 0 0 1e-50"), ("garbage", "A 0 0 2 junk")]
    for tried, value in cells:
        cases.append(("GUI action `edit-cell A ROW COL VALUE`", tried, value, ["--actions", ("edit-cell " + value).strip()]))
    for tried, path in (("directory", "DIR"), ("read-only output", "READ-ONLY/out.json"), ("read-only output", "/dev/full")):
        cases.append(("GUI action `lesson-save FILE`", tried, path, ["--actions", "lesson-save " + path]))
    for tried, path in (("directory", "DIR"), ("unreadable", "MISSING/kernel.cu"), ("empty", "")):
        cases.append(("GUI action `kernel-open FILE`", tried, path, ["--actions", ("kernel-open " + path).strip()]))
    # A finding's lines, with a student's kernel open (its file has 8 lines) and without one.
    for tried, value in ACTION_VALUES:
        cases.append(("GUI action `source-show-lines N`", tried, value,
                      ["--kernel", "GOODKERNEL", "--actions", ("source-show-lines " + value).strip()]))
    cases.append(("GUI action `source-show-lines N`", "wrong type", "3, no kernel open", ["--actions", "source-show-lines 3"]))
    # Another scheduler or kernel for a student's kernel (GOODKERNEL has one, naive), and without one open.
    for action in ("kernel-scheduler", "kernel-name"):
        for tried, value in ACTION_VALUES:
            cases.append(("GUI action `%s NAME`" % action, tried, value,
                          ["--kernel", "GOODKERNEL", "--actions", (action + " " + value).strip()]))
        cases.append(("GUI action `%s NAME`" % action, "wrong type", "race, no kernel open", ["--actions", action + " race"]))
    # The results file dialog: a folder that is not there, one the user may not enter, a file.
    for tried, folder in (("unreadable", "MISSING"), ("unreadable", "NOENTRY"), ("wrong type", "FILE")):
        cases.append(("GUI action `live-choose-file FOLDER`", tried, folder, ["--actions", "live-choose-file " + folder]))
    # The live page's "your kernel": its file dialog, and no file to add (no --kernel given).
    for tried, folder in (("unreadable", "MISSING"), ("unreadable", "NOENTRY"), ("wrong type", "FILE")):
        cases.append(("GUI action `live-student-choose FOLDER`", tried, folder, ["--actions", "live-student-choose " + folder]))
    cases.append(("GUI action `live-student FILE`", "empty", "", ["--actions", "live-student"]))
    # A scripted run whose lesson does not open once saved the default lesson's screenshot, exit 0.
    cases.append(("`tilescope --lesson FILE --screenshot out.png` (GUI)", "unreadable", "MISSING/lesson.json",
                  ["--lesson", "MISSING/lesson.json", "--screenshot", "out.png"]))
    for tried, path in (("0", "/dev/null"), ("directory", "DIR"), ("read-only output", "READ-ONLY/out"),
                        ("read-only output", "/dev/full")):
        cases.append(("`tilescope --screenshot FILE` (output)", tried, path, ["--screenshot", path]))
        cases.append(("`tilescope --dump-state FILE` (output)", tried, path, ["--dump-state", path]))
    return cases


def sweep_file(kind, change=None):
    """A saved sweep with one row, cut from the committed H100 results (so the format is the
    app's own): JSON, or CSV with its `# key: value` header. `change` sets fields of the row;
    "NAN" and "1E400" are written bare, as a number would be. The row is made 64³, so the
    model's count of its reads, which a loaded row starts, is quick."""
    results = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "results")
    change = dict({"m": 64, "n": 64, "k": 64}, **(change or {}))
    if kind == "json":
        with open(os.path.join(results, "h100-bench.json")) as f:
            sweep = json.load(f)
        sweep["results"] = sweep["results"][:1]
        sweep["results"][0].update(change)
        text = json.dumps(sweep, indent=1)
        return text.replace('"NAN"', "NaN").replace('"1E400"', "1e400").encode()
    with open(os.path.join(results, "h100-bench.csv")) as f:
        lines = f.read().splitlines()
    header = [l if not l.startswith("# results:") else "# results: 1" for l in lines if l.startswith("#")]
    columns, row = lines[len(header)], lines[len(header) + 1]
    names = columns.split(",")
    # The first row (naive) has no quoted comma, so a plain split finds its fields.
    fields = row.split(",")
    for key, value in change.items():
        fields[names.index(key)] = str(value)
    return ("\n".join(header + [columns, ",".join(fields)]) + "\n").encode()


def gui_file_cases():
    """(input, tried, file contents or a special, GUI arguments with FILE; a settings case
    puts the file where the app looks for settings.json instead)."""
    cases = []
    for kind in ("json", "csv"):
        good = sweep_file(kind)
        sweeps = [
            ("0", sweep_file(kind, {"m": 0})), ("negative", sweep_file(kind, {"gflops": -5})),
            ("huge", sweep_file(kind, {"m": 3000000000, "n": 3000000000, "k": 3000000000})),
            ("huge", sweep_file(kind, {"gflops": "1E400"})), ("NaN/inf", sweep_file(kind, {"median_ms": "NAN"})),
            ("wrong type", sweep_file(kind, {"m": "four"})), ("truncated", good[:len(good) * 2 // 3]),
            ("empty", b""), ("garbage", b"\x89PNG\r\n\x1a\n"), ("directory", "DIR"), ("unreadable", "UNREADABLE"),
        ]
        for tried, contents in sweeps:
            cases.append(("saved results, %s (GUI action `live-load FILE`)" % kind.upper(), tried, contents,
                          ["--actions", "live-load FILE." + kind]))
    # NaN stands for "no figure", which only a failed result may have: a row that claims it was
    # measured but holds no time or rate was plotted as measured.
    none = {key: "nan" for key in ("median_ms", "min_ms", "max_ms", "q1_ms", "q3_ms", "gflops")}
    cases.append(("saved results, CSV (GUI action `live-load FILE`)", "NaN/inf", sweep_file("csv", none),
                  ["--actions", "live-load FILE.csv"]))
    cases.append(("saved results, JSON (GUI action `live-load FILE`)", "NaN/inf",
                  sweep_file("json", {key: None for key in none}), ["--actions", "live-load FILE.json"]))
    no_device = json.loads(sweep_file("json"))
    no_device["device"] = {}
    cases.append(("saved results, JSON (GUI action `live-load FILE`)", "empty", json.dumps(no_device).encode(),
                  ["--actions", "live-load FILE.json"]))
    cases.append(("GUI action `lesson-open FILE`", "unreadable", "FIFO", ["--actions", "lesson-open FILE"]))
    # A student's kernel: refused by name, the window goes on with the lesson on show.
    for tried, contents in kernel_file_cases():
        cases.append(("kernel file (`tilescope --kernel FILE`, GUI)", tried, contents, ["--kernel", "FILE.cu"]))
    cases.append(("GUI action `kernel-open FILE`", "unreadable", "FIFO", ["--actions", "kernel-open FILE"]))
    # Added to the live page's sweep: checked as the window opens a kernel, then for a sweep.
    for tried, contents in kernel_file_cases() + SWEEP_REFUSED:
        cases.append(("kernel file (GUI action `live-student FILE`)", tried, contents, ["--actions", "live-student FILE.cu"]))

    cases.append(("`tilescope --lesson FILE --screenshot out.png` (GUI)", "negative", b'{"version": 1, "m": -3}',
                  ["--lesson", "FILE", "--screenshot", "out.png"]))
    deep = b'{"version": 1, "last_lesson": ' + b"[" * 100000 + b"]" * 100000 + b"}"
    settings = [
        ("0", b'{"version": 1, "font_size": 0}'), ("negative", b'{"version": 1, "window": {"width": -5}}'),
        ("huge", b'{"version": 1, "window": {"width": 18446744073709551615}}'),
        ("NaN/inf", b'{"version": 1, "font_size": 1e400}'), ("wrong type", b'{"version": 1, "presentation": "yes"}'),
        ("huge", deep), ("truncated", b'{"version": 1, "window": {"wid'), ("empty", b""),
        ("garbage", b"\x89PNG\r\n\x1a\n"), ("directory", "DIR"), ("unreadable", "UNREADABLE"),
        ("huge", b'{"version": 1, "imgui_layout": "[Table][0x12345678,2000000000]\\n"}'),
        ("unreadable", "FIFO"), ("directory", "BAD-DIR"), ("empty", "NO-HOME"),
    ]
    for tried, contents in settings:
        cases.append(("settings file (`$XDG_CONFIG_HOME/tilescope/settings.json`)", tried, contents, ["SETTINGS"]))
    return cases


class Display:
    """One Xvfb server for every GUI case: starting one per case would cost more than the cases."""

    def __init__(self):
        if not shutil.which("Xvfb"):
            raise SystemExit("FAIL: Xvfb is not installed: the GUI rows need it (scripts/setup.sh installs xvfb)")
        read, write = os.pipe()
        self.server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten",
                                        "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as answer:
            number = answer.readline().strip()
        if not number:
            raise SystemExit("FAIL: Xvfb did not start")
        self.name = ":" + number

    def close(self):
        self.server.terminate()
        self.server.wait()


# A case's limits. Its own CPU time (user + system, all its threads) is what makes a case slow:
# each needs a few seconds at most, and past CASE_CPU_SECONDS the kernel stops it (SIGXCPU, a
# signal the check fails on). Its wall time depends on the machine's load more than on the case:
# the model's worker threads run below the window in priority, so on a busy machine they wait
# for a core (the 200-stop tour: 1.5 s of CPU in 335 s of wall at load 25). The wall limit only
# catches a case that spends no CPU at all, a hang.
CASE_CPU_SECONDS = 60
HANG_SECONDS = 900
HUNG = (999, "(still running after %d s: killed)" % HANG_SECONDS)


def as_nobody():
    """Root reads and writes any file: the case runs as nobody, so "unreadable" and
    "read-only" mean the same on every machine. It also sets the case's CPU limit."""
    resource.setrlimit(resource.RLIMIT_CPU, (CASE_CPU_SECONDS, CASE_CPU_SECONDS + 5))  # SIGXCPU, then SIGKILL
    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)


class Sandbox:
    """A folder the cases' files live in, readable by nobody; names in messages are
    rewritten to FILE, DIR, READ-ONLY and MISSING so the table does not depend on it."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="tilescope-bad-input-")
        os.chmod(self.root, 0o755)
        self.dir = os.path.join(self.root, "DIR")
        os.makedirs(self.dir)
        self.read_only = os.path.join(self.root, "READ-ONLY")
        os.makedirs(self.read_only)
        os.chmod(self.read_only, 0o555)
        os.symlink("LOOP", os.path.join(self.root, "LOOP"))
        self.no_entry = os.path.join(self.root, "NOENTRY")
        os.makedirs(self.no_entry)
        with open(os.path.join(self.no_entry, "lesson.json"), "w") as f:
            f.write("{}")
        os.chmod(self.no_entry, 0o000)
        self.good_kernel = os.path.join(self.root, "good.cu")
        with open(self.good_kernel, "w") as f:
            f.write(GOOD_KERNEL)
        self.good_vectors = os.path.join(self.root, "good.bin")
        with open(self.good_vectors, "wb") as f:
            f.write(vectors(2, 2, 2, [1.0] * 8 + [2.0] * 4))

    def file_for(self, contents, suffix=""):
        """The case's file, FILE (or FILE.csv and the like, for a reader that goes by the
        name): the path to put in the command, which adds the suffix itself."""
        if contents == "DIR" and not suffix:
            return self.dir
        base = os.path.join(self.root, "FILE")
        path = base + suffix
        if os.path.isdir(path):
            os.rmdir(path)
        elif os.path.exists(path):
            os.chmod(path, 0o644)
            os.remove(path)
        if contents == "DIR":
            os.makedirs(path)
            return base
        if contents == "FIFO":
            os.mkfifo(path)
            return base
        with open(path, "wb") as f:
            f.write(b"" if contents == "UNREADABLE" else contents)
        os.chmod(path, 0o000 if contents == "UNREADABLE" else 0o644)
        return base

    def args(self, command, path):
        def one(arg):
            arg = re.sub(r"(?<![\w-])FILE(?![\w-])", lambda _: path, arg)
            if arg == "GOOD":
                return self.good_vectors
            if arg == "GOODKERNEL":
                return self.good_kernel
            return re.sub(r"(?<![\w/-])(DIR|READ-ONLY|MISSING|LOOP|NOENTRY)(?=/|\s|$)",
                          lambda m: os.path.join(self.root, m.group(1)), arg)
        return [one(a) for a in command]

    def config(self, settings=None):
        """A fresh settings folder nobody may write to (the app saves its settings on exit),
        holding `settings` as settings.json when given."""
        config = os.path.join(self.root, "config")
        shutil.rmtree(config, ignore_errors=True)
        folder = os.path.join(config, "tilescope")
        os.makedirs(folder)
        for d in (config, folder):
            os.chmod(d, 0o777)
        if settings == "DIR":
            os.makedirs(os.path.join(folder, "settings.json"))
        elif settings == "FIFO":
            os.mkfifo(os.path.join(folder, "settings.json"))
        elif settings == "BAD-DIR":
            # A corrupt file beside a folder named settings.json.bad: the folder must survive.
            with open(os.path.join(folder, "settings.json"), "w") as f:
                f.write("{corrupt")
            os.makedirs(os.path.join(folder, "settings.json.bad"))
            with open(os.path.join(folder, "settings.json.bad", "mine.txt"), "w") as f:
                f.write("mine")
        elif settings is not None and settings != "NO-HOME":
            path = os.path.join(folder, "settings.json")
            with open(path, "wb") as f:
                f.write(b"" if settings == "UNREADABLE" else settings)
            os.chmod(path, 0o000 if settings == "UNREADABLE" else 0o644)
        return config

    def clean(self, text):
        text = text.replace(os.path.join(self.root, "config", "tilescope"), "CONFIG")
        text = text.replace(os.path.join(self.root, "FILE"), "FILE").replace(LONG_NAME, "NAME-OF-5000-CHARACTERS")
        for name in ("DIR", "READ-ONLY", "MISSING", "LOOP", "NOENTRY"):
            text = text.replace(os.path.join(self.root, name), name)
        return text.replace(self.root, "SANDBOX")

    def remove(self):
        os.chmod(self.read_only, 0o755)
        os.chmod(self.no_entry, 0o755)
        self.config()
        shutil.rmtree(self.root, ignore_errors=True)


# Lines `verify` prints before any case: not the message.
PREAMBLE = ("verifying ", "sizes as TileScope names them", "tolerance per element")


def message_of(stdout, stderr):
    lines = [l for l in stderr.splitlines() if l.strip()]
    if not lines:
        lines = [l for l in stdout.splitlines() if l.strip() and not l.startswith(PREAMBLE)]
    return lines[0].strip() if lines else "(nothing)"


def run(binary, sandbox, command, contents=None, full_stdout=False):
    path = sandbox.file_for(contents) if contents is not None else sandbox.good_vectors
    # No display and no GPU: a value that is accepted ends at "cannot open a window" (GUI
    # flags) or "no GPU to run on" (bench) the same way on every machine.
    env = dict(os.environ, DISPLAY="", WAYLAND_DISPLAY="", CUDA_VISIBLE_DEVICES="")
    with open("/dev/full" if full_stdout else os.devnull, "wb") as full:
        try:
            done = subprocess.run([binary] + sandbox.args(command, path), stdout=full if full_stdout else subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=HANG_SECONDS, preexec_fn=as_nobody, env=env)
        except subprocess.TimeoutExpired:
            return HUNG
    if done.returncode == 0:
        return 0, "(accepted)"
    stdout, stderr = (done.stdout or b"").decode(errors="replace"), done.stderr.decode(errors="replace")
    message = sandbox.clean(message_of(stdout, stderr))
    no_gpu = "no GPU to run on"
    return done.returncode, message[:message.index(no_gpu) + len(no_gpu)] if no_gpu in message else message


def run_gui(binary, sandbox, display, command, contents=None):
    """The window for one case: one frame at 1366x768, then exit once its script and background
    work are done. The message is the app's first error on standard error, else its first line;
    a settings case that starts (exit 0) shows the warning it gave."""
    settings = contents if command == ["SETTINGS"] else None
    suffix = re.search(r"FILE(\.\w+)?", " ".join(command))
    if contents is not None and settings is None:
        path = sandbox.file_for(contents, suffix.group(1) or "")
    else:
        path = sandbox.good_vectors
    config = sandbox.config(settings)
    env = dict(os.environ, DISPLAY=display.name, WAYLAND_DISPLAY="", CUDA_VISIBLE_DEVICES="",
               XDG_CONFIG_HOME=config, HOME=config, MESA_SHADER_CACHE_DISABLE="true")
    if settings == "NO-HOME":
        del env["XDG_CONFIG_HOME"], env["HOME"]
    args = [] if settings is not None else sandbox.args(command, path)
    try:
        done = subprocess.run([binary, "--frames", "1", "--width", "1366", "--height", "768"] + args,
                              capture_output=True, timeout=HANG_SECONDS, preexec_fn=as_nobody, env=env, cwd=sandbox.root)
    except subprocess.TimeoutExpired:
        return HUNG
    lines = [l.strip() for l in done.stderr.decode(errors="replace").splitlines() if l.startswith("tilescope")]
    if not lines:
        return done.returncode, "(accepted)" if done.returncode == 0 else "(nothing)"
    # A notice ("opened FILE") may come before the error the case is about: show the error.
    errors = [l for l in lines if l.startswith("tilescope: error") or "cannot" in l]
    return done.returncode, sandbox.clean((errors or lines)[0])


# How the table names a special file of a GUI case.
SPECIAL_GIVEN = {"FIFO": "a FIFO", "BAD-DIR": "corrupt, beside a folder settings.json.bad",
                 "NO-HOME": "no HOME, no XDG_CONFIG_HOME"}


def shown(value):
    if value == "":
        return '""'
    return "`" + value.replace("|", "\\|").replace("`", "'") + "`"


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def build(binary):
    sandbox = Sandbox()
    rows, bad_exits = [], []
    try:
        for name, tried, value, command in flag_cases() + output_cases():
            status, message = run(binary, sandbox, command)
            rows.append((name, tried, shown(value), status, message))
        for name, tried, given, command in lesson_name_cases():
            status, message = run(binary, sandbox, command)
            rows.append((name, tried, given, status, message))
        for name, tried, value, command in stdout_cases():
            status, message = run(binary, sandbox, command, full_stdout=True)
            rows.append((name, tried, shown(value), status, message))
        for name, tried, contents, command in file_cases():
            status, message = run(binary, sandbox, command, contents)
            given = tried if isinstance(contents, str) else "%d bytes" % len(contents)
            rows.append((name, tried, given, status, message))
        for name, tried, value, command in device_cases():
            status, message = run(binary, sandbox, command)
            rows.append((name, tried, shown(value), status, message))
        display = Display()
        try:
            for name, tried, value, command in gui_action_cases():
                status, message = run_gui(binary, sandbox, display, command)
                rows.append((name, tried, shown(value), status, message))
            for name, tried, contents, command in gui_file_cases():
                status, message = run_gui(binary, sandbox, display, command, contents)
                given = SPECIAL_GIVEN.get(contents, tried) if isinstance(contents, str) else "%d bytes" % len(contents)
                rows.append((name, tried, given, status, message))
        finally:
            display.close()
    finally:
        sandbox.remove()
    lines = [
        "# Bad input: what TileScope says and how it exits",
        "",
        "Generated by `tests/app/bad_input_table.py BINARY --write docs/bad-inputs.md` from the cases in that",
        "script, run through the real binary (the `cli.bad_input_table` test fails when this file is stale or",
        "any case exits by a signal or above 123). Paths are shown as FILE, DIR, READ-ONLY (a folder nobody may write",
        "to), MISSING, LOOP (a symbolic link to itself) and NOENTRY (a folder nobody may enter); cases run as an",
        "unprivileged user. Standard output rows write into /dev/full and must not exit 0. Exit 2 is a usage",
        "error, 1 a failure, 3 no GPU",
        "(bench, on a machine without one: its arguments were all accepted); 0, \"(accepted)\", a value that",
        "is valid. No case exits above 123 or by a signal.",
        "",
        "GUI rows run the window under Xvfb for one frame at 1366x768 (its first line on standard error is the",
        "message). A GUI action refuses a bad argument with a message and the window goes on, as for a user; a",
        "scripted run (`--actions`) with a refused step exits 1 when it ends. A bad settings file is moved aside",
        "as settings.json.bad with a warning and the app starts (exit 0): settings never stop the app.",
        "",
        "| input | tried | given | exit | message |",
        "| --- | --- | --- | --- | --- |",
    ]
    inputs = []
    for name, tried, given, status, message in rows:
        if name not in inputs:
            inputs.append(name)
        if not 0 <= status <= 123:
            bad_exits.append("exit outside 1..123: %s, %s %s: exit %d (%s)" % (name, tried, given, status, message))
        # (A GUI action without an argument is how its key calls it; an empty settings file is a warning.)
        if name.startswith("standard output") and status == 0:
            bad_exits.append("%s: exit 0 though every write failed" % name)
        if tried == "empty" and status == 0 and not name.startswith(("settings file", "GUI action")):
            bad_exits.append("%s, empty %s: accepted as if not given" % (name, given))
        lines.append("| %s | %s | %s | %d | %s |" % (name, tried, cell(given), status, cell(message)))
    lines += ["", "Kinds that do not apply (n/a), by input:", ""]
    for name in inputs:
        tried_here = {r[1] for r in rows if r[0] == name}
        missing = [t for t in TRIED if t not in tried_here]
        if missing:
            lines.append("- %s: %s" % (name, ", ".join(missing)))
    lines += ["", "%d rows." % len(rows), ""]
    return "\n".join(lines), bad_exits, len(rows)


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in ("--write", "--check"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    binary, mode, table = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    text, bad_exits, count = build(binary)
    if mode == "--write":
        with open(table, "w") as f:
            f.write(text)
        print("wrote %s: %d rows" % (table, count))
    for bad in bad_exits:
        print("FAIL: " + bad)
    if mode == "--check":
        with open(table) as f:
            committed = f.read()
        old, new = committed.splitlines(), text.splitlines()
        if old != new:
            changed = [n for o, n in zip(old, new) if o != n][:5] or new[len(old):][:5]
            print("FAIL: %s is stale (rerun with --write); first changed rows:\n%s" % (table, "\n".join(changed)))
            return 1
    if bad_exits:
        return 1
    print("PASS: %d rows" % count)
    return 0

sys.exit(main())
