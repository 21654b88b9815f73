"""Every stop of every shipped tour is readable: for each lesson in assets/lessons/ with a
"tour", at 1920x1080 and 1366x768, normal and presentation, each stop's panels (and the Live
GPU page where a stop ends there) draw no text that is cut off (--dump-state's clipped_text,
the text recorder's count) and no panel overlaps another; and at a question's stop, before the
reveal, no panel but the Guide states the answer where it would say it (the text recorder's
shown_text against the model's answer from the reveal: Controls' "phase 1 of 2", a Hazards
tally, a Counters row, an Occupancy figure, the Matrices' count of wrong elements). One launch per lesson and window
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


# Lesson fields: a query argument naming one asks about the lesson so edited, not the one on
# screen (shared.read's tile=As names a tile, not the lesson's TILE).
LESSON_FIELDS = {"m", "n", "k", "tile", "tm", "tn", "tk", "kernel", "barrier1", "barrier2", "guard", "tiles",
                 "scheduler", "seed", "fill_a", "fill_b", "bs_layout"}

# How the panels state a query's value, {v} standing for it: Controls' "phase 1 of 2", Hazards'
# "4 hazards: 0 RAW, 4 WAR", Counters' "Tiling reads 2.00× fewer (64 vs 128)", Occupancy's
# "512 B shared", Matrices' "✗ 12 of 16 elements wrong". A value drawn bare in a cell (a C
# element, a partial sum) cannot be told from the other cells and is left out.
STATED = {
    "phases": [r"\bphase \d+ of {v}\b"],
    "hazards": [r"^{v} hazards?:"],
    "hazard.kinds": [r"\b[1-9]\d* {v}\b", r"\b{v} (warning|error)\b"],
    "reads.saving": [r"\b{v}(\.\d+)?× fewer"],
    "reads.tiled": [r"\({v} vs \d+\)"],
    "reads": [r"\({v} vs \d+\)"],
    "reads.naive": [r"\(\d+ vs {v}\)"],
    "reads.per_element": [r"\bthis kernel {v}\b"],
    "reads.tiled.per_element": [r"\bthis kernel {v}\b"],
    "shared.bytes": [r"\b{v} B shared\b"],
    "threads.per_block": [r"\b{v} threads ·"],
    "warps.per_block": [r"· {v} warps\b"],
    "bank.ways": [r"\b{v}-way\b"],
    "c.wrong.count": [r"\b{v} of \d+ elements wrong"],
}
# Table rows: the label a panel draws, then the figures of its row.
ROW_LABELS = {"reads": "global reads", "reads.a": "global reads of A", "reads.b": "global reads of B",
              "sectors": "32-byte sectors", "bank.conflicts": "bank conflicts", "shared.reads": "shared reads"}
GPU_LABELS = {"t4": "T4", "a100": "A100", "rtx4090": "RTX 4090", "h100": "H100"}


def asks_about_the_screen(query):
    """Whether a question's query asks about the lesson on screen (no lesson field among its
    arguments): only then can a panel of the stop state its answer."""
    for word in query.split()[1:]:
        key, _, value = word.partition("=")
        if key in LESSON_FIELDS and not (key == "tile" and value in ("As", "Bs")):
            return False
    return True


def answer_words(question, revealed):
    """The model's answer as panels would word it: a choice's value, else the reveal's text."""
    right = revealed["answer"]["right"]
    if question["kind"] == "choice":
        for choice in question["choices"]:
            if right == choice["text"] or right.startswith(choice["text"]):
                return [str(choice["value"])]
    if question["query"].split()[0] == "hazard.kinds":
        return right.split(" and ")
    return [right.replace("\u00d7", "")]


def occupancy_statement(shown, gpu, value, panel):
    """Occupancy's table has a column per GPU (its name on two lines) and a row per figure, the
    "blocks" row first: the GPU's cell of that row, when it holds the value."""
    cells = [text.replace("\n", " ").strip() for text in shown]
    if "SM holds" not in cells or gpu not in cells or "blocks" not in cells:
        return []
    at = cells.index("blocks") + cells.index(gpu) - cells.index("SM holds")
    return [(panel, "%s blocks %s" % (gpu, value))] if at < len(cells) and cells[at] == value else []


def statements(question, revealed, state):
    """Where a panel other than the Guide states the question's answer before the reveal:
    [(panel, text)]. The Guide's own words are the CPU test's (Tour.NoQuestionStopShows...)."""
    query = question["query"]
    if not asks_about_the_screen(query):
        return []
    name = query.split()[0]
    arguments = dict(word.partition("=")[::2] for word in query.split()[1:])
    found = []
    for panel, p in visible(state).items():
        if panel == "guide":
            continue
        shown = p.get("shown_text", [])
        for value in answer_words(question, revealed):
            for pattern in STATED.get(name, []):
                regex = re.compile(pattern.format(v=re.escape(value)))
                found += [(panel, text) for text in shown if regex.search(text)]
            label = ROW_LABELS.get(name)
            found += [(panel, " ".join(shown[i:i + 2])) for i, text in enumerate(shown[:-1])
                      if label and text.strip() == label and value in [t.strip() for t in shown[i + 1:i + 4]]]
            if name == "occupancy.blocks_per_sm":
                found += occupancy_statement(shown, GPU_LABELS[arguments.get("gpu", "h100")], value, panel)
        if name == "c.outcome":  # the Matrices' count of wrong elements, once C is final for "right"
            said = answer_words(question, revealed)[0]
            finished = any("0 partial, 0 not started" in text for text in shown)
            for text in shown:
                wrong = re.search(r"\b[1-9]\d* of \d+ elements wrong", text)
                right = finished and re.search(r"(?<!\d)0 of \d+ elements wrong", text)
                if (said == "wrong" and wrong) or (said == "right" and right):
                    found.append((panel, text))
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
        with open(os.path.join(LESSONS, lesson + ".json")) as f:
            questions = {i + 1: stop.get("question") for i, stop in enumerate(json.load(f)["tour"])}
        for width, height in SIZES:
            walked = walk(binary, lesson, width, height)
            revealed = {(mode, stop): state["guide"] for shown, mode, stop, state in walked if shown == "revealed"}
            for shown, mode, stop, state in walked:
                label = "%s stop %d of %d (%s), %s, %dx%d" % (lesson, stop, stops, shown, mode, width, height)
                if report:
                    smallest = min(p.get("font_scale", 1.0) for p in visible(state).values())
                    print("clipped %3d  font scale %.2f  %s" % (clipped_count(state), smallest, label))
                found = problems(state, mode, stop)
                if shown == "asked":
                    given = statements(questions[stop], revealed[(mode, stop)], state)
                    if given:
                        found.append("a panel states the answer before the reveal: %s" % given[:3])
                if found:
                    failures.append(label + ": " + "; ".join(found))
                else:
                    print("ok: " + label + ": nothing cut off, no overlaps" +
                          (", no panel states the answer" if shown == "asked" else ""))
    if failures:
        fail("%d stop screens are not readable:\n  %s" % (len(failures), "\n  ".join(failures)))
    print("PASS")


if __name__ == "__main__":
    main()
