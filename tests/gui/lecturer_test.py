"""Ask, then reveal: in lecturer mode (T) a question stop shows the question and its choices in
large type with no answer field, and V shows the model's answer and why to everyone, at
1366x768 and 1920x1080, in the normal and the presentation view. T works while the answer
field has the keys (real keys, xdotool), and no score is kept for the class.

The model's answer is never written here: it is read from a student's reveal of the same stop."""
import json
import os

from guitest import Run, check, run_tests

SIZES = {"1366x768": ["--width", "1366", "--height", "768"], "1920x1080": ["--width", "1920", "--height", "1080"]}
MODES = {"normal": [], "presentation": ["--presentation"]}
STOP = 3  # lesson 1's first choice question


def dumps(binary, args, script, names):
    run = Run(binary, tour=True)
    paths = {name: os.path.join(run.dir, name + ".json") for name in names}
    status, _ = run.app(*args, "--lesson", "default", "--stop", str(STOP), "--frames", "3",
                        "--actions", "wait 3; " + script.format(**paths))
    check(status == 0, "a scripted run of stop %d" % STOP)
    out = {}
    for name, path in paths.items():
        with open(path) as f:
            out[name] = json.load(f)
    return out


def test_asks_the_class_then_reveals(binary):
    for size, size_args in SIZES.items():
        for mode, mode_args in MODES.items():
            label = "%s %s" % (size, mode)
            seen = dumps(binary, size_args + mode_args,
                         "dump-state {student}; wait 1; guide-lecturer; wait 3; dump-state {asked}; wait 1; "
                         "guide-reveal; wait 3; dump-state {revealed}; wait 1; guide-lecturer; guide-answer 1; wait 3; "
                         "dump-state {answered}; wait 1", ["student", "asked", "revealed", "answered"])
            student, asked, revealed = (seen[n]["guide"] for n in ("student", "asked", "revealed"))
            right = seen["answered"]["guide"]["answer"]["right"]
            check(student["answer"]["state"] == "waiting" and not student["lecturer"], "%s: a student is asked" % label)
            check(asked["lecturer"] and asked["answer"]["state"] == "asked of the class",
                  "%s: T asks the class: %s" % (label, asked["answer"]))
            check(student["question_px"] == student["text_px"] and asked["question_px"] >= 1.4 * asked["text_px"],
                  "%s: the class's question is in large type (%.1f px against the panel's %.1f)"
                  % (label, asked["question_px"], asked["text_px"]))
            shown = seen["asked"]["lesson_panels"]["guide"]["shown_text"]
            check(not any("then Enter" in text for text in shown), "%s: no answer field is drawn: %s" % (label, shown))
            check(all(any(choice in text for text in shown) for choice in asked["choices"]),
                  "%s: every choice is on screen: %s" % (label, shown))
            check(not any(right in text and text.startswith("\u2713") for text in shown),
                  "%s: the answer waits for V" % label)
            check(revealed["answer"]["state"] == "revealed" and revealed["answer"]["right"] == right
                  and revealed["answer"]["why"], "%s: V reveals the model's answer %s and why: %s"
                  % (label, right, revealed["answer"]))
            check(revealed["score"]["answered"] == 0, "%s: the class's reveal is no one's score" % label)
            panel = seen["revealed"]["lesson_panels"]["guide"]
            check(panel["clipped_text"] == 0, "%s: the reveal is readable: %s" % (label, panel["clipped_examples"]))


def test_t_works_in_the_answer_field(binary):
    """The answer field has the keys at a question stop; T switches to lecturer mode all the same
    and types nothing; V then reveals and T gives the question back to a student."""
    for size, size_args in SIZES.items():
        run = Run(binary, tour=True)
        key = 'xdotool key --window "$win" %s; sleep 0.6'
        status = run.interact(["--lesson", "default", "--stop", str(STOP)] + size_args, [key % "t", key % "v"])
        check(status == 0, "the app quits on a real Ctrl+Q")
        guide = run.state()["guide"]
        check(guide["lecturer"] and guide["answer_field"]["draft"] == "",
              "%s: T in the answer field turns lecturer mode on and types nothing: %s" % (size, guide["answer_field"]))
        check(guide["answer"]["state"] == "revealed", "%s: V reveals: %s" % (size, guide["answer"]))


if __name__ == "__main__":
    run_tests(globals())
