"""Lessons by name: the first start of a new install opens on the lesson list, "1 · Tiles and
phases" and on in teaching order, at 1366x768 and 1920x1080; real keys (↓, Enter) open a
lesson from it, Ctrl+O brings it back and Esc closes it. Each lesson shows the score and the
stop reached that the settings keep.

Titles are read from the lesson files here, never typed."""
import json
import os

from guitest import Run, check, run_tests

LESSONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")
SIZES = {"1366x768": ["--width", "1366", "--height", "768"], "1920x1080": ["--width", "1920", "--height", "1080"]}
KEY = 'xdotool key --window "$win" %s; sleep 0.6'


def curriculum():
    """(name, title) of each lesson file with a title, in the order the app lists them."""
    titled = {}
    for name in os.listdir(LESSONS):
        with open(os.path.join(LESSONS, name)) as f:
            lesson = json.load(f)
        if "title" in lesson:
            titled[lesson["name"]] = lesson["title"]
    return titled


def test_first_start_lists_the_lessons_and_keys_open_one(binary):
    titles = curriculum()
    check(len(titles) >= 7, "the curriculum's files carry titles: %s" % titles)
    for size, args in SIZES.items():
        run = Run(binary, tour=True)
        status = run.interact(args, [KEY % "Down", KEY % "Down", KEY % "Return", "sleep 2"], timeout=240)
        check(status == 0, "the app quits on a real Ctrl+Q")
        state = run.state()
        shown = state["lesson_list"]["lessons"]
        check([entry["heading"] for entry in shown] == ["%d \u00B7 %s" % (i + 1, titles[e["name"]])
                                                      for i, e in enumerate(shown)] and len(shown) == len(titles),
              "%s: the list names every curriculum lesson by number and title: %s" % (size, [e["heading"] for e in shown]))
        check(shown[0]["name"] == "default" and shown[0]["current"] and shown[0]["progress"] == "not started",
              "%s: lesson 1 first, on show, not started: %s" % (size, shown[0]))
        check(not state["lesson_list"]["open"] and state["guide"]["lesson"] == shown[2]["name"],
              "%s: Down, Down, Enter opened the third lesson, %s: %s" % (size, shown[2]["heading"], state["guide"]["lesson"]))

    run = Run(binary)  # settings exist: no list at the start
    status = run.interact(SIZES["1366x768"] + ["--lesson", "default"], [KEY % "ctrl+o"], timeout=240)
    check(status == 0 and run.state()["lesson_list"]["open"], "Ctrl+O opens the list over a lesson")
    status = run.interact(SIZES["1366x768"] + ["--lesson", "default"], [KEY % "ctrl+o", KEY % "Escape"], timeout=240)
    check(status == 0 and not run.state()["lesson_list"]["open"], "Esc closes it")


def test_progress_comes_from_the_settings(binary):
    """Lesson 1's first question answered and the tour left at stop 2: the list says so after a
    restart; the lessons not opened say "not started"."""
    run = Run(binary, tour=True)
    status, _ = run.app(*SIZES["1920x1080"], "--lesson", "default", "--frames", "3", "--actions",
                        "wait 3; guide-stop 1; guide-answer 2; wait 1; guide-next; wait 2")
    check(status == 0, "lesson 1 answered at stop 1")
    answer = run.state()["guide"]
    right = answer["score"]["right"]
    again = Run(binary, config_home=run.config_home, tour=True)
    status, _ = again.app(*SIZES["1920x1080"], "--presentation", "--frames", "3", "--actions", "wait 2; lesson-list; wait 2")
    shown = again.state()["lesson_list"]
    check(status == 0 and shown["open"], "lesson-list opens the list")
    first = shown["lessons"][0]
    check(first["progress"] == "score %d of 1 \u00B7 stopped at stop %d of %d" % (right, answer["stop"], answer["stops"]),
          "lesson 1 shows its score and where it stopped: %s" % first["progress"])
    check(all(entry["progress"] == "not started" for entry in shown["lessons"][1:]), "the others are not started")


if __name__ == "__main__":
    run_tests(globals())
