#!/usr/bin/env python3
"""Signals do not lose a student's work (issue 32): the window is stopped mid-lesson, after
answering questions of the default lesson's tour, by SIGTERM, SIGINT, SIGHUP or the loss of its
X server, at a random moment; the next start must find the answers and the tour's stop intact.

  signal_soak_test.py TILESCOPE [ROUNDS] [SEED]   (default 1 round of the four ways; seed 1)

Each round runs every way once, each on an X server and a settings folder of its own. Prints
one line per run and the figures: runs, intact, by way. CI runs one round (gui.signal_soak);
more rounds give the figures for the notes (docs/results/signal-soak-2026-11-28.txt: 5 rounds).
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guitest import check, fail  # noqa: E402

# Questions of the default lesson's tour and what is typed: right or wrong, each is recorded.
ANSWERS = [(1, "0"), (3, "1"), (4, "0")]
WAYS = ["SIGTERM", "SIGINT", "SIGHUP", "X server lost"]


class XServer:
    def __init__(self):
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten",
                                         "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as answer:
            number = answer.readline().strip()
        if not number:
            fail("Xvfb did not start")
        self.display = ":" + number

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait()


def script(final_stop, mark):
    steps = []
    for stop, text in ANSWERS:
        steps += ["guide-stop %d" % stop, "guide-answer " + text, "wait 2"]
    # Mid-lesson: at a later stop, a few steps into its run; then the window waits for the signal.
    steps += ["guide-stop %d" % final_stop, "step", "step", "wait 2", "dump-state " + mark, "wait 100000000"]
    return "; ".join(steps)


def one_run(binary, way, final_stop, delay):
    folder = tempfile.mkdtemp(prefix="tilescope-signal-")
    config = os.path.join(folder, "config")
    os.makedirs(config)
    mark = os.path.join(folder, "answered.json")
    env = dict(os.environ, XDG_CONFIG_HOME=config, MESA_SHADER_CACHE_DISABLE="true")
    server = XServer()
    try:
        app = subprocess.Popen([binary, "--lesson", "default", "--width", "1366", "--height", "768", "--actions",
                                script(final_stop, mark)], env=dict(env, DISPLAY=server.display),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 120
        while not os.path.exists(mark) and app.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        if not os.path.exists(mark):
            app.kill()
            fail("%s: the window never reached its stop: %s" % (way, app.communicate()[0]))
        time.sleep(delay)
        if way == "X server lost":
            server.process.kill()
        else:
            app.send_signal(getattr(signal, way))
        try:
            output = app.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            app.kill()
            fail("%s: the window did not exit within 30 s" % way)
    finally:
        server.stop()
    status = app.returncode
    again = XServer()
    after = os.path.join(folder, "after.json")
    try:
        restart = subprocess.run([binary, "--frames", "3", "--dump-state", after], env=dict(env, DISPLAY=again.display),
                                 capture_output=True, text=True, timeout=120)
    finally:
        again.stop()
    guide = {}
    if restart.returncode == 0 and os.path.exists(after):
        with open(after) as f:
            guide = json.load(f).get("guide", {})
    with open(os.path.join(config, "tilescope", "settings.json")) as f:
        saved = json.load(f)["panels"]["guide"]["lessons"]["default"]
    shutil.rmtree(folder, ignore_errors=True)
    intact = (guide.get("stop") == final_stop and guide.get("score", {}).get("answered") == len(ANSWERS) and
              saved["answers"] == {str(stop): text for stop, text in ANSWERS})
    print("%-14s stop %2d, %.2f s after the last answer: exit %d; next start at stop %s with %s answered: %s" % (
        way, final_stop, delay, status, guide.get("stop"), guide.get("score", {}).get("answered"),
        "intact" if intact else "LOST\n" + output))
    return intact, status


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    figures = {way: [0, 0] for way in WAYS}
    for _ in range(rounds):
        for way in WAYS:
            intact, status = one_run(binary, way, rng.randint(5, 10), rng.uniform(0.0, 1.5))
            figures[way][0] += 1
            figures[way][1] += 1 if intact else 0
            if way != "X server lost":
                expected = 128 + getattr(signal, way)
                check(status == expected, "%s: exit %d, as a shell reports the signal (%d)" % (way, status, expected))
    runs = sum(f[0] for f in figures.values())
    intact = sum(f[1] for f in figures.values())
    print("runs %d, intact %d (%s)" % (runs, intact, ", ".join("%s %d/%d" % (w, f[1], f[0]) for w, f in figures.items())))
    check(intact == runs, "every run's answers and stop survive the signal")
    print("PASS")
    return 0


sys.exit(main())
