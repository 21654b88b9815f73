"""The Matrices panel never draws a grid or a name over another, and small matrices read: the
edges lesson at its unguarded stop (a kernel that rounds its phases down reads less of K than A
and B hold: C was drawn over B's last rows and A's last columns) and with the guard switched
back on, whose C of four-digit whole numbers was drawn 3.6 pixels tall as "1.06e+03" in
presentation; a 1024x32 A beside its C (their names overprinted); a 4x4 lesson's every stop at
1366x768 in presentation (once tiny heat maps), whose C digits stand at least 20 pixels tall.
Each at 1366x768 and 1920x1080, normal and presentation."""
import json
import os

from guitest import Run, check, run_tests

SIZES = ((1366, 768), (1920, 1080))
SETTLE = "wait 5"
EDGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons", "edges.json")
MIN_DIGIT_PIXELS = 20.0
# The edges lesson sets 7 columns of A beside 5 of C's four digits and 3 of its padding, next to
# the Guide and two panels that must stay whole (0.30 of the width each): 20-pixel digits would
# take about 750 of 1366 pixels. Its C reads as tall as its A and B: 11.25 pixels at 1366x768,
# 15.8 at 1920x1080 (3.6 at 1366x768 before, as "1.06e+03").
EDGES_MIN_DIGIT_PIXELS = 11.0


def overlap(r, s):
    return min(r[2], s[2]) - max(r[0], s[0]) > 0.5 and min(r[3], s[3]) - max(r[1], s[1]) > 0.5


def clashes(matrices):
    """Pairs of grids and names (A's grid, B's name, ...) that lie over each other."""
    rects = [("%s's grid" % k.upper(), r) for k, r in matrices["grids"].items()]
    rects += [("%s's name" % k.upper(), r) for k, r in matrices["names"].items()]
    return [(a, b) for i, (a, r) in enumerate(rects) for b, s in rects[i + 1:] if overlap(r, s)]


def dumps(binary, width, height, args, script):
    """Runs `script` (whose `dump N` steps name dumps) and returns [(label, state)]."""
    run = Run(binary)
    steps, paths = [], []
    for step in script:
        if step.startswith("dump "):
            path = os.path.join(run.dir, "%d.json" % len(paths))
            paths.append((step[5:], path))
            steps.extend([SETTLE, "dump-state " + path, "wait 1"])
        else:
            steps.append(step)
    status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", *args,
                        "--actions", "; ".join(steps))
    check(status == 0, "%dx%d %s: the app runs the script and exits 0" % (width, height, " ".join(args)))
    states = []
    for label, path in paths:
        with open(path) as f:
            states.append(("%dx%d %s" % (width, height, label), json.load(f)))
    return states


def test_edges_grids_apart(binary):
    script = ["dump unguarded normal", "presentation", "dump unguarded presentation", "toggle-guard",
              "dump guarded presentation", "presentation", "dump guarded normal"]
    for width, height in SIZES:
        for label, state in dumps(binary, width, height, ["--lesson", EDGES, "--stop", "4"], script):
            matrices = state["lesson_panels"]["matrices"]
            check(not clashes(matrices), "%s: no grid or name over another %s" % (label, clashes(matrices)))
            check(matrices["drawn_as"]["c"] == "values", "%s: the 6x5 C is its whole numbers %s" % (label, matrices["drawn_as"]))
            if "presentation" in label:
                digits = matrices["digit_pixels"]
                check(digits["c"] >= digits["a"] - 0.5, "%s: C's digits stand as tall as A's %s" % (label, digits))
                check(digits["c"] >= EDGES_MIN_DIGIT_PIXELS, "%s: C's digits stand %.1f px tall" % (label, digits["c"]))


def test_tall_a_names_apart(binary):
    script = ["guide-leave", "lesson-set m=1024 n=32 k=32 tile=16", "run-until phase 1", "dump normal", "presentation",
              "dump presentation"]
    for width, height in SIZES:
        for label, state in dumps(binary, width, height, [], script):
            matrices = state["lesson_panels"]["matrices"]
            check(state["lesson"]["m"] == 1024, "%s: the 1024x32x32 lesson is open" % label)
            check(not clashes(matrices), "%s: no grid or name over another %s" % (label, clashes(matrices)))


def test_small_lesson_numbers_read(binary):
    """Every stop of the default tour that shows Matrices, and the whole page."""
    for width, height in SIZES:
        for mode in ("normal", "presentation"):
            args = ["--presentation"] if mode == "presentation" else []
            states = []
            for stop in range(1, 11):
                states += dumps(binary, width, height, args + ["--stop", str(stop)], ["dump stop %d" % stop])
            states += dumps(binary, width, height, args, ["guide-leave", "run-until phase 1", "dump lesson page"])
            for label, state in states:
                matrices = state["lesson_panels"]["matrices"]
                if not matrices.get("visible"):
                    continue
                label += " " + mode
                check(matrices["drawn_as"] == {"a": "values", "b": "values", "c": "values"},
                      "%s: the 4x4 matrices are numbers %s" % (label, matrices["drawn_as"]))
                check(not clashes(matrices), "%s: no grid or name over another %s" % (label, clashes(matrices)))
                if (width, mode) == (1366, "presentation"):
                    digits = matrices["digit_pixels"]["c"]
                    check(digits >= MIN_DIGIT_PIXELS, "%s: C's digits stand %.1f px tall" % (label, digits))


if __name__ == "__main__":
    run_tests(globals())
