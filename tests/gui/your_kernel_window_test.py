"""A student's own kernel in the real window, beyond its source, tiles and hazards: Controls and
Narration describe THEIR kernel (file, kernel, launch, sizes, the step; each step told from the
model's record of it), a kernel of a file with several is picked by name, the schedulers the
lessons offer (race among them) run it again and Hazards follows, presentation shows their
source following the thread with Hazards beside it, and the exercise's milestones in the Guide,
from `tilescope exercise tiled DIR --open`.

Figures are compared with what `tilescope check` and `tilescope exercise tiled --check` print
for the same file, never typed in."""
import json
import os
import re
import shutil
import subprocess

from guitest import Run, check, run_tests

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "corpus")
TWO_KERNELS = os.path.join(HERE, "..", "app", "two_kernels.cu")


def student_copy(run, path):
    copy = os.path.join(run.dir, "my_" + os.path.basename(path))
    shutil.copy(path, copy)
    return copy


def marker_lines(path):
    """Every `// @name` marker of the code lines of `path`: name → line."""
    found = {}
    with open(path) as f:
        for number, text in enumerate(f, start=1):
            for name in re.findall(r"^\s*[^/\s].*//.*@(\w+)", text):
                found[name] = number
    return found


def shown(state, panel):
    return " ".join(state["lesson_panels"][panel]["shown_text"])


def test_controls_and_narration_tell_the_students_kernel(binary):
    run = Run(binary)
    path = student_copy(run, os.path.join(CORPUS, "race_missing_first_barrier.cu"))
    status, _ = run.app("--kernel", path, "--actions", "jump-to 300; wait 60", "--frames", "5",
                        "--width", "1366", "--height", "768")
    check(status == 0, "the app exits 0")
    state = run.state()
    mine, lesson = state["your_kernel"], state["lesson"]
    controls = shown(state, "controls")
    check("Your kernel matmul in %s" % path in controls, "Controls names the file and the kernel: %s" % controls)
    check(mine["launch"] in controls, "Controls shows the launch %s" % mine["launch"])
    check("Step 300 of %d" % lesson["total_steps"] in controls, "Controls counts the student's run's steps")
    check(not re.search(r"\btile \d|1st barrier|phase \d", controls), "nothing of the built-in lesson's tile, barriers or phases")
    check((lesson["m"], lesson["n"], lesson["k"]) == (32, 32, 32) and mine["launch"].endswith("at 32x32x32"),
          "the lesson's sizes are the kernel's run: %s" % mine["launch"])
    sentence = state["lesson_panels"]["narration"]["sentence"]
    lines = marker_lines(path)
    told = re.match(r"^(Warp \d+ of block \(\d+,\d+\), \d+ lanes at|Thread \(\d+,\d+\) of block \(\d+,\d+\),) line (\d+): ",
                    sentence)
    check(told is not None, "the narration tells the step's thread and line: %s" % sentence)
    check(int(told.group(2)) in lines.values(), "at a line of the student's file that does something")
    check("As[" in sentence or "Bs[" in sentence or "A[" in sentence or "B[" in sentence or "__syncthreads" in sentence,
          "and what it read or wrote, by the student's own array names")


def test_a_kernel_of_several_is_picked_by_name(binary):
    run = Run(binary)
    path = student_copy(run, TWO_KERNELS)
    status, _ = run.app("--kernel", path, "--frames", "5")
    check(status == 0, "a file with two kernels opens in the window (check would ask which)")
    mine = run.state()["your_kernel"]
    check(mine["kernel_names"] == ["naive", "tiled"] and mine["kernel"] == "naive", "on its first kernel: %s" % mine["kernel"])
    check(mine["shared_arrays"] == [], "naive has no shared arrays")

    status, _ = run.app("--kernel", path, "--actions", "jump-to 20; kernel-name tiled; wait 60", "--frames", "5")
    check(status == 0, "kernel-name tiled is taken")
    state = run.state()
    check(state["your_kernel"]["kernel"] == "tiled", "the tiled kernel runs")
    check([a["name"] for a in state["your_kernel"]["shared_arrays"]] == ["As", "Bs"], "with its As and Bs")
    check(state["lesson"]["step"] == 0, "another kernel starts at its start")
    check(state["your_kernel"]["findings"] == [] and state["your_kernel"]["c_wrong_elements"] == 0,
          "and is checked: no finding, C right")

    status, _ = run.app("--kernel", path, "--kernel-name", "tiled", "--frames", "5")
    check(status == 0 and run.state()["your_kernel"]["kernel"] == "tiled", "--kernel-name tiled opens it at once")


def check_json(binary, run, path, scheduler):
    out = os.path.join(run.dir, "check-%s.json" % scheduler)
    subprocess.run([binary, "check", "--no-gpu", "--scheduler", scheduler, "--sizes", "32", "--json", out, path],
                   capture_output=True, timeout=300)
    with open(out) as f:
        return json.load(f)


def test_the_race_scheduler_runs_it_again_and_hazards_follow(binary):
    run = Run(binary)
    path = student_copy(run, os.path.join(CORPUS, "race_missing_first_barrier.cu"))
    status, _ = run.app("--kernel", path, "--actions", "jump-to 200; kernel-scheduler race; wait 60", "--frames", "5")
    check(status == 0, "kernel-scheduler race is taken")
    state = run.state()
    mine = state["your_kernel"]
    check(mine["scheduler"] == "race" and state["lesson"]["scheduler"] == "race", "the kernel runs under race")
    check(state["lesson"]["step"] == 200, "at the same step")
    expected = check_json(binary, run, path, "race")
    check(mine["c_wrong_elements"] == expected["runs"][0]["wrong_elements"],
          "C wrong at %d elements, as `check --scheduler race` counts them (%d)"
          % (mine["c_wrong_elements"], expected["runs"][0]["wrong_elements"]))
    check([(f["kind"], f["line"], f["count"]) for f in mine["findings"]] ==
          [(f["kind"], f["line"], f["count"]) for f in expected["findings"]],
          "Hazards lists what check finds under race, with its counts")
    check("scheduler: race" in shown(state, "controls"), "Controls says which scheduler runs")

    status, _ = run.app("--kernel", path, "--actions", "race-scheduler; wait 30", "--frames", "5")
    check(status == 0 and run.state()["your_kernel"]["scheduler"] == "race", "S (race-scheduler) switches it too")
    status, _ = run.app("--kernel", path, "--actions", "kernel-scheduler thread; wait 30", "--frames", "5")
    state = run.state()
    expected = check_json(binary, run, path, "thread")
    check(status == 0 and state["your_kernel"]["scheduler"] == "thread", "so do the other schedulers")
    check(state["your_kernel"]["c_wrong_elements"] == expected["runs"][0]["wrong_elements"],
          "C under thread order as check counts it (%d)" % expected["runs"][0]["wrong_elements"])


def test_presentation_follows_the_thread_with_hazards_beside_it(binary):
    run = Run(binary)
    path = student_copy(run, os.path.join(CORPUS, "race_missing_first_barrier.cu"))
    excerpts = []
    for step in (1, 2000):
        status, _ = run.app("--kernel", path, "--presentation", "--actions", "jump-to %d; wait 60" % step,
                            "--screenshot", run.screenshot, "--width", "1366", "--height", "768")
        check(status == 0, "the app exits 0 at step %d" % step)
        state = run.state()
        panels = state["lesson_panels"]
        check(panels["hazards"]["visible"] and panels["kernel_source"]["visible"] and panels["shared_tiles"]["visible"],
              "presentation shows the student's source, Hazards and the shared arrays")
        check(not panels["matrices"]["visible"], "the matrices fold away for them")
        source = state["kernel_source"]
        check(source["next_lines"] and min(source["next_lines"]) in source["excerpt_lines"],
              "the followed thread's line %s is in the excerpt %s" % (source["next_lines"], source["excerpt_lines"]))
        excerpts.append((source["next_lines"], source["excerpt_lines"]))
    check(excerpts[0][0] != excerpts[1][0], "the thread moved on: %s, then %s" % (excerpts[0][0], excerpts[1][0]))


def test_exercise_opens_the_window_and_the_guide_shows_its_milestones(binary):
    run = Run(binary)
    folder = os.path.join(run.dir, "ex")
    status, output = run.app("--frames", "5", "--actions", "wait 60", "--width", "1366", "--height", "768",
                             "--screenshot", run.screenshot, "exercise", "tiled", folder, "--open")
    check(status == 0, "exercise tiled DIR --open writes the starter and opens it")
    path = os.path.join(folder, "tiled.cu")
    state = run.state()
    check(state["your_kernel"]["file"] == path, "the window shows the starter")
    printed = subprocess.run([binary, "exercise", "tiled", "--check", path], capture_output=True, text=True, timeout=300)
    expected = re.findall(r"^\[([ x])\] ([^:]+): (.*)$", printed.stdout, re.MULTILINE)
    milestones = state["your_kernel"]["milestones"]
    check([(m["reached"], m["milestone"], m["why"]) for m in milestones] ==
          [(mark == "x", name, why) for mark, name, why in expected],
          "the Guide's milestones are what exercise --check prints: %s" % milestones)
    guide = state["lesson_panels"]["guide"]
    check(guide["visible"], "the Guide is on show beside the kernel")
    reached = sum(m["reached"] for m in milestones)
    check("%d of %d milestones" % (reached, len(milestones)) in shown(state, "guide"), "it counts them")

    status, output = run.app("--frames", "5", "exercise", "tiled", folder, "--open")
    check(status == 0 and "as it is" in output, "opened again, the student's file is kept, not overwritten")


SCREENS = (("1366x768", ["--width", "1366", "--height", "768"]),
           ("1920x1080", ["--width", "1920", "--height", "1080"]),
           ("1366x768 presentation", ["--width", "1366", "--height", "768", "--presentation"]))


def test_at_1366_the_pickers_and_the_milestones_need_no_scrolling(binary):
    """What a panel draws after them is in view (--dump-state's shown_text holds the text at least
    partly in view), so the pickers and every milestone above it are whole in view."""
    run = Run(binary)
    folder = os.path.join(run.dir, "ex")
    status, _ = run.app("--actions", "wait 60", "--frames", "5", "--width", "1366", "--height", "768",
                        "exercise", "tiled", folder, "--open")
    check(status == 0, "the exercise opens at 1366x768")
    state = run.state()
    guide, controls = shown(state, "guide"), shown(state, "controls")
    check(len(state["your_kernel"]["milestones"]) == 6, "six milestones were checked")
    check(all(m["milestone"] in guide and m["why"] in guide for m in state["your_kernel"]["milestones"]),
          "the Guide shows every milestone and why: %s" % guide)
    check("Exercise: write the tiled kernel" in guide, "and the sentence under the list: the list is whole in view")
    for panel in ("guide", "controls", "counters", "hazards"):
        check(state["lesson_panels"][panel]["clipped_text"] == 0, "nothing in %s is cut sideways: %s"
              % (panel, state["lesson_panels"][panel]["clipped_examples"]))
    check("Scheduler" in controls and "Your kernel matmul_tiled in" in controls,
          "Controls shows the scheduler picker and the summary under it: %s" % controls)
    check(not state["lesson_panels"]["race_lab"]["visible"] and state["lesson_panels"]["counters"]["visible"],
          "the built-in kernel's Race lab closes; Counters stays in view")

    # Presentation's room layout has neither; opened from the View menu they join it, whole in
    # view (presentation counts text below a panel's fold as cut).
    status, _ = run.app("--kernel", os.path.join(folder, "tiled.cu"), "--presentation", "--actions",
                        "panel-toggle guide; panel-toggle controls; wait 60", "--frames", "5", "--width", "1366",
                        "--height", "768")
    state = run.state()
    panels = state["lesson_panels"]
    check(status == 0 and panels["guide"]["visible"] and panels["controls"]["visible"],
          "presentation: the Guide and Controls open beside the room's panels")
    check(panels["guide"]["clipped_text"] == 0 and "Exercise: write the tiled kernel" in shown(state, "guide"),
          "presentation: the Guide's milestones are whole in view: %s" % panels["guide"]["clipped_examples"])
    check("Scheduler" in shown(state, "controls") and
          not any(t in ("Scheduler", "realistic") for t in panels["controls"]["clipped_examples"]),
          "presentation: Controls shows the scheduler picker uncut: %s" % panels["controls"]["clipped_examples"])

    run = Run(binary)  # a fresh settings file: the last run saved presentation's panels
    path = student_copy(run, TWO_KERNELS)
    status, _ = run.app("--kernel", path, "--actions", "wait 60", "--frames", "5", "--width", "1366", "--height", "768")
    controls = shown(run.state(), "controls")
    check(status == 0 and "Kernel" in controls.split() and "Scheduler" in controls and "Your kernel naive in" in controls,
          "a file of two kernels: both pickers and the summary under them in view: %s" % controls)


def test_shared_array_captions_never_overlap(binary):
    """Side by side, "float As[16][16] (line 9)" and "float Bs[16][16] (line 10)" once ran into each
    other: each caption stays inside its column, broken at spaces, a word still too wide cut with
    an ellipsis (the whole caption on hover)."""
    run = Run(binary)
    path = student_copy(run, os.path.join(CORPUS, "race_missing_first_barrier.cu"))
    for label, screen in SCREENS:
        status, _ = run.app("--kernel", path, "--actions", "jump-to 700; wait 60", "--frames", "5", *screen)
        check(status == 0, "%s: the app exits 0" % label)
        state = run.state()
        arrays = state["lesson_panels"]["your_shared_arrays"]["arrays"]
        panel = state["lesson_panels"]["shared_tiles"]
        check([a["name"] for a in arrays] == ["As", "Bs"], "%s: As and Bs are drawn" % label)
        check(panel["clipped_text"] == 0, "%s: no caption is cut at an edge: %s" % (label, panel["clipped_examples"]))
        rects = [a["caption_rect"] for a in arrays]
        clash = [(a["caption"], b["caption"]) for i, a in enumerate(arrays) for b in arrays[i + 1:]
                 if overlap(a["caption_rect"], b["caption_rect"])]
        check(not clash, "%s: the captions %s do not overlap: %s" % (label, rects, clash))
        for a in arrays:
            check(drawn_in_order(a["caption"], a["caption_lines"]),
                  "%s: %s is drawn whole, broken at spaces, a word cut with an ellipsis: %s"
                  % (label, a["caption"], a["caption_lines"]))


def drawn_in_order(caption, lines):
    """Each line the caption's next words, or their start ending in an ellipsis; all of it in all."""
    rest = caption
    for line in lines:
        stem = line[:-1] if line.endswith("\u2026") else line
        if not stem or not rest.startswith(stem):
            return False
        rest = rest[len(stem):]
        if line.endswith("\u2026"):
            rest = rest[rest.index(" "):] if " " in rest else ""
        rest = rest.lstrip(" ")
    return rest == ""


def overlap(r, s):
    return r[0] < s[2] and s[0] < r[2] and r[1] < s[3] and s[1] < r[3]


def exercise_check(binary, path, flags=()):
    printed = subprocess.run([binary, "exercise", "tiled", "--check", path] + list(flags), capture_output=True, text=True,
                             timeout=300)
    return [(mark == "x", name, why) for mark, name, why in re.findall(r"^\[([ x])\] ([^:]+): (.*)$", printed.stdout, re.MULTILINE)]


def test_the_guide_judges_the_kernel_as_the_window_runs_it(binary):
    """TILE a template parameter and no launch: only --define and --block say how it runs, so
    the Guide must judge it with the window's own options, as check does with the same flags."""
    run = Run(binary)
    path = os.path.join(run.dir, "template_without_launch.cu")
    with open(os.path.join(CORPUS, "tiled_template_correct.cu")) as f:
        source = f.read()
    with open(path, "w") as f:
        f.write(source[:source.index("void launch(")])
    flags = ["--define", "TILE=16", "--block", "16x16"]
    status, _ = run.app("--kernel", path, *flags, "--actions", "wait 60", "--frames", "5", "--width", "1366",
                        "--height", "768")
    check(status == 0, "the window opens the kernel with --define TILE=16 --block 16x16")
    state = run.state()
    mine = state["your_kernel"]
    check(state["lesson_panels"]["hazards"]["clipped_text"] == 0, "Hazards' verdict (C right) is not cut at 1366x768: %s"
          % state["lesson_panels"]["hazards"]["clipped_examples"])
    got = [(m["reached"], m["milestone"], m["why"]) for m in mine["milestones"]]
    check(got == exercise_check(binary, path, flags),
          "the Guide's milestones are what exercise --check prints with the same flags: %s" % got)
    check(all(m["reached"] for m in mine["milestones"]), "the kernel, run as asked, reaches every milestone")
    out = os.path.join(run.dir, "check.json")
    subprocess.run([binary, "check", "--no-gpu", "--json", out, path] + flags, capture_output=True, timeout=300)
    with open(out) as f:
        checked = json.load(f)
    sizes = ["%dx%dx%d" % (r["m"], r["n"], r["k"]) for r in checked["runs"]]
    whys = " ".join(m["why"] for m in mine["milestones"])
    check(all(r["wrong_elements"] == 0 for r in checked["runs"]) and all(s in whys for s in sizes),
          "at the sizes check runs with those flags (%s), where it finds C right" % sizes)


def test_the_guide_checks_the_milestones_again_at_each_save(binary):
    run = Run(binary)
    folder = os.path.join(run.dir, "ex")
    subprocess.run([binary, "exercise", "tiled", folder], capture_output=True, timeout=60)
    path = os.path.join(folder, "tiled.cu")
    solved = os.path.join(CORPUS, "tiled_correct.cu")
    status = run.interact(["--kernel", path, "--width", "1366", "--height", "768"],
                          ['sleep 2', 'cp "%s" "%s"; sleep 4' % (solved, path)])
    check(status == 0, "the app quits with status 0")
    milestones = run.state()["your_kernel"]["milestones"]
    got = [(m["reached"], m["milestone"], m["why"]) for m in milestones]
    check(got == exercise_check(binary, path), "after the save the Guide shows what exercise --check prints for it: %s" % got)
    check(all(m["reached"] for m in milestones), "the solved kernel reaches every milestone")


if __name__ == "__main__":
    run_tests(globals())
