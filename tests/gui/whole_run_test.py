"""A big lesson never freezes the window: the whole-run pass (total steps, timeline marks,
whole-run counters) runs on a worker while the window keeps drawing and stepping, shows its
progress, and can be cancelled; a small lesson's pass finishes and fills the figures in."""
import json
import os
import re

from guitest import Run, check, run_tests


def test_big_lesson_counts_on_a_worker_and_cancels(binary):
    run = Run(binary)
    # 60 frames: a second or so at the frame rate the window keeps while the pass runs, long
    # enough for the pass (a lower-priority worker) to report progress, far too short for it to
    # finish (tens of seconds at 512³).
    status, _ = run.app("--frames", "3", "--actions",
                        "lesson-set m=512 n=512 k=512 tile=16; wait 60; step; step; whole-run-cancel")
    check(status == 0, "app exits 0")
    lesson = run.state()["lesson"]
    whole = lesson["whole_run"]
    print("whole run:", whole)
    check((lesson["m"], lesson["tile"]) == (512, 16), "the 512³ TILE 16 lesson runs")
    check(whole["state"] == "cancelled", "whole-run-cancel stopped the count")
    check(whole["frames_while_counting"] >= 60, "the window drew frames while the pass ran")
    check(0.0 < whole["fraction"] < 1.0, "progress was reported and the count was not finished")
    check(lesson["total_steps"] is None, "the run's length stays unknown, not made up")
    check(lesson["step"] == 2, "stepping worked while the pass ran")
    controls = run.state()["lesson_panels"]["controls"]["shown_text"]
    print("controls:", controls)
    check("cancelled" in controls, "Controls' progress bar says the count was cancelled (it read 0 %)")
    fps = whole["frames_while_counting"] / max(whole["seconds_counting"], 1e-9)
    print("frames/s while counting: %.1f" % fps)


def test_a_lesson_too_large_even_without_step_back_is_refused_before_it_starts(binary):
    """2048³ TILE 16 does not fit even without step back: refused with the size and the limit,
    before any pass starts, and the lesson on show stays."""
    run = Run(binary)
    status, output = run.app("--frames", "3", "--lesson", "default", "--actions",
                             "lesson-set m=2048 n=2048 k=2048 tile=16")
    lesson = run.state()["lesson"]
    check(status == 1 and "1 scripted action was refused" in output, "the scripted lesson change is refused: %d" % status)
    check(re.search(r"M = 2048, N = 2048, K = 2048 needs about \d+ MiB of model state even without step back: "
                    r"the limit is 1024 MiB", output),
          "the message names the lesson's size, the memory it needs and the limit")
    check((lesson["m"], lesson["tile"]) == (4, 2), "the lesson on show stays")
    check(lesson["whole_run"]["state"] == "done" and lesson["total_steps"] is not None,
          "no whole-run pass was started for the refused lesson: the one on show stays counted")


STEPPING_OFF = re.compile(r"Stepping and step back are off for this size: M = 1024, N = 1024, K = 1024 with step "
                          r"back needs about (\d+) MiB of model state, over the 1024 MiB limit\. Its whole run is "
                          r"counted once instead \(about (\d+) MiB\)")


def check_opened_without_step_back(run, status, output):
    lesson = run.state()["lesson"]
    whole = lesson["whole_run"]
    print("whole run:", whole)
    check((lesson["m"], lesson["n"], lesson["k"], lesson["tile"]) == (1024, 1024, 1024, 16),
          "1024³ TILE 16 opens, no longer refused for memory")
    check(lesson["stepping"] is False and STEPPING_OFF.match(lesson["stepping_off"] or ""),
          "stepping and step back are off, with the memory each way: %s" % lesson["stepping_off"])
    with_back, without = map(int, STEPPING_OFF.match(lesson["stepping_off"]).groups())
    check(with_back > 1024 >= without, "over the limit with step back, within it without")
    check(status == 1 and lesson["stepping_off"] in output, "the refused step says why, in the same words")
    check(lesson["step"] == 0, "the step was refused: the lesson stands at step 0 until its whole run is counted")
    check(whole["state"] == "cancelled" and whole["frames_while_counting"] >= 60 and 0.0 < whole["fraction"] < 1.0,
          "its whole run was counted on a worker while the window drew, and cancelled")
    controls = run.state()["lesson_panels"]["controls"]
    check(any(lesson["stepping_off"] in text for text in controls["shown_text"]), "Controls says so in the same words")
    check({"\u2190 Back", "Step \u2192", "Play", "Reset"} <= set(controls["dimmed_text"]),
          "the stepping buttons are drawn greyed out %s" % controls["dimmed_text"])
    race_lab = run.state()["lesson_panels"]["race_lab"]
    # (below the Race lab's fold in a small window: then not shown at all)
    check("Run to end" not in race_lab["shown_text"] or "Run to end" in race_lab["dimmed_text"],
          "the Race lab's Run to end is greyed out too %s" % race_lab["dimmed_text"])
    narration = run.state()["lesson_panels"]["narration"]["shown_text"]
    check(any(text.startswith(lesson["stepping_off"]) for text in narration) and
          not any("Step (\u2192)" in text for text in narration),
          "the Narration says why no step is told, not to step: %s" % narration)
    check("A, B and C are shown once the whole run is counted (see Controls)." in
          run.state()["lesson_panels"]["matrices"]["shown_text"],
          "Matrices waits for the whole run rather than making C's reference on the window's thread")


def test_a_big_lesson_opens_without_step_back_from_the_editor(binary):
    """1024³ TILE 16 needs more than the limit with step back: it opens without, its whole run
    counted on a worker (issue 29)."""
    run = Run(binary)
    status, output = run.app("--frames", "3", "--lesson", "default", "--actions",
                             "lesson-set m=1024 n=1024 k=1024 tile=16; wait 60; step; whole-run-cancel")
    check_opened_without_step_back(run, status, output)


def test_a_big_lesson_file_opens_without_step_back(binary):
    run = Run(binary)
    path = os.path.join(run.dir, "big.json")
    with open(path, "w") as f:
        json.dump({"version": 2, "name": "big", "m": 1024, "n": 1024, "k": 1024, "tile": 16}, f)
    status, output = run.app("--frames", "3", "--lesson", path, "--actions", "wait 60; step-back; whole-run-cancel")
    check_opened_without_step_back(run, status, output)
    refused = Run(binary)
    status, output = refused.app("--frames", "3", "--lesson", path, "--step", "5")
    check(status != 0 and STEPPING_OFF.search(output), "--step on it says why it cannot")


def test_small_lesson_count_arrives(binary):
    run = Run(binary)
    status, _ = run.app("--frames", "3", "--lesson", "default", "--actions", "run-to-end")
    check(status == 0, "app exits 0")
    lesson = run.state()["lesson"]
    check(lesson["whole_run"]["state"] == "done" and lesson["total_steps"] == lesson["step"] > 0,
          "the default lesson's whole run is counted: its length is where run-to-end stops")
    m, n, k, tile = lesson["m"], lesson["n"], lesson["k"], lesson["tile"]
    tiled_reads = -(-n // tile) * m * k + -(-m // tile) * k * n  # ceil(N/T)·M·K + ceil(M/T)·K·N
    check(lesson["counters"]["whole_run"]["global_reads"] == tiled_reads, "whole-run figures come with it")
    check(run.state()["lesson_panels"]["controls"]["dimmed_text"] == [], "its stepping buttons are not greyed out")


if __name__ == "__main__":
    run_tests(globals())
