"""Readable on every screen: the lesson page at 1280x720, 1366x768 and 1920x1080, normal and
presentation, for the default, padded 6x5x7, TILE 16 race and naive lessons, mid-phase and at
the end. Every piece of text the panels draw is recorded against what the panel shows
(--dump-state's text_items and clipped_text); the test asserts no panel overlaps another, no
text is cut off anywhere, and the 4x4 matrices and 2x2 tiles are numbers. One launch per window
size walks every lesson and mode with the dump-state action, to keep CI on 2 cores short. A
narrow window proves the count can fail; a content scale of 2 (a high-DPI screen) keeps it 0."""
import json
import os

from guitest import Run, check, run_tests

LESSONS = ["default", "padded_6x5x7", "race_tile16", "naive"]
# Stops are events of the run, not step numbers: the first barrier release inside phase 1
# (the tiles loaded and multiplied), or for the naive kernel (no barriers) block 1's first
# instruction.
MID = {"naive": "run-until thread 1 0"}
MID_DEFAULT = "run-until phase 1; run-until release"
SETTLE = "wait 5"  # fonts are rebuilt, panels placed again and tables sized in the frames after a change
SMALL_LESSONS = ("default",)  # whose A, B, C are 4x4 and As, Bs 2x2
# Where a bigger lesson's matrices are still numbers: the padded 6x5x7 in the normal view of a
# 1920x1080 screen (its C, four digits wide, was once a heat map there, readable only by hovering).
NUMBERS_AT = {("padded_6x5x7", 1920, "normal")}


def overlap(r, s):
    return min(r[2], s[2]) - max(r[0], s[0]) > 1 and min(r[3], s[3]) - max(r[1], s[1]) > 1


def walk_script(folder):
    """Actions that visit every lesson mid-phase and at the end, normal and presentation,
    writing one state dump at each; returns (script, [(label, path)])."""
    steps, dumps = [], []

    def dump(label):
        path = os.path.join(folder, label + ".json")
        dumps.append((label, path))
        # The dump is written once the frame is drawn: the next action waits a frame for it.
        steps.extend([SETTLE, "dump-state " + path, "wait 1"])

    for lesson in LESSONS:
        steps.extend(["lesson-preset " + lesson, "reset", MID.get(lesson, MID_DEFAULT)])
        dump(lesson + " mid-phase normal")
        steps.append("presentation")
        dump(lesson + " mid-phase presentation")
        steps.append("run-to-end")
        dump(lesson + " end presentation")
        steps.append("presentation")
        dump(lesson + " end normal")
    return "; ".join(steps), dumps


def visible_panels(state):
    return {name: panel for name, panel in state["lesson_panels"].items() if panel.get("visible")}


def check_readable(state, label, lesson, numbers=False):
    panels = visible_panels(state)
    check(len(panels) >= 4, "%s: %d panels drawn" % (label, len(panels)))
    names = sorted(panels)
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
               if overlap(panels[a]["rect"], panels[b]["rect"])]
    check(not clashes, "%s: no panel overlaps another %s" % (label, clashes))
    width, height = state["window"]["width"], state["window"]["height"]
    outside = [n for n, p in panels.items()
               if p["rect"][0] < -0.5 or p["rect"][1] < -0.5 or p["rect"][2] > width + 0.5 or p["rect"][3] > height + 0.5]
    check(not outside, "%s: every panel lies inside the window %s" % (label, outside))
    check(all(p["text_items"] > 0 for p in panels.values()), "%s: every panel draws text" % label)
    clipped = {n: (p["clipped_text"], p["clipped_examples"]) for n, p in panels.items() if p["clipped_text"]}
    check(not clipped, "%s: no text cut off %s" % (label, clipped))
    if lesson in SMALL_LESSONS or numbers:
        check(panels["matrices"]["drawn_as"] == {"a": "values", "b": "values", "c": "values"},
              "%s: the matrices are numbers %s" % (label, panels["matrices"]["drawn_as"]))
    if lesson in SMALL_LESSONS:
        check(set(panels["shared_tiles"]["drawn_as"].values()) == {"values"},
              "%s: the 2x2 tiles are numbers: %s" % (label, panels["shared_tiles"]["drawn_as"]))


def walk(binary, width, height, *extra):
    run = Run(binary)
    script, dumps = walk_script(run.dir)
    status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", "--actions", script, *extra)
    check(status == 0, "%dx%d %s: the app walks every lesson and exits 0" % (width, height, " ".join(extra)))
    for label, path in dumps:
        with open(path) as f:
            state = json.load(f)
        lesson = label.split()[0]
        check(state["lesson"]["m"] > 0 and state["presentation"] == ("presentation" in label),
              "%dx%d %s: the dump is of that mode" % (width, height, label))
        mode = label.split()[-1]
        check_readable(state, "%dx%d %s %s" % (width, height, " ".join(extra), label), lesson,
                       (lesson, width, mode) in NUMBERS_AT)


def test_1280x720(binary):
    walk(binary, 1280, 720)


def test_1366x768(binary):
    walk(binary, 1366, 768)


def test_1920x1080(binary):
    walk(binary, 1920, 1080)


def test_live_page(binary):
    """The live GPU page, with the H100 run the README shows, normal and presentation."""
    run = Run(binary)
    saved = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "screenshots", "live-h100.json")
    normal = os.path.join(run.dir, "normal.json")
    status, _ = run.app("--width", "1366", "--height", "768", "--frames", "3", "--actions",
                        "page-live; live-load %s; %s; dump-state %s; wait 1; presentation; %s" %
                        (saved, SETTLE, normal, SETTLE))
    check(status == 0, "the live page opens the saved run")
    with open(normal) as f:
        states = [("normal", json.load(f)), ("presentation", run.state())]
    for mode, state in states:
        panels = {n: p for n, p in state["live_panels"].items() if p.get("visible")}
        check(panels and all(p["text_items"] > 0 for p in panels.values()), "live page %s: its panel draws text" % mode)
        clipped = {n: (p["clipped_text"], p["clipped_examples"]) for n, p in panels.items() if p["clipped_text"]}
        check(not clipped, "live page %s at 1366x768: no text cut off %s" % (mode, clipped))


def test_large_lesson(binary):
    """128x128x128 with TILE 16 on a laptop screen: seven-digit counts ("4194304 = 2·M·N·K" was
    cut at the Counters panel's edge) and heat maps, every figure still reachable."""
    run = Run(binary)
    status, _ = run.app("--width", "1366", "--height", "768", "--frames", "3",
                        "--actions", "lesson-set m=128 n=128 k=128 tile=16; run-until phase 3; " + SETTLE)
    state = run.state()
    check(status == 0 and state["lesson"]["m"] == 128, "a 128x128x128 lesson runs to phase 3")
    check_readable(state, "1366x768 128x128x128", "large")


def test_high_dpi(binary):
    """A 1366x768 laptop screen at content scale 2: twice the pixels, fonts twice as large."""
    run = Run(binary)
    status, _ = run.app("--width", "2732", "--height", "1536", "--content-scale", "2", "--frames", "3",
                        "--actions", "run-until phase 1; run-until release")
    state = run.state()
    check(status == 0 and state["content_scale"] == 2, "the app runs at content scale 2")
    check(state["font_size"] >= 2 * 16, "fonts scale with it: %s px" % state["font_size"])
    check_readable(state, "2732x1536 at scale 2", "default")


def test_narrow_window_counts_clipped_text(binary):
    """The negative control: in a window too narrow for its panels, text is cut and counted."""
    run = Run(binary)
    status, _ = run.app("--width", "640", "--height", "720", "--frames", "3",
                        "--actions", "run-until phase 1; run-until release")
    panels = visible_panels(run.state())
    clipped = sum(p["clipped_text"] for p in panels.values())
    check(status == 0 and clipped > 0, "a 640-pixel-wide window cuts text, and it is counted: %d" % clipped)
    check(all(len(p["clipped_examples"]) == min(p["clipped_text"], 5) for p in panels.values()),
          "each panel names what it cut")


if __name__ == "__main__":
    run_tests(globals())
