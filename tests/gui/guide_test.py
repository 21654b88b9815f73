"""Lesson 1's tour as a student meets it: real X key events only (xdotool) go from stop to stop,
are held at a question until it is answered, answer one question right and one wrong, and the
Guide panel shows each reveal and the score, which survive a restart. A stop's focus shows only
its panels and selects its block; --stop N opens at stop N and a bad N is refused, naming it.

What is right is never written here: a scripted run answers each question once with a
placeholder and reads the model's answer from the reveal."""
import json
import os
import re
import shlex

from guitest import LINK_BY_FORMULA, Run, check, run_tests

LESSONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")
SIZE = ["--width", "1920", "--height", "1080"]


def tour(name="default"):
    with open(os.path.join(LESSONS, name + ".json")) as f:
        return json.load(f)["tour"]


def question_stops(stops):
    return [i for i, stop in enumerate(stops) if "question" in stop]


def placeholder(stop):
    """An answer the question accepts, right or not."""
    kind = stop["question"]["kind"]
    if kind == "number":
        return "0"
    if kind == "choice":
        return "1"
    space = re.search(r"\b(As|Bs|A|B|C)\[", stop["question"]["prompt"] + " " + stop["question"].get("why", ""))
    return (space.group(1) if space else "C") + "[0][0]"


def model_answers(binary, stops, wanted):
    """The model's right answer at each stop of `wanted` (0-based), as the reveal shows it."""
    run = Run(binary, tour=True)
    script, dumps = [], {}
    for i in wanted:
        dumps[i] = os.path.join(run.dir, "stop%d.json" % (i + 1))
        script += ["guide-stop %d" % (i + 1), "guide-answer " + placeholder(stops[i]), "wait 2",
                   "dump-state " + dumps[i], "wait 1"]
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions", "; ".join(script))
    check(status == 0, "the scripted run answers every question")
    answers = {}
    for i, path in dumps.items():
        with open(path) as f:
            guide = json.load(f)["guide"]
        check(guide["stop"] == i + 1 and guide["answer"]["state"] in ("right", "wrong"),
              "stop %d's question is answered and revealed: %s" % (i + 1, guide["answer"]))
        answers[i] = guide
    return answers


def typed(guide, right):
    """What to type at a stop for a right (or a wrong) answer, from the model's reveal."""
    shown = guide["answer"]["right"]
    kind = guide["question_kind"]
    if kind == "number":
        value = float(shown.replace("\u00d7", ""))
        return ("%g" % value) if right else ("%g" % (value + 1000))
    if kind == "choice":
        index = next(i for i, text in enumerate(guide["choices"]) if text.startswith(shown) or shown.startswith(text)
                     or shown == str(i + 1))
        return str(index + 1 if right else (index + 1) % len(guide["choices"]) + 1)
    cells = shown.replace(",", " ").split()
    if right:
        return " ".join(cells)
    space = cells[0][:cells[0].index("[")]
    other = next("%s[%d][%d]" % (space, r, c) for r in range(4) for c in range(4)
                 if "%s[%d][%d]" % (space, r, c) not in cells)
    return other


def key(name):
    return 'xdotool key --window "$win" %s; sleep 0.6' % name


def type_text(text):
    return 'xdotool type --window "$win" "%s"; sleep 0.4' % text


def test_lesson1_by_keys(binary):
    stops = tour()
    asked = question_stops(stops)
    check(len(asked) >= 2, "lesson 1 asks at least two questions (stops %s)" % [i + 1 for i in asked])
    first, second = asked[0], asked[1]
    answers = model_answers(binary, stops, [first, second])
    right_text = typed(answers[first], True)
    wrong_text = typed(answers[second], False)

    run = Run(binary, tour=True)
    events = []
    # To the first question stop; its answer field takes the keys on arrival.
    events += [key("Next")] * first
    # Held: leave the field (Esc) and ask for the next stop: it waits for the answer.
    events += [key("Escape"), key("Next"), key("Return"), type_text(right_text), key("Return")]
    # On to the second question (PageDown and N both go on), answered wrong.
    for i in range(second - first):
        events.append(key("n" if i % 2 else "Next"))
    events += [type_text(wrong_text), key("Return"), "sleep 0.5"]
    status = run.interact(["--lesson", "default"] + SIZE, events, timeout=240)
    check(status == 0, "the app quits on a real Ctrl+Q")
    state = run.state()
    guide = state["guide"]
    check(any("answer stop %d's question first" % (first + 1) in n["text"] for n in state["notifications"]),
          "the next stop was held back until stop %d was answered" % (first + 1))
    check(guide["stop"] == second + 1 and guide["stops"] == len(stops),
          "the keys went to stop %d of %d: %s" % (second + 1, len(stops), guide["stop"]))
    check(guide["answer"]["state"] == "wrong" and guide["answer"]["yours"].split() == wrong_text.split(),
          "stop %d's reveal says wrong and shows the student's own answer: %s" % (second + 1, guide["answer"]))
    check(guide["answer"]["right"] == answers[second]["answer"]["right"],
          "the reveal shows the model's answer %s" % guide["answer"]["right"])
    check(guide["score"]["right"] == 1 and guide["score"]["answered"] == 2,
          "the score is 1 right of 2 answered: %s" % guide["score"])
    with open(os.path.join(run.config_home, "tilescope", "settings.json")) as f:
        saved = json.load(f)["panels"]["guide"]
    check(saved["lessons"]["default"]["stop"] == second + 1 and len(saved["lessons"]["default"]["answers"]) == 2,
          "the settings keep the stop and both answers: %s" % saved["lessons"]["default"])

    again = Run(binary, config_home=run.config_home, tour=True)
    status, _ = again.app(*SIZE, "--frames", "3")
    guide = again.state()["guide"]
    check(status == 0 and guide["lesson"] == "default" and guide["stop"] == second + 1,
          "a restart without --lesson reopens lesson 1 at stop %d: %s" % (second + 1, guide["stop"]))
    check(guide["score"] == {"right": 1, "answered": 2, "questions": len(asked)} and guide["answer"]["state"] == "wrong",
          "and keeps the score and the reveal: %s" % guide["score"])


def test_stop_keys_in_both_modes(binary):
    """The stop keys as a presenter's clicker sends them: PageDown and PageUp, and N and P, by
    real X key events, in normal and in presentation mode (questions off, so none holds a stop)."""
    for mode in ([], ["--presentation"]):
        run = Run(binary, tour=True)
        # Esc leaves stop 1's answer field, which has the keys on arrival; T turns questions off.
        events = [key("Escape"), key("t"), key("Next"), key("Next"), key("Prior"), key("n"), key("n"), key("p")]
        status = run.interact(["--lesson", "default"] + SIZE + mode, events, timeout=240)
        state = run.state()
        label = "presentation" if mode else "normal"
        check(status == 0 and state["presentation"] == bool(mode), "%s mode: the app ran and quit" % label)
        check(state["guide"]["stop"] == 3,
              "%s mode: PageDown, PageDown, PageUp, N, N, P went from stop 1 to stop 3: %d"
              % (label, state["guide"]["stop"]))


def test_focus(binary):
    stops = tour()
    index = next(i for i, s in enumerate(stops) if s.get("panels") and s.get("block") and i > 0)
    stop = stops[index]
    for mode in ([], ["--presentation"]):
        run = Run(binary, tour=True)
        status, _ = run.app(*SIZE, "--lesson", "default", "--stop", str(index + 1), "--frames", "5", *mode)
        state = run.state()
        guide = state["guide"]
        label = "stop %d%s" % (index + 1, " in presentation" if mode else "")
        check(status == 0 and guide["stop"] == index + 1, "%s: --stop opens there" % label)
        wanted = set(stop["panels"]) | {"guide"}
        visible = {name for name, p in state["lesson_panels"].items() if p.get("visible")}
        check(visible == wanted, "%s: only the stop's panels are shown: %s (the stop names %s)"
              % (label, sorted(visible), sorted(wanted)))
        x, y = stop["block"]
        tiles = state["lesson_panels"]["shared_tiles"]
        # Blocks are numbered row by row of the grid (blockIdx.y, then x); the lesson is 4x4 with TILE 2.
        check(guide["selected"]["block"] == y * 2 + x, "%s: block (%d,%d) is selected: %s" % (label, x, y, guide["selected"]))
        if "shared_tiles" in wanted:
            check(tiles["block"] == y * 2 + x, "%s: Shared tiles shows block (%d,%d)" % (label, x, y))
        if stop.get("cells"):
            framed = set(state["lesson_panels"]["matrices"].get("tour_framed", [])) | set(tiles.get("tour_framed", []))
            shown = {c for c in stop["cells"] if (c.startswith(("As", "Bs")) and "shared_tiles" in wanted)
                     or (not c.startswith(("As", "Bs")) and "matrices" in wanted)}
            check(shown <= framed, "%s: the stop's cells are framed: %s" % (label, sorted(framed)))
        clipped = {n: p["clipped_text"] for n, p in state["lesson_panels"].items() if p.get("visible") and p["clipped_text"]}
        check(not clipped, "%s: no text cut off %s" % (label, clipped))


def test_starred_lines_in_view(binary):
    """Each stop that points at source lines shows them: walked stop by stop (N, questions off),
    as a student goes, the Kernel source scrolls its starred lines into view even where the
    followed thread stands elsewhere or two stops share a step but not a layout; in presentation
    its excerpt gives the starred lines the room first."""
    stops = tour()
    for mode in ([], ["presentation"]):
        run = Run(binary, tour=True)
        script, dumps = ["guide-lecturer"] + mode, {}
        for i, stop in enumerate(stops):
            if i > 0:
                script.append("guide-next")
            if stop.get("lines") and "kernel_source" in stop.get("panels", []):
                dumps[i] = os.path.join(run.dir, "stop%d.json" % (i + 1))
                script += ["wait 5", "dump-state " + dumps[i], "wait 1"]
        status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions", "; ".join(script))
        check(status == 0 and len(dumps) >= 3, "the walk runs (%d stops point at lines)" % len(dumps))
        for i, path in sorted(dumps.items()):
            with open(path) as f:
                source = json.load(f)["kernel_source"]
            label = "stop %d%s" % (i + 1, " in presentation" if mode else "")
            check(len(source["tour_lines"]) == len(stops[i]["lines"]),
                  "%s stars its %d lines: %s" % (label, len(stops[i]["lines"]), source["tour_lines"]))
            starred, seen = set(source["tour_lines"]), set(source["lines_in_view"])
            if mode:
                # A room cannot scroll: the excerpt shows every starred line it has room for, and
                # where it has not room for them all, nothing but starred lines.
                check(seen & starred and (starred <= seen or seen <= starred),
                      "%s shows starred lines only, as many as fit: %s of %s" % (label, sorted(seen), sorted(starred)))
            else:
                check(starred <= seen, "%s shows its starred lines %s (in view: %s)" % (label, sorted(starred), sorted(seen)))


def test_open_at_stop(binary):
    stops = tour()
    run = Run(binary, tour=True)
    status, _ = run.app(*SIZE, "--lesson", "default", "--stop", "2", "--frames", "3", "--actions", "copy-command")
    guide = run.state()["guide"]
    check(status == 0 and guide["stop"] == 2, "--stop 2 opens at stop 2")
    check(guide["copied_command"] == "tilescope --lesson default --stop 2",
          "Copy as command gives the command that reopens it: %s" % guide["copied_command"])
    check("copied to the clipboard" in run.state()["status_bar"], "the status bar says so")
    # A lesson FILE, stepped on from its stop: the copied command reopens that very view.
    run = Run(binary, tour=True)
    lesson = os.path.join(run.dir, "my lesson.json")
    with open(os.path.join(LESSONS, "default.json")) as f, open(lesson, "w") as out:
        out.write(f.read())
    status, _ = run.app(*SIZE, "--lesson", lesson, "--stop", "2", "--frames", "3", "--actions", "step; step; copy-command")
    state = run.state()
    command = state["guide"]["copied_command"]
    words = shlex.split(command)
    check(status == 0 and words[:3] == ["tilescope", "--lesson", lesson] and words[3:5] == ["--stop", "2"] and
          words[5:6] == ["--step"], "a lesson file at stop 2, two steps on, copies as %r" % command)
    again = Run(binary, tour=True)
    status, _ = again.app(*SIZE, *words[1:], "--frames", "3")
    reopened = again.state()
    check(status == 0 and reopened["guide"]["stop"] == 2 and reopened["lesson"]["step"] == state["lesson"]["step"],
          "the command reopens stop 2 at step %d: stop %d, step %d" % (state["lesson"]["step"],
                                                                       reopened["guide"]["stop"], reopened["lesson"]["step"]))
    # The range is worded: its top is the tour's, not the option type's largest value.
    for bad, says in (("0", "outside 1 (the first stop) to the tour's last"), ("-1", "outside 1 (the first stop)"),
                      ("99999999999", "outside 1 (the first stop)"), ("two", "not a whole number"),
                      (str(len(stops) + 1), "past the end")):
        run = Run(binary, tour=True)
        status, output = run.app(*SIZE, "--lesson", "default", "--stop", bad, "--frames", "3")
        check(status == 2 and "--stop" in output and says in output,
              "--stop %s is refused with a message naming it (%s)" % (bad, says))
    run = Run(binary, tour=True)
    status, output = run.app(*SIZE, "--lesson", "default", "--step", "100000", "--frames", "3")
    check(status == 2 and "--step 100000 is past the end" in output, "--step past the end is refused")
    for bad in ("-1", "99999999999999999999"):
        status, output = Run(binary, tour=True).app(*SIZE, "--lesson", "default", "--step", bad, "--frames", "3")
        check(status == 2 and "outside 0 (the start) to the run's last step" in output and
              "9223372036854775807" not in output, "--step %s names the steps in words: %s" % (bad, output))


def test_lecturer_mode(binary):
    """T (guide-lecturer) turns questions off: the tour goes past a question stop unanswered,
    the score stays empty, and the switch survives a restart."""
    run = Run(binary, tour=True)
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions", "guide-lecturer; guide-next; guide-next")
    guide = run.state()["guide"]
    check(status == 0 and guide["lecturer"] and guide["stop"] == 3 and guide["score"]["answered"] == 0,
          "lecturer mode goes from stop 1 to 3 past unanswered questions: stop %d, %s" % (guide["stop"], guide["score"]))
    again = Run(binary, config_home=run.config_home, tour=True)
    again.app(*SIZE, "--frames", "3")
    check(again.state()["guide"]["lecturer"], "lecturer mode survives a restart")


def test_stop_edits_and_live_page(binary):
    """A stop with lesson edits runs the lesson so edited; a stop naming live_gpu ends on the
    Live GPU page, which without a GPU here shows the H100 run shipped in assets/results."""
    stops = tour("two_barriers")
    index = next(i for i, s in enumerate(stops) if s.get("edits"))
    edits = dict(word.split("=") for word in stops[index]["edits"].split())
    run = Run(binary, tour=True)
    status, _ = run.app(*SIZE, "--lesson", "two_barriers", "--stop", str(index + 1), "--frames", "3")
    state = run.state()
    lesson, guide = state["lesson"], state["guide"]
    check(status == 0 and guide["stop"] == index + 1 and guide["edited"] == "",
          "two_barriers stop %d opens on its own lesson, no edit noted" % (index + 1))
    check(all(str(lesson[key]) == value for key, value in edits.items() if key in lesson),
          "the stop's edits %s are the running lesson's: %s" % (stops[index]["edits"], {k: lesson.get(k) for k in edits}))
    live = len(tour("cublas"))
    check("live_gpu" in tour("cublas")[-1]["panels"], "the cublas lesson's last stop names the Live GPU page")
    run = Run(binary, tour=True)
    # page-live waits for the tour, as every action does while it is prepared; then the link
    # takes the closed form (LINK_BY_FORMULA): what is checked here is the page, not the link.
    status, _ = run.app(*SIZE, "--lesson", "cublas", "--stop", str(live), "--frames", "5", "--actions",
                        "page-live; " + LINK_BY_FORMULA)
    state = run.state()
    check(status == 0 and state["page"] == "live", "its last stop ends on the Live GPU page")
    if not state["live"]["device"].get("available"):
        live = state["live"]
        check(live["loaded_from"].endswith("assets/results/h100-bench.json") and "shipped" in live["message"],
              "without a GPU it shows the shipped H100 run and says so: %s" % live["message"])
        # What the room reads names no folder of this machine: the build's or the install's.
        shown = [live["message"], live["provenance"], live["device"]["reason"]]
        check(not any(os.path.dirname(live["loaded_from"]) in line or "/libtilescope_gpu" in line for line in shown),
              "the messages on screen name no path of this machine: %s" % shown)
        check(live["provenance"].startswith("loaded from assets/results/h100-bench.json, measured on "),
              "the provenance names the shipped file by its place in the assets: %s" % live["provenance"])


def test_quote_waits_for_the_reveal(binary):
    """Stop 1 asks for the tile phases; the exercise's quotation says "Number of tile phases: 2".
    Before the answer the quotation and its claim are not shown; after it they are, and in
    lecturer mode once V reveals the answer to the class."""
    stops = tour()
    quoted = stops[0]["seed"]["text"]
    run = Run(binary, tour=True)
    before = os.path.join(run.dir, "before.json")
    status, _ = run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions",
                        "guide-stop 1; dump-state %s; wait 1; guide-answer 0; wait 1" % before)
    with open(before) as f:
        asking = json.load(f)["guide"]
    check(status == 0 and asking["answer"]["state"] == "waiting", "stop 1 waits for its answer")
    check(asking["quote"] == "" and asking["claim_checks"] == [],
          "before the answer the exercise's quotation, which states it, is held back: %r" % asking["quote"])
    after = run.state()["guide"]
    check(after["quote"] == quoted and after["claim_checks"], "after the reveal it is shown: %r, %s"
          % (after["quote"], after["claim_checks"]))
    run = Run(binary, tour=True)
    asked = os.path.join(run.dir, "asked.json")
    run.app(*SIZE, "--lesson", "default", "--frames", "3", "--actions",
            "guide-stop 1; guide-lecturer; wait 1; dump-state %s; wait 1; guide-reveal; wait 1" % asked)
    with open(asked) as f:
        check(json.load(f)["guide"]["quote"] == "", "asking the class (lecturer mode) it is held back too")
    check(run.state()["guide"]["quote"] == quoted, "V reveals it with the answer")


if __name__ == "__main__":
    run_tests(globals())
