"""A lesson whose tour needs real model work opens without blocking the window: its tour is
prepared on a worker while frames go on being drawn, a window says so with a Cancel, and the
lesson changes only once the tour is ready. Cancel — by the action and by a real Esc — leaves the
lesson on show as it was, and says so."""
import json
import os
import re

from guitest import Run, check, run_tests

SIZE = ["--width", "1366", "--height", "768"]
# Tours (size, stops) to wait for and to cancel.
WAITED = (64, 4)
CANCELLED = (256, 5)
ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")


def heavy_lesson(run, size, stops):
    """A tour of `stops` stops, each a size³ TILE 16 run of its own scheduler seed: at 256 and
    five stops near the model work a tour may spend (2^27 thread-instructions), for Cancel,
    which must come before it is ready; at 64 and four, for a tour that is waited for. No
    shipped preset is slow enough to cancel reliably since the model got faster (cublas's tour
    was ready in 0.2 s, before a real Esc arrived)."""
    with open(os.path.join(ASSETS, "default.json")) as f:
        doc = json.load(f)
    doc.update(name="heavy", m=size, n=size, k=size, tile=16,
               fill_a={"kind": "random", "seed": 1}, fill_b={"kind": "random", "seed": 2})
    doc["tour"] = [{"title": "run %d" % seed, "at": {"event": "end"}, "edits": "seed=%d" % seed,
                    "text": "{reads} global reads"} for seed in range(1, stops + 1)]
    path = os.path.join(run.dir, "heavy.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def test_frames_are_drawn_while_the_tour_is_prepared(binary):
    run = Run(binary, tour=True)
    heavy = heavy_lesson(run, *WAITED)
    mid = os.path.join(run.dir, "mid.json")
    # guide-stop waits for lesson 1's own tour; lesson-preset then starts the heavy one; the
    # dump two frames later is taken while it is still being prepared.
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions",
                        "guide-stop 1; lesson-open %s; wait 2; dump-state %s" % (heavy, mid))
    check(status == 0, "the app ran the script and quit")
    with open(mid) as f:
        during = json.load(f)
    preparing = during["guide"]["preparing"]
    check(preparing is not None and preparing["lesson"] == heavy and preparing["frames"] >= 2,
          "two frames after it started, the tour of %s is still being prepared and frames were drawn: %s"
          % (heavy, preparing))
    check(during["guide"]["lesson"] == "default" and during["lesson"]["m"] == 4,
          "meanwhile lesson 1 stays on show with its guide: %s" % during["guide"]["lesson"])
    state = run.state()
    last = state["guide"]["last_preparation"]
    check(last["lesson"] == heavy and last["result"] == "ready" and last["done"] == last["stops"],
          "then the tour is ready: %s" % last)
    check(last["frames"] >= 3, "the window drew %d frames in %.2f s while the model prepared %d stops"
          % (last["frames"], last["seconds"], last["stops"]))
    check(state["guide"]["lesson"] == heavy and state["guide"]["stop"] == 1 and state["lesson"]["m"] == WAITED[0],
          "and the lesson and its guide are %s's, at stop 1: %s" % (heavy, state["guide"]["lesson"]))
    check(state["guide"]["preparing"] is None, "nothing is being prepared at the end")


def test_cancel_keeps_the_lesson_on_show(binary):
    run = Run(binary, tour=True)
    heavy = heavy_lesson(run, *CANCELLED)
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions",
                        "guide-stop 1; lesson-open %s; wait 1; guide-cancel" % heavy)
    state = run.state()
    last = state["guide"]["last_preparation"]
    check(status == 0 and last["lesson"] == heavy and last["result"] == "cancelled",
          "Cancel stops the preparation: %s" % last)
    check(state["guide"]["lesson"] == "default" and state["lesson"]["m"] == 4 and state["guide"]["stop"] == 1,
          "lesson 1 and its guide stay as they were")
    check(any("was cancelled" in n["text"] and "default stays open" in n["text"] for n in state["notifications"]),
          "a message says so: %s" % [n["text"] for n in state["notifications"]])


def test_a_real_esc_cancels(binary):
    # A lesson without a tour first, so nothing else is prepared and no answer field takes Esc.
    # The ready line comes with naive on show, before the script's lesson-open may have run
    # (under the sanitizers with other work on the cores it had not): Esc is pressed every
    # 0.2 s, which does nothing while no tour is prepared, until one press cancels.
    run = Run(binary)
    heavy = heavy_lesson(run, *CANCELLED)
    status = run.interact(["--lesson", "naive", "--actions", "lesson-open " + heavy] + SIZE,
                          ['for i in $(seq 1 30); do xdotool key --window "$win" Escape; sleep 0.2; done'])
    state = run.state()
    last = state["guide"]["last_preparation"]
    check(status == 0 and last is not None and last["result"] == "cancelled",
          "a real Esc cancels the preparation: %s" % last)
    check(state["controls"]["draft"]["name"] == "naive" and state["guide"]["lesson"] is None,
          "the naive lesson stays on show: %s" % state["controls"]["draft"]["name"])


def test_open_at_a_stop_of_a_heavy_tour(binary):
    """--stop and --step given at start wait for the tour being prepared, then apply."""
    run = Run(binary, tour=True)
    heavy = heavy_lesson(run, *WAITED)
    status, _ = run.app(*SIZE, "--lesson", heavy, "--stop", "2", "--frames", "3")
    state = run.state()
    check(status == 0 and state["guide"]["lesson"] == heavy and state["guide"]["stop"] == 2,
          "--lesson %s --stop 2 opens at stop 2 once its tour is ready: stop %s" % (heavy, state["guide"]["stop"]))
    check(state["guide"]["last_preparation"]["frames"] >= 1, "frames were drawn meanwhile: %s"
          % state["guide"]["last_preparation"])
    run = Run(binary, tour=True)
    heavy = heavy_lesson(run, *WAITED)
    status, _ = run.app(*SIZE, "--lesson", heavy, "--stop", "2", "--step", "5", "--frames", "3")
    lesson = run.state()["lesson"]
    check(status == 0 and lesson["step"] == 5, "and --step 5 after it: step %s" % lesson["step"])


def test_a_failing_tour_leaves_the_lesson(binary):
    """A file whose tour contradicts the model is refused after its preparation; the lesson on
    show stays and the message names the stop."""
    run = Run(binary, tour=True)
    lesson = os.path.join(run.dir, "bad.json")
    with open(os.path.join(ASSETS, "default.json")) as f:
        doc = json.load(f)
    doc["tour"] = [{"title": "wrong", "at": {"step": 0}, "text": "x",
                    "question": {"kind": "choice", "prompt": "phases?", "query": "phases",
                                 "choices": [{"text": "three", "value": 3}, {"text": "five", "value": 5}]}}]
    with open(lesson, "w") as f:
        json.dump(doc, f)
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions", "guide-stop 1; lesson-open " + lesson)
    state = run.state()
    last = state["guide"]["last_preparation"]
    check(status == 0 and last["result"] == "failed" and "no choice is the model's answer" in last["message"],
          "the tour is refused with the model's reason: %s" % last["message"])
    check(state["guide"]["lesson"] == "default" and "default stays open" in last["message"],
          "and lesson 1 stays open")
    # A file cut short is refused before any preparation, naming where it broke; the tour stays.
    truncated = os.path.join(run.dir, "truncated.json")
    with open(truncated, "w") as f:
        f.write(json.dumps(doc, indent=2)[:400])
    status, _ = run.app(*SIZE, "--lesson", "default", "--stop", "2", "--frames", "3",
                        "--actions", "lesson-open " + truncated)
    state = run.state()
    said = [n["text"] for n in state["notifications"] if "truncated.json" in n["text"]]
    check(status == 1 and said and re.search(r"line \d+, column \d+", said[0]),
          "a truncated file is refused with its line and column: %s" % said)
    check(state["guide"]["lesson"] == "default" and state["guide"]["stop"] == 2 and state["lesson"]["m"] == 4,
          "and lesson 1 stays open at its stop: %s, stop %s" % (state["guide"]["lesson"], state["guide"]["stop"]))


if __name__ == "__main__":
    run_tests(globals())
