"""A student's own kernel in the real window (--kernel FILE.cu): the Kernel source panel shows
their file with the lines the warps run next, the Shared tiles panel their __shared__ arrays by
name, the Hazards panel a race with both of its lines (and marks both in the source), Counters
their global reads beside the textbook tiled kernel's, both counted on the model; a save made
while the window is open is read again and keeps the step; a save that does not compile is
shown at its line while the last good run stays on show.

Line numbers are found in the corpus files by their `// @name` markers, never typed in here."""
import os
import re
import shutil

from guitest import Run, check, run_tests

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus")


def marker_line(path, name):
    """The line of code in `path` that carries the marker `// @name` (not the header's expectations)."""
    with open(path) as f:
        for number, text in enumerate(f, start=1):
            if re.search(r"^\s*[^/\s].*//.*@%s\b" % name, text):
                return number
    raise AssertionError("no @%s in %s" % (name, path))


def student_copy(run, name):
    """A corpus kernel copied into the run's folder, as a student's file of their own."""
    path = os.path.join(run.dir, "my_" + name)
    shutil.copy(os.path.join(CORPUS, name), path)
    return path


def test_kernel_flag_opens_it_as_the_lesson(binary):
    run = Run(binary)
    path = student_copy(run, "tiled_correct.cu")
    status, _ = run.app("--kernel", path, "--actions", "jump-to 300; wait 60", "--screenshot", run.screenshot,
                        "--width", "1366", "--height", "768")
    check(status == 0, "the app opens the kernel and exits 0")
    state = run.state()
    mine = state["your_kernel"]
    check(mine["file"] == path, "your_kernel.file is the student's file")
    check([a["name"] for a in mine["shared_arrays"]] == ["As", "Bs"], "your_kernel.shared_arrays names As and Bs")
    check(mine["findings"] == [] and mine["c_wrong_elements"] == 0, "the correct kernel has no finding and C is right")
    source = state["kernel_source"]
    check(source["file"] == path and source["shown_lines"] > 0, "the Kernel source panel shows the student's file")
    check(source["warp_lines"], "it marks the lines the followed block's warps run next: %s" % source["warp_lines"])
    with open(path) as f:
        count = len(f.read().splitlines())
    check(all(1 <= int(line) <= count for line in source["warp_lines"]), "every marked line is a line of the file")
    arrays = state["lesson_panels"]["your_shared_arrays"]["arrays"]
    check([a["name"] for a in arrays] == ["As", "Bs"] and all(a["rows"] * a["cols"] > 0 for a in arrays),
          "the Shared tiles panel draws As and Bs by name")
    counters = state["lesson"]["counters"]
    check(counters["comparison_kernel"] == "tiled" and counters["comparison_global_reads_counted"] > 0,
          "Counters count the textbook tiled kernel on the model: %s reads" % counters["comparison_global_reads_counted"])
    check(counters["global_reads_a"] + counters["global_reads_b"] == counters["global_reads"],
          "the reads of A and B shown add up to the global reads so far")
    check(counters["whole_run_global_reads"] == counters["comparison_global_reads_counted"],
          "the handout's tiled kernel as a file reads as many elements as the textbook one at the same tile")


def test_open_kernel_action_from_a_lesson(binary):
    """File → Open kernel queues kernel-open with the path typed: the lesson on show gives way."""
    run = Run(binary)
    path = student_copy(run, "shared_oob_padding_off_by_one.cu")
    status, _ = run.app("--lesson", "default", "--actions", "kernel-open %s; wait 60" % path, "--frames", "5")
    check(status == 0, "the app exits 0")
    state = run.state()
    check(state["your_kernel"]["file"] == path, "the kernel opened from the lesson is on show")
    check(any(f["kind"] == "out_of_bounds" and f["memory"] == "shared" for f in state["your_kernel"]["findings"]),
          "its shared index outside the declared extent is found")


def test_race_shows_both_lines(binary):
    run = Run(binary)
    path = student_copy(run, "race_missing_first_barrier.cu")
    read, write = marker_line(path, "fma"), marker_line(path, "load_b")
    status, _ = run.app("--kernel", path, "--actions", "wait 60; source-show-lines %d %d" % (read, write),
                        "--frames", "5")
    check(status == 0, "the app exits 0")
    state = run.state()
    races = [f for f in state["hazards"]["findings"] if f["kind"] == "race" and f["severity"] == "error"]
    check(any(f["hazard"] == "RAW" and f["line"] == read and f["other_line"] == write for f in races),
          "the Hazards panel lists the RAW race between the read at line %d and the write at line %d" % (read, write))
    race = [f for f in races if f["line"] == read and f["other_line"] == write][0]
    check(race["buttons"] == [read, write], "it offers a button for each of its two lines")
    check(state["kernel_source"]["marked_lines"] == [read, write],
          "the lines the finding names are marked in the Kernel source panel")
    check(state["your_kernel"]["c_wrong_elements"] > 0, "C is wrong: %d elements" % state["your_kernel"]["c_wrong_elements"])


def test_save_is_read_again_and_keeps_the_step(binary):
    run = Run(binary)
    path = student_copy(run, "race_missing_first_barrier.cu")
    fixed = os.path.join(CORPUS, "tiled_correct.cu")
    events = ['xdotool key --window "$win" --repeat 40 --delay 20 Right; sleep 1',
              'cp "%s" "%s"; sleep 3' % (fixed, path)]
    status = run.interact(["--kernel", path, "--width", "1366", "--height", "768"], events)
    check(status == 0, "the app quits with status 0")
    state = run.state()
    check(state["your_kernel"]["reloads"] == 1 and state["your_kernel"]["problem"] is None,
          "the save was read once, and it compiles")
    check(state["your_kernel"]["findings"] == [], "the saved version (barrier back) has no finding left")
    check(state["lesson"]["step"] == 40, "the window stays at step 40, where the student was")


def test_parse_error_keeps_the_last_good_run(binary):
    run = Run(binary)
    path = student_copy(run, "race_missing_first_barrier.cu")
    broken_line = marker_line(path, "load_b")
    with open(path) as f:
        lines = f.read().splitlines()
    lines[broken_line - 1] = "    Bs[ty][tx] = ;  // @load_b"
    broken = os.path.join(run.dir, "broken.cu")
    with open(broken, "w") as f:
        f.write("\n".join(lines) + "\n")
    events = ['xdotool key --window "$win" --repeat 30 --delay 20 Right; sleep 2',
              'cp "%s" "%s"; sleep 3' % (broken, path)]
    status = run.interact(["--kernel", path, "--width", "1366", "--height", "768"], events)
    check(status == 0, "the app quits with status 0")
    state = run.state()
    problem = state["your_kernel"]["problem"]
    check(problem is not None and problem["line"] == broken_line, "the parse error is at line %d" % broken_line)
    check(re.match(r"^%s:%d:\d+: " % (re.escape(path), broken_line), problem["message"]),
          "it reads file:line:col: %s" % problem["message"])
    check(state["kernel_source"]["problem_line"] == broken_line, "the Kernel source panel marks that line")
    check(state["lesson"]["step"] == 30, "the last good run stays at step 30")
    check(any(f["kind"] == "race" for f in state["your_kernel"]["findings"]),
          "the last good run's findings stay on show")


if __name__ == "__main__":
    run_tests(globals())
