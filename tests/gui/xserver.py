#!/usr/bin/env python3
"""Runs a command with DISPLAY set to an X server of its own (Xvfb, 1920x1080, 24 bits), then
stops the server; exits with the command's status.

  xserver.py [--screen WIDTHxHEIGHT] COMMAND [ARGS...]

Xvfb chooses a free display number itself and writes it to a pipe (-displayfd), so two of these
never race for one, as two `xvfb-run -a` can: the GUI tests run side by side under CTest -j
instead of one at a time. The server has no access control file, so a command that drops to
another user (the tests of read-only folders, as nobody) may draw on it too.
"""
import ctypes
import os
import signal
import subprocess
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent():
    """In the server's child before exec: a test that times out kills this script with SIGKILL,
    which it cannot catch; the kernel then stops the server too, so no Xvfb is left behind."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def main():
    command, screen = sys.argv[1:], "1920x1080"
    if command[:1] == ["--screen"]:
        screen, command = command[1], command[2:]
    if not command:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen + "x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              preexec_fn=die_with_parent)
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    if not number:
        print("xserver.py: Xvfb did not start (status %s)" % server.wait(), file=sys.stderr)
        return 1
    try:
        env = dict(os.environ, DISPLAY=":" + number)
        env.pop("XAUTHORITY", None)
        return subprocess.run(command, env=env).returncode
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
