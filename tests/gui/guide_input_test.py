"""Every way of answering by real input (xdotool), beside gui.guide's typed answers: a cells
question answered by clicking the cells in Shared tiles, and a choice by ↑/↓ and Enter, one
right and one wrong; the Guide's reveal and score show each. Nothing is chosen beforehand at
any shipped choice question, and Enter on the empty field answers nothing.

What is right is never written here: a scripted run answers each question with a placeholder
and reads the model's answer from the reveal."""
import json
import os

from guitest import Run, check, run_tests

LESSONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")
SIZE = ["--width", "1920", "--height", "1080"]


def stops_of(kind, lesson="default"):
    with open(os.path.join(LESSONS, lesson + ".json")) as f:
        tour = json.load(f).get("tour", [])
    return [i + 1 for i, stop in enumerate(tour) if stop.get("question", {}).get("kind") == kind]


def revealed(binary, stop, placeholder, lesson="default"):
    """A lesson at `stop` (1-based) before and after a placeholder answer: (before, after) dumps."""
    run = Run(binary, tour=True)
    before = os.path.join(run.dir, "before.json")
    status, _ = run.app(*SIZE, "--lesson", lesson, "--stop", str(stop), "--frames", "3", "--actions",
                        "guide-stop %d; dump-state %s; wait 1; guide-answer %s; wait 2" % (stop, before, placeholder))
    check(status == 0, "a scripted run answers stop %d" % stop)
    with open(before) as f:
        return json.load(f), run.state()


def answer_by_keys(binary, stop, events, lesson="default", args=SIZE):
    run = Run(binary, tour=True)
    status = run.interact(["--lesson", lesson, "--stop", str(stop)] + args, events + ["sleep 0.5"], timeout=240)
    check(status == 0, "the app quits on a real Ctrl+Q")
    return run.state()["guide"]


def test_cells_by_clicks(binary):
    stop = stops_of("cells")[0]
    before, after = revealed(binary, stop, "As[0][0]")
    right = after["guide"]["answer"]["right"].replace(",", " ").split()
    centres = before["lesson_panels"]["shared_tiles"]["cell_centres"]
    check(right and all(cell in centres for cell in right),
          "stop %d's answer %s is drawn in Shared tiles: %s" % (stop, right, sorted(centres)))
    check(before["guide"]["question_kind"] == "cells" and before["guide"]["answer"]["state"] == "waiting",
          "stop %d asks for cells" % stop)
    events = []
    for cell in right:
        x, y = centres[cell]
        events.append('xdotool mousemove --window "$win" %d %d click 1; sleep 0.6' % (round(x), round(y)))
    events.append('xdotool key --window "$win" Return; sleep 0.6')
    guide = answer_by_keys(binary, stop, events)
    check(guide["stop"] == stop and guide["answer"]["state"] == "right",
          "clicking %s then Enter answers stop %d right: %s" % (right, stop, guide["answer"]))
    check(sorted(guide["answer"]["yours"].split()) == sorted(right), "the reveal shows the cells clicked: %s"
          % guide["answer"]["yours"])
    check(guide["score"]["right"] == 1 and guide["score"]["answered"] == 1, "the score is 1 of 1: %s" % guide["score"])


def test_c_cells_by_clicks_in_matrices(binary):
    """two_barriers asks which elements of C end wrong when a thread runs ahead: some do, some
    do not. Every wrong one is clicked in Matrices, and one right one clicked twice (in, then
    out again), before Enter."""
    stop = next(s for s in stops_of("cells", "two_barriers"))
    before, after = revealed(binary, stop, "C[0][0]", "two_barriers")
    right = after["guide"]["answer"]["right"].replace(",", " ").split()
    matrices = before["lesson_panels"]["matrices"]
    m = before["lesson"]["m"]
    n = before["lesson"]["n"]
    check(right and all(cell.startswith("C[") for cell in right) and 0 < len(right) < m * n,
          "stop %d's answer is some of C's %d elements, not all: %s" % (stop, m * n, right))
    (x0, y0), w, h = matrices["origins"]["c"], matrices["cell_width"], matrices["cell_pixels"]

    def click(cell):
        row, col = (int(part) for part in cell[2:-1].split("]["))
        return 'xdotool mousemove --window "$win" %d %d click 1; sleep 0.5' % (
            round(x0 + (col + 0.5) * w), round(y0 + (row + 0.5) * h))

    spared = next("C[%d][%d]" % (r, c) for r in range(m) for c in range(n) if "C[%d][%d]" % (r, c) not in right)
    events = [click(spared)] + [click(cell) for cell in right] + [click(spared)]
    events.append('xdotool key --window "$win" Return; sleep 0.6')
    guide = answer_by_keys(binary, stop, events, "two_barriers")
    check(guide["stop"] == stop and guide["answer"]["state"] == "right",
          "clicking the %d wrong elements (and %s in and out) then Enter answers right: %s"
          % (len(right), spared, guide["answer"]["state"]))
    check(sorted(guide["answer"]["yours"].split()) == sorted(right), "the reveal shows the cells clicked")
    check(guide["score"] == {"right": 1, "answered": 1, "questions": guide["score"]["questions"]},
          "the score is 1 of 1: %s" % guide["score"])


def choice_answer(binary, stop):
    """The model's choice at `stop` (0-based), the number of choices, and their texts as revealed."""
    _, after = revealed(binary, stop, "1")
    guide = after["guide"]
    shown = guide["answer"]["right"]
    index = next(i for i, text in enumerate(guide["choices"]) if text.startswith(shown) or shown.startswith(text))
    return index, len(guide["choices"]), guide["choices"]


def is_choice(yours, choices, index):
    return choices[index].startswith(yours) or yours.startswith(choices[index])


def test_choice_by_arrows(binary):
    first, second = stops_of("choice")[:2]
    index, _, choices = choice_answer(binary, first)
    down = ['xdotool key --window "$win" Down; sleep 0.4'] * (index + 1)  # the first Down marks choice 1
    guide = answer_by_keys(binary, first, down + ['xdotool key --window "$win" Return; sleep 0.6'])
    check(guide["stop"] == first and guide["answer"]["state"] == "right" and is_choice(guide["answer"]["yours"], choices, index),
          "%d × Down then Enter picks choice %d, the model's, at stop %d: %s" % (index + 1, index + 1, first, guide["answer"]))
    check(guide["score"]["right"] == 1 and guide["score"]["answered"] == 1, "the score is 1 of 1: %s" % guide["score"])

    index, count, choices = choice_answer(binary, second)
    wrong = (index - 1) % count
    ups = count - wrong  # nothing is chosen at first: Up goes to the last choice
    keys = ['xdotool key --window "$win" Up; sleep 0.4'] * ups
    guide = answer_by_keys(binary, second, keys + ['xdotool key --window "$win" Return; sleep 0.6'])
    check(guide["stop"] == second and guide["answer"]["state"] == "wrong" and is_choice(guide["answer"]["yours"], choices, wrong),
          "%d × Up then Enter picks choice %d, not the model's %d, at stop %d: %s"
          % (ups, wrong + 1, index + 1, second, guide["answer"]))
    check(guide["score"]["right"] == 0 and guide["score"]["answered"] == 1, "the score is 0 of 1: %s" % guide["score"])


SIZES = {"1366x768": ["--width", "1366", "--height", "768"], "1920x1080": SIZE}


def test_no_choice_is_chosen_beforehand(binary):
    """Every shipped choice question opens with no choice marked, at both window sizes: one run
    per lesson opens at its last choice stop and steps back to each earlier one."""
    lessons = sorted(name[:-5] for name in os.listdir(LESSONS) if name.endswith(".json"))
    asked = 0
    for size, args in SIZES.items():
        for lesson in lessons:
            stops = stops_of("choice", lesson)
            if not stops:
                continue
            run = Run(binary, tour=True)
            dumps = {stop: os.path.join(run.dir, "stop%d.json" % stop) for stop in stops}
            script = "; ".join("guide-stop %d; wait 2; dump-state %s; wait 1" % (stop, dumps[stop]) for stop in reversed(stops))
            status, _ = run.app(*args, "--lesson", lesson, "--stop", str(stops[-1]), "--frames", "3",
                                "--actions", script)
            check(status == 0, "%s opens at its choice stops %s at %s" % (lesson, stops, size))
            for stop, path in dumps.items():
                with open(path) as f:
                    guide = json.load(f)["guide"]
                check(guide["stop"] == stop and guide["question_kind"] == "choice"
                      and guide["answer"]["state"] == "waiting",
                      "%s stop %d waits for a choice at %s: %s" % (lesson, stop, size, guide["answer"]))
                check(guide["answer_field"]["highlighted_choice"] is None,
                      "no choice is marked beforehand at %s stop %d (%s): %s"
                      % (lesson, stop, size, guide["answer_field"]))
                asked += 1
    check(asked >= 20, "every shipped choice question at both sizes: %d" % asked)


def test_enter_on_an_empty_field_sends_nothing(binary):
    """A stray Enter before any choice is made leaves the question open; Down then Enter answers."""
    stop = stops_of("choice")[0]
    for size, args in SIZES.items():
        guide = answer_by_keys(binary, stop, ['xdotool key --window "$win" Return; sleep 0.6'], args=args)
        check(guide["stop"] == stop and guide["answer"]["state"] == "waiting" and guide["score"]["answered"] == 0,
              "Enter on the empty field answers nothing at %s: %s" % (size, guide["answer"]))
        check(guide["answer_field"]["active"], "the keys stay in the answer field at %s" % size)
        guide = answer_by_keys(binary, stop, ['xdotool key --window "$win" Return; sleep 0.6',
                                              'xdotool key --window "$win" Down; sleep 0.4',
                                              'xdotool key --window "$win" Return; sleep 0.6'], args=args)
        check(guide["score"]["answered"] == 1 and guide["answer"]["state"] in ("right", "wrong"),
              "Down then Enter answers with the first choice at %s: %s" % (size, guide["answer"]))


if __name__ == "__main__":
    run_tests(globals())
