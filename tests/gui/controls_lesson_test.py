"""The Controls panel's lesson fields in the real window: a bad value is named beside its
field while the last good lesson keeps running; the running lesson survives a restart;
--lesson opens a lesson file or a preset, and a bad file is reported with the default open."""
import json
import os

from guitest import Run, check, read_png, region_colours, run_tests


def test_bad_field_keeps_last_good_lesson(binary):
    run = Run(binary)
    status, output = run.app("--width", "1600", "--height", "900", "--frames", "5", "--screenshot", run.screenshot,
                             "--actions", "lesson-set m=6 tile=3; step; lesson-set m=0; step")
    check(status == 1 and '1 scripted action was refused, the first "lesson-set m=0"' in output,
          "the app goes on to the screenshot; the scripted run exits 1 for its refused step")
    check(os.path.exists(run.screenshot), "the screenshot was still saved")
    state = run.state()
    controls = state["controls"]
    check(controls["error"] is not None and controls["error"]["field"] == "m", "the problem names the field m")
    check("m = 0" in controls["error"]["message"] and "at least 1" in controls["error"]["message"],
          "the message says what is wrong: " + controls["error"]["message"])
    check(controls["draft"]["m"] == 0, "the field keeps the value typed")
    check(state["lesson"]["m"] == 6 and state["lesson"]["tile"] == 3, "the last good lesson (M = 6, TILE 3) still runs")
    check(state["lesson"]["step"] == 2, "and it went on stepping")
    check(any("m = 0" in n["text"] for n in state["notifications"]), "the status bar carries the message too")
    png = read_png(run.screenshot)
    # The message is drawn in the palette's orange inside the Controls panel (left column).
    orange = (230, 159, 0)
    x0, y0, x1, y1 = (int(v) for v in state["lesson_panels"]["controls"]["rect"])
    check(orange in region_colours(png, x0, y0, x1, y1), "the message is drawn in the Controls panel")


def test_unreadable_value_and_fix(binary):
    run = Run(binary)
    status, output = run.app("--frames", "3", "--actions", "lesson-set tile=abc; lesson-set kernel=fast")
    check(status == 1 and "2 scripted actions were refused" in output, "both refused; the scripted run exits 1")
    controls = run.state()["controls"]
    check(controls["error"]["field"] == "kernel" and "tiled, rect, naive" in controls["error"]["message"],
          "a bad kernel name lists the allowed ones")
    fixed = Run(binary)
    fixed.app("--frames", "3", "--actions", "lesson-set m=0; lesson-set m=8 n=8 k=8 tile=4")
    state = fixed.state()
    check(state["controls"]["error"] is None, "a good value clears the message")
    check(state["lesson"]["m"] == 8 and state["lesson"]["tile"] == 4, "and the edited lesson runs")


def test_last_lesson_survives_restart(binary):
    run = Run(binary)
    saved = os.path.join(run.dir, "saved.json")
    status, _ = run.app("--frames", "3", "--actions",
                        "lesson-set m=6 n=5 k=7 tile=4 barrier2=off scheduler=race fill_a=random:9; lesson-save "
                        + saved)
    check(status == 0, "first run exits 0")
    again = Run(binary, config_home=run.config_home)
    status, _ = again.app("--frames", "3")
    check(status == 0, "second run exits 0")
    lesson = again.state()["lesson"]
    check((lesson["m"], lesson["n"], lesson["k"], lesson["tile"]) == (6, 5, 7, 4), "sizes and tile survive a restart")
    check(lesson["barrier2"] == "off" and lesson["scheduler"] == "race", "barriers and scheduler survive a restart")
    check(again.state()["controls"]["draft"]["fill_a"] == {"kind": "random", "seed": 9}, "the fill survives a restart")
    with open(saved) as f:
        check(json.load(f)["m"] == 6, "lesson-save wrote the running lesson")
    fresh = Run(binary)
    status, _ = fresh.app("--frames", "3", "--lesson", saved)
    check(status == 0 and fresh.state()["lesson"]["k"] == 7, "--lesson FILE.json opens that lesson")


def test_lesson_option_presets_and_bad_file(binary):
    run = Run(binary)
    run.app("--frames", "3", "--lesson", "race_tile16")
    lesson = run.state()["lesson"]
    check(lesson["tile"] == 16 and lesson["barrier1"] == "off", "--lesson takes a preset name")
    bad = Run(binary)
    path = os.path.join(bad.dir, "bad.json")
    with open(path, "w") as f:
        f.write('{"version": 1, "m": -3}')
    # A scripted run fails before its window opens: it would show and save the default lesson.
    status, output = bad.app("--frames", "3", "--lesson", path)
    check(status == 1 and "m = -3" in output and "did not open: a scripted run stops here" in output,
          "a scripted run of a bad lesson file fails, naming the bad value")
    check(not os.path.exists(bad.state_file), "and writes no state of the default lesson")
    # Nothing is shown, so nothing says the default lesson is: the run stops.
    check("default lesson is open" not in output, "a scripted run says only that it stops: " + output)
    missing = Run(binary)
    status, output = missing.app("--lesson", os.path.join(missing.dir, "MISSING.json"), "--screenshot",
                                 missing.screenshot)
    check(status == 1 and "did not open" in output and not os.path.exists(missing.screenshot),
          "--lesson MISSING.json --screenshot fails and saves no screenshot of the default lesson")


def test_export_trace(binary):
    run = Run(binary)
    path = os.path.join(run.dir, "trace.json")
    status, _ = run.app("--frames", "3", "--actions", "step; lesson-export-trace " + path)
    check(status == 0, "app exits 0 once the export finished")
    with open(path) as f:
        trace = json.load(f)
    check(trace["global_reads_total"] == 64 and trace["naive_global_reads"] == 128,
          "the exported trace counts 64 tiled and 128 naive global reads")
    check(run.state()["controls"]["status"].startswith("wrote the trace"), "the panel reports the file written")


if __name__ == "__main__":
    run_tests(globals())
