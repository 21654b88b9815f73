"""Every stop of every shipped tour is readable: for each lesson in assets/lessons/ with a
"tour", at 1920x1080 and 1366x768, normal and presentation, each stop's panels (and the Live
GPU page where a stop ends there) draw no text that is cut off (--dump-state's clipped_text,
the text recorder's count) and no panel overlaps another. One launch per lesson and window
size walks the stops with guide-stop, each in both modes, and a question's stop both as asked
and as revealed after a placeholder answer, writing a state dump at each.

`tour_screens_test.py BINARY [LESSON...] [--report]` walks the lessons named (all, if none),
and with --report prints each screen's clipped count as well. CTest runs it once per lesson, so
each run first checks that CMakeLists.txt lists every lesson with a tour, so a new one is walked too."""
import json
import os
import re
import sys

from guitest import Run, check, fail

LESSONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")
SIZES = [(1920, 1080), (1366, 768)]
SETTLE = "wait 10"  # a stop lays its panels out again, fonts settle and a presentation panel fits its text in the frames after it


def tours():
    """(lesson, number of stops) for every shipped lesson with a tour, by file name."""
    found = []
    for name in sorted(os.listdir(LESSONS)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(LESSONS, name)) as f:
            stops = json.load(f).get("tour")
        if stops:
            found.append((name[:-len(".json")], len(stops)))
    return found


def overlap(r, s):
    return min(r[2], s[2]) - max(r[0], s[0]) > 1 and min(r[3], s[3]) - max(r[1], s[1]) > 1


def visible(state):
    """Every panel drawn in the last frame, of the lesson page and the Live GPU page."""
    panels = {}
    for table in ("lesson_panels", "live_panels"):
        panels.update({name: p for name, p in state.get(table, {}).items() if p.get("visible")})
    return panels


def placeholder(question):
    """An answer the question accepts, right or not: what matters here is the reveal's text."""
    if question["kind"] == "number":
        return "0"
    if question["kind"] == "choice":
        return "1"
    space = re.search(r"\b(As|Bs|A|B|C)\[", question["prompt"])
    return (space.group(1) if space else "C") + "[0][0]"


def walk(binary, lesson, width, height):
    """Walks the lesson's stops at one size, each in normal and presentation mode, a question's
    stop both before it is answered and with its reveal; returns [(label, mode, stop, state)]."""
    with open(os.path.join(LESSONS, lesson + ".json")) as f:
        stops = json.load(f)["tour"]
    run = Run(binary, tour=True)
    script, dumps = [], []

    def dump(label, mode, stop):
        path = os.path.join(run.dir, "%d-%s-%s.json" % (stop, label, mode))
        dumps.append((label, mode, stop, path))
        # The dump is written once the frame is drawn: the next action waits a frame for it.
        script.extend([SETTLE, "dump-state " + path, "wait 1"])

    for number, stop in enumerate(stops, 1):
        question = stop.get("question")
        label = "asked" if question else "shown"
        script.append("guide-stop %d" % number)
        dump(label, "normal", number)
        script.append("presentation")
        dump(label, "presentation", number)
        if question:
            script.append("guide-answer " + placeholder(question))
            dump("revealed", "presentation", number)
        script.append("presentation")
        if question:
            dump("revealed", "normal", number)
    status, _ = run.app("--width", str(width), "--height", str(height), "--lesson", lesson,
                        "--frames", "3", "--actions", "; ".join(script))
    check(status == 0, "%s at %dx%d: the app walks its %d stops in both modes and exits 0" %
          (lesson, width, height, len(stops)))
    walked = []
    for label, mode, stop, path in dumps:
        with open(path) as f:
            walked.append((label, mode, stop, json.load(f)))
    return walked


def problems(state, mode, stop):
    """What is wrong with one stop's screen: the wrong stop or mode, overlaps, cut text."""
    found = []
    guide = state.get("guide", {})
    if guide.get("stop") != stop or state.get("presentation") != (mode == "presentation"):
        found.append("the dump is not of stop %d in %s mode: %s" % (stop, mode, guide))
    panels = visible(state)
    if not panels or not all(p["text_items"] > 0 for p in panels.values()):
        found.append("a panel draws no text: %s" % {n: p["text_items"] for n, p in panels.items()})
    names = sorted(panels)
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
               if overlap(panels[a]["rect"], panels[b]["rect"])]
    if clashes:
        found.append("panels overlap %s" % clashes)
    clipped = {n: (p["clipped_text"], p["clipped_examples"]) for n, p in panels.items() if p["clipped_text"]}
    if clipped:
        found.append("text cut off %s" % clipped)
    return found


def clipped_count(state):
    return sum(p["clipped_text"] for p in visible(state).values())


def listed_in_ctest():
    """The lessons tests/gui/CMakeLists.txt gives a tour_screens test each."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "CMakeLists.txt")) as f:
        found = re.search(r"foreach\(lesson ([^)]*)\)\s*\n\s*tilescope_gui_test\(tour_screens", f.read())
    return sorted(found.group(1).split()) if found else []


def main():
    binary = sys.argv[1]
    report = "--report" in sys.argv[2:]
    only = [a for a in sys.argv[2:] if not a.startswith("--")]
    shipped = [lesson for lesson, _ in tours()]
    check(listed_in_ctest() == shipped, "CTest walks every shipped tour: %s" % shipped)
    unknown = [lesson for lesson in only if lesson not in shipped]
    check(not unknown, "every lesson asked for has a tour %s" % unknown)
    failures = []
    for lesson, stops in tours():
        if only and lesson not in only:
            continue
        for width, height in SIZES:
            for shown, mode, stop, state in walk(binary, lesson, width, height):
                label = "%s stop %d of %d (%s), %s, %dx%d" % (lesson, stop, stops, shown, mode, width, height)
                if report:
                    smallest = min(p.get("font_scale", 1.0) for p in visible(state).values())
                    print("clipped %3d  font scale %.2f  %s" % (clipped_count(state), smallest, label))
                found = problems(state, mode, stop)
                if found:
                    failures.append(label + ": " + "; ".join(found))
                else:
                    print("ok: " + label + ": nothing cut off, no overlaps")
    if failures:
        fail("%d stop screens are not readable:\n  %s" % (len(failures), "\n  ".join(failures)))
    print("PASS")


if __name__ == "__main__":
    main()
