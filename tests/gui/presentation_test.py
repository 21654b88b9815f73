"""Presentation that holds together, at 1366x768 and 1920x1080: a panel opened from the View
menu joins the layout (no floating window over the others, presentation's type), and Reset
layout keeps it so; Ctrl+= / Ctrl+- zoom the focused panel only; a big ring follows the
pointer, which a projector does not show."""
import json
import os

from guitest import Run, check, run_tests

SIZES = {"1366x768": (1366, 768), "1920x1080": (1920, 1080)}
KEY = 'xdotool key --window "$win" %s; sleep 0.5'
SLACK = 2.0  # ImGui places windows at whole pixels


def overlap(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[1], b[1]) > SLACK


def check_tiled(state, label):
    panels = {key: p for key, p in state["lesson_panels"].items() if isinstance(p, dict) and p.get("visible")}
    check("counters" in panels, "%s: Counters is shown: %s" % (label, sorted(panels)))
    slot = state["layout"]["lesson_slots"]["Counters"]
    rect = panels["counters"]["rect"]
    check(all(abs(rect[i] - slot[i]) <= SLACK for i in range(4)), "%s: Counters sits in its slot %s: %s"
          % (label, slot, rect))
    keys = sorted(panels)
    clashes = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:] if overlap(panels[a]["rect"], panels[b]["rect"])]
    check(not clashes, "%s: no two panels overlap: %s" % (label, clashes))
    check(panels["counters"]["font_scale"] >= 0.75, "%s: Counters draws presentation's type (scale %.2f)"
          % (label, panels["counters"]["font_scale"]))


def test_a_panel_from_view_joins_the_layout(binary):
    for size, (width, height) in SIZES.items():
        run = Run(binary)
        opened = os.path.join(run.dir, "opened.json")
        status, _ = run.app("--width", str(width), "--height", str(height), "--presentation", "--lesson", "default",
                            "--frames", "3", "--actions",
                            "wait 3; panel-toggle counters; wait 4; dump-state %s; wait 1; reset-layout; wait 4" % opened)
        check(status == 0, "%s: the run ends well" % size)
        with open(opened) as f:
            check_tiled(json.load(f), size + " after View opened Counters")
        check_tiled(run.state(), size + " after Reset layout")


def test_keys_zoom_the_focused_panel_and_a_ring_follows_the_pointer(binary):
    for size, (width, height) in SIZES.items():
        run = Run(binary)
        # Presentation's default layout has Kernel source at the upper right.
        x, y = int(width * 0.7), int(height * 0.25)
        events = ['xdotool mousemove --window "$win" %d %d click 1; sleep 0.5' % (x, y),
                  KEY % "ctrl+equal", KEY % "ctrl+equal", KEY % "ctrl+minus",
                  'xdotool mousemove --window "$win" %d %d; sleep 0.5' % (x - 40, y + 30)]
        status = run.interact(["--width", str(width), "--height", str(height), "--presentation", "--lesson", "default"],
                              events, timeout=240)
        check(status == 0, "the app quits on a real Ctrl+Q")
        state = run.state()
        panels = state["lesson_panels"]
        zooms = {key: p.get("zoom") for key, p in panels.items() if isinstance(p, dict) and p.get("visible")}
        check(abs(zooms.get("kernel_source", 0) - 1.25) < 0.01 and all(z == 1.0 for k, z in zooms.items()
                                                                     if k != "kernel_source"),
              "%s: two Ctrl+= and one Ctrl+- zoom the clicked Kernel source one step, no other: %s" % (size, zooms))
        ring = state["pointer_ring"]
        check(ring["drawn"] and abs(ring["centre"][0] - (x - 40)) <= 2 and abs(ring["centre"][1] - (y + 30)) <= 2,
              "%s: the ring is at the pointer (%d, %d): %s" % (size, x - 40, y + 30, ring))
        check(ring["radius"] >= 1.5 * state["font_size"] - 0.5, "%s: the ring is big (radius %.0f px, text %.0f px)"
              % (size, ring["radius"], state["font_size"]))


if __name__ == "__main__":
    run_tests(globals())
