"""The race lab in the real window: key 1 (a real X key event) switches the first barrier
off and the Hazards panel lists RAW warnings under the one-warp banner, with C still right
under the realistic scheduler; key S switches to the race-exposing scheduler and, with a
random fill, wrong elements of C are counted, and the banner no longer says lockstep hides it; key 1 again brings the barrier back and both
clear. Then "run 100 seeds" on a worker thread, and the GPU race run, which without a
device says why while the model's side still counts."""
import json
import os

from guitest import Run, check, run_tests

RANDOM_LESSON = {"version": 1, "name": "random_default", "m": 4, "n": 4, "k": 4, "tile": 2,
                 "fill_a": {"kind": "random", "seed": 3}, "fill_b": {"kind": "random", "seed": 4}}


def press(binary, run, lesson, *keys):
    """Presses `keys` one by one, as real X key events, in the window on `lesson`; then quits."""
    events = ['xdotool key --window "$win" %s; sleep 0.3' % key for key in keys]
    status = run.interact(["--lesson", lesson, "--width", "1600", "--height", "900"], events)
    check(status == 0, "the app quits with status 0 after keys " + " ".join(keys))
    return run.state()


def lesson_file(run):
    path = os.path.join(run.dir, "random.json")
    with open(path, "w") as f:
        json.dump(RANDOM_LESSON, f)
    return path


def test_barrier_key_shows_hazards_and_banner(binary):
    run = Run(binary)
    state = press(binary, run, lesson_file(run), "1", "End")
    check(state["lesson"]["barrier1"] == "off", "key 1 switched the first barrier off")
    switch = [s for s in state["kernel_source"]["switches"] if s["what"] == "barrier1"][0]
    check(not switch["on"], "the source view's checkbox for the first barrier is cleared")
    hazards = state["hazards"]
    check(hazards["count"] > 0 and hazards["raw"] == hazards["count"], "the Hazards panel lists RAW hazards only")
    check(hazards["warnings"] == hazards["count"] and hazards["errors"] == 0,
          "all are warnings: the 2x2 block is one warp")
    check(all(h["kind"] == "RAW" and h["severity"] == "warning" for h in hazards["listed"]), "each listed row says so")
    check("lockstep hides this race on today's gpus, but it is not guaranteed" in hazards["banner"].lower(),
          "the one-warp banner is shown")
    check(state["race_lab"]["scheduler"] == "realistic", "the realistic scheduler runs")
    check(state["race_lab"]["c"]["stored"] == 16 and state["race_lab"]["c"]["wrong"] == 0,
          "lockstep keeps C right: 0 of 16 wrong")


def test_race_scheduler_key_corrupts_c_and_barrier_key_clears(binary):
    run = Run(binary)
    state = press(binary, run, lesson_file(run), "1", "s", "End")
    check(state["race_lab"]["scheduler"] == "race", "key S switched to the race-exposing scheduler")
    check(state["race_lab"]["c"]["wrong"] > 0, "race-exposing with a random fill: %d of 16 elements of C wrong"
          % state["race_lab"]["c"]["wrong"])
    check(state["lesson_panels"]["matrices"]["c_wrong"] == state["race_lab"]["c"]["wrong"],
          "the Matrices panel marks the same %d wrong cells of C" % state["lesson_panels"]["matrices"]["c_wrong"])
    check(state["hazards"]["raw"] > 0, "the RAW hazards are still listed")
    banner = state["hazards"]["banner"].lower()
    check("lockstep hides this race on today's gpus, but" not in banner and "here the race bites" in banner,
          "the one-warp banner no longer says lockstep hides the race, which this scheduler does not keep: %r" % banner)
    check("this scheduler runs the lanes apart" in state["race_lab_case"]["headline"],
          "nor does the race lab's headline: %r" % state["race_lab_case"]["headline"])
    again = Run(binary)
    state = press(binary, again, lesson_file(again), "1", "s", "End", "1", "End")
    check(state["lesson"]["barrier1"] == "syncthreads", "key 1 again brought the first barrier back")
    check(state["hazards"]["count"] == 0 and state["hazards"]["banner"] == "", "no hazard and no banner")
    check(state["race_lab"]["c"]["stored"] == 16 and state["race_lab"]["c"]["wrong"] == 0, "C is right again")
    check(state["lesson_panels"]["matrices"]["c_wrong"] == 0, "and the Matrices panel marks no cell wrong")


def test_seed_sweep_and_gpu_race_without_device(binary):
    run = Run(binary)
    status, _ = run.app("--lesson", lesson_file(run), "--frames", "3",
                        "--actions", "lesson-set barrier1=off scheduler=random; seeds-run 40; race-gpu-run")
    check(status == 0, "app exits 0 once the background runs finish")
    lab = run.state()["race_lab"]
    seeds = lab["seeds"]
    check(not seeds["running"] and seeds["result"]["runs"] == 40, "the seed run finished 40 runs")
    histogram = seeds["result"]["histogram"]
    check(sum(histogram.values()) == 40, "the histogram of wrong elements covers every run")
    check(seeds["result"]["runs_wrong"] == sum(n for wrong, n in histogram.items() if wrong != "0"),
          "runs with C wrong = runs with a non-zero count of wrong elements")
    gpu = lab["gpu"]
    check(len(gpu["variants"]) >= 3, "the barrier-removed variants are listed")
    check(all("model" in v and v["model"]["runs"] == gpu["trials"] for v in gpu["variants"]),
          "the model ran every variant")
    nosync2 = [v for v in gpu["variants"] if "2nd" in v["label"] and "no" in v["label"]]
    check(nosync2 and nosync2[0]["model"]["runs"] > 0, "the no-2nd-barrier variant was modelled")
    if gpu["unavailable"]:
        check("no GPU" in gpu["unavailable"] or "GPU" in gpu["status"], "without a device the panel says why: "
              + gpu["unavailable"])
        check(all("gpu" not in v for v in gpu["variants"]), "and shows no GPU figures")


def test_one_number_of_hazards_past_the_lists_limit(binary):
    """TILE 16 without the second barrier under the race scheduler detects more hazards than
    the list keeps (65536): the Guide, Hazards and the Race lab say the one counted total, and
    the list says how many of them it shows (the Race lab said "65536 hazards")."""
    two_barriers = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons",
                                "two_barriers.json")
    for width, height in ((1366, 768), (1920, 1080)):
        run = Run(binary)
        status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", "--lesson", two_barriers,
                            "--stop", "6", "--actions", "wait 5")
        state = run.state()
        hazards = state["hazards"]
        total = hazards["detected"]
        check(status == 0 and total > hazards["count"], "%dx%d: %d detected, past the list's %d" %
              (width, height, total, hazards["count"]))
        check(hazards["raw"] + hazards["war"] + hazards["waw"] == total, "the kinds add up to the total: %d RAW + %d WAR + %d WAW" % (hazards["raw"], hazards["war"], hazards["waw"]))
        shown = {n: p.get("shown_text", []) for n, p in state["lesson_panels"].items() if p.get("visible")}
        said = sorted({int(word) for texts in shown.values() for text in texts
                       for word, after in zip(text.split(), text.split()[1:] + [""])
                       if word.isdigit() and after.startswith("hazard")})
        check(said == [total], "%dx%d: every panel says %d hazards: %s" % (width, height, total, said))
        check(any("%d of %d shown" % (hazards["count"], total) in text for text in shown["hazards"]),
              "%dx%d: the list says %d of %d shown" % (width, height, hazards["count"], total))


if __name__ == "__main__":
    run_tests(globals())
