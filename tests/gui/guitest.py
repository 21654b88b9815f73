"""Helpers for TileScope's GUI tests: run the real app under Xvfb, read its PNG and state.

Each test starts the real binary in a real X server (Xvfb through xserver.py, Mesa llvmpipe) with an empty
XDG_CONFIG_HOME, so no user's settings leak in, and checks what a user would see: pixels of
the screenshot the app saved, and the JSON of what its panels show.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from verdict import check, fail  # noqa: E402

# The command prefix that runs a command on an X server of its own (xserver.py: 1920x1080).
XVFB = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "xserver.py")]

# The Live GPU page, on a PC without a GPU, opens on the shipped H100 run, and its model link
# counts four kernels' global reads at 256³ on the model: 15 s of CPU in Release, several times
# that under the sanitizers, which a scripted run waits for. A run that checks nothing of the
# link appends this once the page has drawn: the link takes the closed form at 8192 and the
# count in flight is cancelled at exit. test_loaded_sweep_draws_lines checks the model's count.
LINK_BY_FORMULA = "wait 1; live-model-size 8192"


class Run:
    """One run of the app: its folder, settings folder, exit status and output.

    A lesson with a tour (lesson 1, `default`) opens at its stop with only that stop's panels;
    tests of the whole window start, unless `tour` is set, from the settings of a user who
    left the tour once (G), so every lesson opens with every panel."""

    def __init__(self, binary, config_home=None, tour=False):
        self.binary = binary
        self.dir = tempfile.mkdtemp(prefix="tilescope-gui-")
        fresh = config_home is None
        self.config_home = config_home or os.path.join(self.dir, "config")
        os.makedirs(self.config_home, exist_ok=True)
        if fresh and not tour:
            os.makedirs(os.path.join(self.config_home, "tilescope"))
            with open(os.path.join(self.config_home, "tilescope", "settings.json"), "w") as f:
                json.dump({"version": 1, "panels": {"guide": {"follow": False}}}, f)
        self.env = dict(os.environ, XDG_CONFIG_HOME=self.config_home)
        self.screenshot = os.path.join(self.dir, "shot.png")
        self.state_file = os.path.join(self.dir, "state.json")

    def app(self, *args, timeout=300, screen=None):
        """Runs the app to completion under Xvfb (1920x1080, or `screen` as "WxH"); returns
        (status, output)."""
        # The app's own status, printed by a shell inside the X server's wrapper, so a status
        # of the wrapper's own can never pass for the app's.
        script = '"$@"; echo "app-exit-status: $?" >&2'
        command = XVFB + (["--screen", screen] if screen else []) + ["sh", "-c", script, "-", self.binary,
                                                                     "--dump-state", self.state_file] + list(args)
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=timeout)
        output = done.stdout + done.stderr
        print(output)
        found = re.findall(r"^app-exit-status: (\d+)$", done.stderr, re.MULTILINE)
        status = int(found[-1]) if found else done.returncode
        output = re.sub(r"^app-exit-status: \d+\n", "", output, flags=re.MULTILINE)
        return status, output

    def interact(self, app_args, events, timeout=180):
        """Starts the app under Xvfb, waits for its ready line (the view the command line asked
        for is on screen: a --stop waits for its tour), focuses its window and runs
        `events`, shell lines of xdotool commands on the window "$win"; then quits with a real
        Ctrl+Q. Prints the output and the app's log; returns the exit status."""
        log = os.path.join(self.dir, "app.log")
        script = "\n".join([
            '"$@" --dump-state "$STATE" > "$LOG" 2>&1 &',
            "app=$!",
            'for i in $(seq 1 300); do grep -q "tilescope: ready" "$LOG" && break; sleep 0.1; done',
            "win=$(xdotool search --sync --name '^TileScope$' | head -n 1)",
            'xdotool windowfocus --sync "$win"',
        ] + list(events) + ['xdotool key --window "$win" ctrl+q', "wait $app"])
        env = dict(self.env, STATE=self.state_file, LOG=log)
        command = XVFB + ["bash", "-c", script, "-", self.binary] + list(app_args)
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
        print(done.stdout + done.stderr)
        with open(log) as f:
            print(f.read())
        return done.returncode

    def state(self):
        with open(self.state_file) as f:
            return json.load(f)


def read_png(path):
    """Decodes an 8-bit RGB/RGBA, non-interlaced PNG (what stb_image_write produces)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def region_colours(png, x0, y0, x1, y1):
    """The set of distinct RGB colours in a rectangle of a decoded PNG."""
    _, _, channels, rows = png
    colours = set()
    for y in range(y0, y1):
        row = rows[y]
        for x in range(x0, x1):
            colours.add(tuple(row[x * channels:x * channels + 3]))
    return colours


def run_tests(module_globals):
    """Runs every test_* function of a test script on the binary named on its command line."""
    binary = sys.argv[1]
    for name, test in sorted(module_globals.items()):
        if name.startswith("test_"):
            print("== " + name)
            test(binary)
    print("PASS")
