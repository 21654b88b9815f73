#!/usr/bin/env python3
"""The bad-input table (docs/bad-inputs.md), made by running every case below through the
real `tilescope` binary: each command-line flag and file kind × what was tried → the
message and the exit status.

  bad_input_table.py TILESCOPE --write docs/bad-inputs.md   regenerate the table
  bad_input_table.py TILESCOPE --check docs/bad-inputs.md   the test: PASS, or FAIL: with why

The check fails when a case exits by a signal or above 123 (a crash, an abort) or
when the committed table differs from what the binary says today (rerun --write).
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

# What was tried, in the table's column order.
TRIED = ["0", "negative", "huge", "NaN/inf", "wrong type", "truncated", "empty", "garbage", "directory",
         "unreadable", "read-only output"]
NUMBER_VALUES = [("0", "0"), ("negative", "-1"), ("huge", "18446744073709551615"), ("NaN/inf", "nan"),
                 ("NaN/inf", "inf"), ("wrong type", "four"), ("empty", ""), ("garbage", "12abc")]
NUMBER_NA = ["truncated", "directory", "unreadable", "read-only output"]
NAME_VALUES = [("0", "0"), ("wrong type", "4"), ("empty", ""), ("garbage", "\u00ff\u00fe")]
NAME_NA = ["negative", "huge", "NaN/inf", "truncated", "directory", "unreadable", "read-only output"]


def vectors(m, inner, k, values=None, cut=0):
    """Seed 003's format: int32 M, N (inner), K; A M×N, B N×K, C M×K as float32."""
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
        ("NaN/inf", '{"m": 1e400}'), ("wrong type", '{"m": "four"}'), ("truncated", '{"m": 4, "n"'),
        ("empty", ""), ("garbage", "\x89PNG\r\n\x1a\n"), ("directory", "DIR"), ("unreadable", "UNREADABLE"),
    ]
    inf_a = [1.0] * (2 * 2 * 3)
    inf_a[0] = float("inf")
    vector_files = [
        ("0", vectors(0, 2, 2)), ("negative", struct.pack("<iii", -1, 2, 2)),
        ("huge", struct.pack("<iii", 2 ** 30, 2 ** 30, 3 * 2 ** 29)), ("NaN/inf", vectors(2, 2, 2, inf_a)),
        ("wrong type", b'{"m": 4}'), ("truncated", vectors(2, 2, 2, cut=2)), ("empty", b""),
        ("garbage", b"\x00\x01\x02\x03\x04\x05\x06"), ("directory", "DIR"), ("unreadable", "UNREADABLE"),
    ]
    cases = []
    for tried, text in lesson:
        contents = text if text in ("DIR", "UNREADABLE") else text.encode("latin-1")
        cases.append(("lesson file (`trace --lesson FILE`)", tried, contents, ["trace", "--lesson", "FILE"]))
    for tried, contents in vector_files:
        cases.append(("test vectors (`verify FILE`)", tried, contents, ["verify", "FILE"]))
        cases.append(("test vectors (`trace --fill file:FILE`)", tried, contents, ["trace", "--fill", "file:FILE"]))
    return cases


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
    for tried, value in NAME_VALUES:
        cases.append(("`occupancy --gpu`", tried, value, ["occupancy", "--gpu", value]))
    for flag in ("--frames", "--width", "--height", "--bench-frames", "--content-scale"):
        for tried, value in NUMBER_VALUES:
            cases.append(("`tilescope %s` (GUI)" % flag, tried, value, [flag, value]))
    return cases


def output_cases():
    """--json FILE of trace: where it cannot be written."""
    return [
        ("`trace --json FILE` (output)", "empty", "", ["trace", "--json", ""]),
        ("`trace --json FILE` (output)", "directory", "DIR", ["trace", "--json", "DIR"]),
        ("`trace --json FILE` (output)", "read-only output", "READ-ONLY/trace.json", ["trace", "--json", "READ-ONLY/trace.json"]),
        ("`trace --json FILE` (output)", "unreadable", "MISSING/trace.json", ["trace", "--json", "MISSING/trace.json"]),
    ]


def as_nobody():
    """Root reads and writes any file: the case runs as nobody, so "unreadable" and
    "read-only" mean the same on every machine."""
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
        self.good_vectors = os.path.join(self.root, "good.bin")
        with open(self.good_vectors, "wb") as f:
            f.write(vectors(2, 2, 2, [1.0] * 8 + [2.0] * 4))

    def file_for(self, contents):
        if contents == "DIR":
            return self.dir
        path = os.path.join(self.root, "FILE")
        if os.path.exists(path):
            os.chmod(path, 0o644)
            os.remove(path)
        with open(path, "wb") as f:
            f.write(b"" if contents == "UNREADABLE" else contents)
        os.chmod(path, 0o000 if contents == "UNREADABLE" else 0o644)
        return path

    def args(self, command, path):
        def one(arg):
            arg = arg.replace("FILE", path)
            for name in ("DIR", "READ-ONLY", "MISSING"):
                arg = arg.replace(name, os.path.join(self.root, name)) if arg.startswith(name) else arg
            return arg
        return [one(a) for a in command]

    def clean(self, text):
        text = text.replace(os.path.join(self.root, "FILE"), "FILE")
        for name in ("DIR", "READ-ONLY", "MISSING"):
            text = text.replace(os.path.join(self.root, name), name)
        return text.replace(self.root, "SANDBOX")

    def remove(self):
        os.chmod(self.read_only, 0o755)
        shutil.rmtree(self.root, ignore_errors=True)


# Lines `verify` prints before any case: not the message.
PREAMBLE = ("verifying ", "sizes as TileScope names them", "tolerance per element")


def message_of(stdout, stderr):
    lines = [l for l in stderr.splitlines() if l.strip()]
    if not lines:
        lines = [l for l in stdout.splitlines() if l.strip() and not l.startswith(PREAMBLE)]
    return lines[0].strip() if lines else "(nothing)"


def run(binary, sandbox, command, contents=None):
    path = sandbox.file_for(contents) if contents is not None else sandbox.good_vectors
    # No display and no GPU: a value that is accepted ends at "cannot open a window" (GUI
    # flags) or "no GPU to run on" (bench) the same way on every machine.
    env = dict(os.environ, DISPLAY="", WAYLAND_DISPLAY="", CUDA_VISIBLE_DEVICES="")
    done = subprocess.run([binary] + sandbox.args(command, path), capture_output=True, timeout=120,
                          preexec_fn=as_nobody, env=env)
    if done.returncode == 0:
        return 0, "(accepted)"
    stdout, stderr = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    message = sandbox.clean(message_of(stdout, stderr))
    no_gpu = "no GPU to run on"
    return done.returncode, message[:message.index(no_gpu) + len(no_gpu)] if no_gpu in message else message


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
        for name, tried, contents, command in file_cases():
            status, message = run(binary, sandbox, command, contents)
            given = tried if isinstance(contents, str) else "%d bytes" % len(contents)
            rows.append((name, tried, given, status, message))
    finally:
        sandbox.remove()
    lines = [
        "# Bad input: what TileScope says and how it exits",
        "",
        "Generated by `tests/app/bad_input_table.py BINARY --write docs/bad-inputs.md` from the cases in that",
        "script, run through the real binary (the `cli.bad_input_table` test fails when this file is stale or",
        "any case exits by a signal or above 123). Paths are shown as FILE, DIR, READ-ONLY (a folder nobody may write",
        "to) and MISSING; cases run as an unprivileged user. Exit 2 is a usage error, 1 a failure, 3 no GPU",
        "(bench, on a machine without one: its arguments were all accepted); 0, \"(accepted)\", a value that",
        "is valid. No case exits above 123 or by a signal.",
        "",
        "| input | tried | given | exit | message |",
        "| --- | --- | --- | --- | --- |",
    ]
    inputs = []
    for name, tried, given, status, message in rows:
        if name not in inputs:
            inputs.append(name)
        if not 0 <= status <= 123:
            bad_exits.append("%s, %s %s: exit %d (%s)" % (name, tried, given, status, message))
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
    binary, mode, table = sys.argv[1], sys.argv[2], sys.argv[3]
    text, bad_exits, count = build(binary)
    if mode == "--write":
        with open(table, "w") as f:
            f.write(text)
        print("wrote %s: %d rows" % (table, count))
    for bad in bad_exits:
        print("FAIL: exit outside 1..123: " + bad)
    if mode == "--check":
        with open(table) as f:
            committed = f.read()
        if committed != text:
            old, new = committed.splitlines(), text.splitlines()
            changed = [n for o, n in zip(old, new) if o != n][:5]
            print("FAIL: %s is stale (rerun with --write); first changed rows:\n%s" % (table, "\n".join(changed)))
            return 1
    if bad_exits:
        return 1
    print("PASS: %d rows" % count)
    return 0


sys.exit(main())
