#!/usr/bin/env python3
"""Ctrl+C during a long model run of `tilescope verify` (a large test-vector file) or
`tilescope trace` (a 512³ lesson): on a terminal a progress line shows how far the model is;
the first SIGINT stops the model between steps, the command says where it stopped and exits
130, long before the run would have ended. With stderr not a terminal (a log, a pipe) no
progress line is written.

Usage: interrupt_test.py TILESCOPE verify|trace
Prints PASS, or FAIL: with the reason.
"""
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from verdict import check, fail  # noqa: E402

TILESCOPE, COMMAND = sys.argv[1], sys.argv[2]
# 512³ on the model: 8 times the 256³ run (0.34 s), 300 MB, seconds on an idle machine
# (11 s on the loaded 2-core one); the test stops it at its first progress line.
SIZE = 512
STOP_WITHIN_S = 10


def write_case(path, n):
    """One n×n×n case of zeros: the header (M, N inner, K) and A, B, C."""
    with open(path, "wb") as f:
        f.write(struct.pack("<iii", n, n, n))
        f.write(b"\0" * (4 * 3 * n * n))


def read_until(fd, needle, timeout):
    """Reads the terminal's output until `needle` appears; returns all of it."""
    text, deadline = b"", time.time() + timeout
    while needle not in text and time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                text += os.read(fd, 4096)
            except OSError:
                break
    return text.decode(errors="replace")


def stop(process, controller, ends_with):
    """Sends Ctrl+C's signal; returns stdout, the terminal's text up to `ends_with`, and how long it took."""
    process.send_signal(signal.SIGINT)
    start = time.time()
    try:
        stdout, _ = process.communicate(timeout=STOP_WITHIN_S)
    except subprocess.TimeoutExpired:
        process.kill()
        fail("%s still ran %d s after Ctrl+C" % (COMMAND, STOP_WITHIN_S))
    stopped_after = time.time() - start
    message = read_until(controller, ends_with, 5)
    print("stopped %.2f s after Ctrl+C; stdout:\n%s\nstderr:\n%s" % (stopped_after, stdout, message))
    check(process.returncode == 130, "exit status 130 after Ctrl+C (not killed by the signal): %d" % process.returncode)
    return stdout, message


def check_verify():
    folder = tempfile.mkdtemp(prefix="tilescope-verify-")
    path = os.path.join(folder, "big.bin")
    write_case(path, SIZE)

    # stderr on a terminal: the progress line, then Ctrl+C.
    controller, terminal = pty.openpty()
    verify = subprocess.Popen([TILESCOPE, "verify", path], stdout=subprocess.PIPE, stderr=terminal, text=True)
    os.close(terminal)
    shown = read_until(controller, b"% (Ctrl+C stops)", 120)
    check("case 1 of 1 (M=%d K=%d N=%d) on the model: " % (SIZE, SIZE, SIZE) in shown,
           "a progress line names the case and its sizes: %r" % shown[-120:])
    stdout, message = stop(verify, controller, b"not checked")
    check("stopped by Ctrl+C at case 1 of 1" in message, "the message says where it stopped")
    check("0 passed, 0 failed" in stdout, "the count of what was checked is still printed")

    # stderr a pipe: no progress line at all. stdout on a terminal, so its header (printed
    # once Ctrl+C is caught) tells when to interrupt.
    controller, terminal = pty.openpty()
    quiet = subprocess.Popen([TILESCOPE, "verify", path], stdout=terminal, stderr=subprocess.PIPE, text=True)
    os.close(terminal)
    read_until(controller, b"tolerance per element", 60)
    quiet.send_signal(signal.SIGINT)
    _, stderr = quiet.communicate(timeout=STOP_WITHIN_S)
    check(quiet.returncode == 130 and "%" not in stderr and "\r" not in stderr,
           "with stderr not a terminal: no progress line, still exit 130: %r" % stderr)


def check_trace():
    lesson = ["trace", "-m", str(SIZE), "-n", str(SIZE), "-k", str(SIZE), "--tile", "16"]
    controller, terminal = pty.openpty()
    trace = subprocess.Popen([TILESCOPE] + lesson, stdout=subprocess.PIPE, stderr=terminal, text=True)
    os.close(terminal)
    shown = read_until(controller, b"% (Ctrl+C stops)", 120)
    check("running the lesson on the model: step " in shown, "a progress line says how far the run is: %r" % shown[-120:])
    stdout, message = stop(trace, controller, b"printed")
    check("stopped by Ctrl+C at step " in message and "of the lesson's run" in message,
           "the message says where it stopped")
    check(stdout == "", "no half-run walkthrough is printed")

    # stderr a pipe: no progress line. Nothing tells when the run has begun, so the signal
    # comes after a second, still well inside the run.
    quiet = subprocess.Popen([TILESCOPE] + lesson, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    quiet.send_signal(signal.SIGINT)
    _, stderr = quiet.communicate(timeout=STOP_WITHIN_S)
    check(quiet.returncode == 130 and "%" in stderr and "\r" not in stderr and "(Ctrl+C stops)" not in stderr,
           "with stderr not a terminal: no progress line, only the message, still exit 130: %r" % stderr)


{"verify": check_verify, "trace": check_trace}[COMMAND]()
print("PASS")
