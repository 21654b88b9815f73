"""A lesson whose tour needs real model work (cublas: its stops ask about 64³ variants) opens
without blocking the window: its tour is prepared on a worker while frames go on being drawn,
a window says so with a Cancel, and the lesson changes only once the tour is ready. Cancel — by
the action and by a real Esc — leaves the lesson on show as it was, and says so."""
import os

from guitest import Run, check, run_tests

SIZE = ["--width", "1366", "--height", "768"]
HEAVY = "cublas"
# Where a test must act while the tour is still being prepared: the same lesson and tour at
# 128³, eight times the model work (at 64³ a fast model can finish before the window shows).
HEAVIER_SIZE = 128


def heavier_lesson(run):
    import json
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons",
                           HEAVY + ".json")) as f:
        doc = json.load(f)
    doc["m"] = doc["n"] = doc["k"] = HEAVIER_SIZE
    for stop in doc["tour"]:
        stop["text"] = stop["text"].replace("64\u00d764\u00d764", "%d\u00d7%d\u00d7%d" % ((HEAVIER_SIZE,) * 3))
    path = os.path.join(run.dir, HEAVY + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def test_frames_are_drawn_while_the_tour_is_prepared(binary):
    run = Run(binary, tour=True)
    mid = os.path.join(run.dir, "mid.json")
    heavier = heavier_lesson(run)
    # guide-stop waits for lesson 1's own tour; lesson-open then starts the heavy one; the
    # dump two frames later is taken while it is still being prepared.
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions",
                        "guide-stop 1; lesson-open %s; wait 2; dump-state %s" % (heavier, mid))
    check(status == 0, "the app ran the script and quit")
    with open(mid) as f:
        import json
        during = json.load(f)
    preparing = during["guide"]["preparing"]
    check(preparing is not None and preparing["lesson"] == heavier and preparing["frames"] >= 2,
          "two frames after it started, the tour of %s is still being prepared and frames were drawn: %s"
          % (heavier, preparing))
    check(during["guide"]["lesson"] == "default" and during["lesson"]["m"] == 4,
          "meanwhile lesson 1 stays on show with its guide: %s" % during["guide"]["lesson"])
    state = run.state()
    last = state["guide"]["last_preparation"]
    check(last["lesson"] == heavier and last["result"] == "ready" and last["done"] == last["stops"],
          "then the tour is ready: %s" % last)
    check(last["frames"] >= 3, "the window drew %d frames in %.2f s while the model prepared %d stops"
          % (last["frames"], last["seconds"], last["stops"]))
    check(state["guide"]["lesson"] == heavier and state["guide"]["stop"] == 1 and state["lesson"]["m"] == HEAVIER_SIZE,
          "and the lesson and its guide are %s's, at stop 1: %s" % (heavier, state["guide"]["lesson"]))
    check(state["guide"]["preparing"] is None, "nothing is being prepared at the end")


def test_cancel_keeps_the_lesson_on_show(binary):
    run = Run(binary, tour=True)
    heavier = heavier_lesson(run)
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions",
                        "guide-stop 1; lesson-open %s; wait 1; guide-cancel" % heavier)
    state = run.state()
    last = state["guide"]["last_preparation"]
    check(status == 0 and last["lesson"] == heavier and last["result"] == "cancelled",
          "Cancel stops the preparation: %s" % last)
    check(state["guide"]["lesson"] == "default" and state["lesson"]["m"] == 4 and state["guide"]["stop"] == 1,
          "lesson 1 and its guide stay as they were")
    check(any("was cancelled" in n["text"] and "default stays open" in n["text"] for n in state["notifications"]),
          "a message says so: %s" % [n["text"] for n in state["notifications"]])


def test_a_real_esc_cancels(binary):
    # A lesson without a tour first, so nothing else is prepared and no answer field takes Esc.
    run = Run(binary)
    status = run.interact(["--lesson", "naive", "--actions", "lesson-open " + heavier_lesson(run)] + SIZE,
                          ['xdotool key --window "$win" Escape; sleep 0.6'])
    state = run.state()
    last = state["guide"]["last_preparation"]
    check(status == 0 and last is not None and last["result"] == "cancelled",
          "a real Esc cancels the preparation: %s" % last)
    check(state["controls"]["draft"]["name"] == "naive" and state["guide"]["lesson"] is None,
          "the naive lesson stays on show: %s" % state["controls"]["draft"]["name"])


def test_open_at_a_stop_of_a_heavy_tour(binary):
    """--stop and --step given at start wait for the tour being prepared, then apply."""
    run = Run(binary, tour=True)
    status, _ = run.app(*SIZE, "--lesson", HEAVY, "--stop", "2", "--frames", "3")
    state = run.state()
    check(status == 0 and state["guide"]["lesson"] == HEAVY and state["guide"]["stop"] == 2,
          "--lesson %s --stop 2 opens at stop 2 once its tour is ready: stop %s" % (HEAVY, state["guide"]["stop"]))
    check(state["guide"]["last_preparation"]["frames"] >= 1, "frames were drawn meanwhile: %s"
          % state["guide"]["last_preparation"])
    run = Run(binary, tour=True)
    status, _ = run.app(*SIZE, "--lesson", HEAVY, "--stop", "2", "--step", "5", "--frames", "3")
    lesson = run.state()["lesson"]
    check(status == 0 and lesson["step"] == 5, "and --step 5 after it: step %s" % lesson["step"])


def test_a_failing_tour_leaves_the_lesson(binary):
    """A file whose tour contradicts the model is refused after its preparation; the lesson on
    show stays and the message names the stop."""
    import json
    run = Run(binary, tour=True)
    lesson = os.path.join(run.dir, "bad.json")
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons",
                           "default.json")) as f:
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


if __name__ == "__main__":
    run_tests(globals())
