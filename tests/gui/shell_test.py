"""The GUI shell: a real window draws its menu bar and About box, presentation mode turns on
through its action and survives a restart, a corrupt settings file is reported once and kept
aside, outputs that cannot be written fail the run."""
import json
import os
import re
import subprocess

from guitest import XVFB, Run, check, read_png, region_colours, run_tests


def test_window_draws_menu_and_about(binary):
    run = Run(binary)
    status, output = run.app("--width", "1280", "--height", "720", "--frames", "5",
                             "--actions", "about", "--screenshot", run.screenshot)
    check(status == 0, "app exits 0 after --frames with --screenshot")
    check("tilescope: ready" in output, "app prints its ready signal")
    png = read_png(run.screenshot)
    check(png[0] == 1280 and png[1] == 720, "screenshot has the window's size")
    # The menu bar's text draws light glyphs on the dark bar: many distinct colours there.
    check(len(region_colours(png, 0, 0, 200, 18)) > 8, "menu bar text is drawn")
    state = run.state()
    check(state["about_visible"], "About box is open")
    check(state["about"]["Dear ImGui"] == "1.86", "About names ImGui 1.86")
    check("OpenGL renderer" in state["about"] and state["about"]["OpenGL renderer"], "About names the GL renderer")
    check("CUDA runtime" in state["about"] and state["about"]["CUDA runtime"], "About reports CUDA (a version or why there is none)")


CORNER = 8  # pixels: more than a window's corner rounding


def test_help_overlay_is_opaque_and_names_every_key(binary):
    """F1's list once showed "Ctrl+key 334" (keypad +), let the panels show through, and ran its
    descriptions off a 1366-pixel window. Drawn over two different lesson states, an opaque list
    looks the same pixel for pixel; its text is counted as a panel's is."""
    shots = []
    for actions in ("help", "lesson-preset race_tile16; run-to-end; help", "presentation; help"):
        run = Run(binary)
        status, _ = run.app("--width", "1366", "--height", "768", "--frames", "5", "--actions", actions,
                            "--screenshot", run.screenshot)
        shown = run.state().get("help")
        check(status == 0 and shown and shown["text_items"] > 0, "%s: the list of keys is shown" % actions)
        check(shown["clipped_text"] == 0, "%s: no text of it cut off %s" % (actions, shown["clipped_examples"]))
        shots.append((run.screenshot, shown))
    (first, shown), (second, again) = shots[:2]
    keys = shown["keys"]
    check(len(keys) >= 20 and not [k for k in keys if re.search(r"key \d", k)],
          "every key has a name, none a GLFW code: %s" % " | ".join(keys))
    check(shown["rect"] == again["rect"], "the list lies in the same place both times %s" % shown["rect"])
    first, second = read_png(first), read_png(second)
    # Inside its rounded corners, which let the anti-aliased edge blend with what lies behind.
    x0, y0, x1, y1 = (int(v) for v in shown["rect"])
    x0, y0, x1, y1 = x0 + CORNER, y0 + CORNER, x1 - CORNER, y1 - CORNER
    channels = first[2]
    same = all(first[3][y][x0 * channels:x1 * channels] == second[3][y][x0 * channels:x1 * channels]
               for y in range(y0, y1))
    check(same, "nothing of the lesson behind shows through the list")


def test_presentation_survives_restart(binary):
    run = Run(binary)
    status, _ = run.app("--frames", "3", "--actions", "presentation")
    check(status == 0, "first run exits 0")
    check(run.state()["presentation"] and run.state()["font_size"] >= 28, "presentation mode rebuilds large fonts")
    again = Run(binary, config_home=run.config_home)
    status, _ = again.app("--frames", "3")
    check(status == 0, "second run exits 0")
    check(again.state()["presentation"], "presentation mode survives a restart")


def test_corrupt_settings_reported_once_and_kept_aside(binary):
    run = Run(binary)
    settings_dir = os.path.join(run.config_home, "tilescope")
    os.makedirs(settings_dir, exist_ok=True)
    settings = os.path.join(settings_dir, "settings.json")
    truncated = '{"window": {"width": 900, "height"'  # Truncated mid-write.
    with open(settings, "w") as f:
        f.write(truncated)
    status, output = run.app("--frames", "3")
    check(status == 0, "a corrupt settings file does not stop the app")
    check("corrupt" in output and settings + ".bad" in output, "the corrupt file is reported, and where it went")
    check(any("corrupt" in n["text"] for n in run.state()["notifications"]), "the report is shown in the window")
    with open(settings + ".bad") as f:
        check(f.read() == truncated, "the bad file is kept aside as settings.json.bad, unchanged")
    with open(settings) as f:
        check(f.read().strip().startswith("{") and os.path.getsize(f.name) > 40, "the file is replaced by valid settings")
    again = Run(binary, config_home=run.config_home)
    status, output = again.app("--frames", "3")
    check(status == 0 and "corrupt" not in output, "the next start reports nothing: the problem is reported once")


def test_a_wrong_typed_setting_keeps_the_others(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1280", "--height", "720", "--frames", "3", "--actions", "presentation")
    check(status == 0, "the first run saves its settings")
    settings = os.path.join(run.config_home, "tilescope", "settings.json")
    with open(settings) as f:
        saved = json.load(f)
    saved["font_size"] = "large"
    with open(settings, "w") as f:
        json.dump(saved, f)
    again = Run(binary, config_home=run.config_home)
    status, output = again.app("--frames", "3", "--screenshot", again.screenshot)
    check(status == 0 and "'font_size' is \"large\"" in output, "the wrong-typed key is named and the app starts")
    png = read_png(again.screenshot)
    check((png[0], png[1]) == (1280, 720) and again.state()["presentation"],
          "the window size and presentation mode beside it are kept")
    check(os.path.exists(settings + ".bad"), "the file is kept aside as settings.json.bad")


def test_window_size_survives_restart_and_a_bad_one_is_reset(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1280", "--height", "720", "--frames", "3")
    check(status == 0, "the app runs at 1280x720")
    again = Run(binary, config_home=run.config_home)
    again.app("--frames", "3", "--screenshot", again.screenshot)
    png = read_png(again.screenshot)
    check((png[0], png[1]) == (1280, 720), "the window opens at its saved size, 1280x720: %dx%d" % (png[0], png[1]))
    settings = os.path.join(run.config_home, "tilescope", "settings.json")
    with open(settings) as f:
        saved = json.load(f)
    saved["window"]["width"] = 0
    with open(settings, "w") as f:
        json.dump(saved, f)
    bad = Run(binary, config_home=run.config_home)
    status, output = bad.app("--frames", "3", "--screenshot", bad.screenshot)
    png = read_png(bad.screenshot)
    check(status == 0 and "window size 0" in output, "a saved width of 0 is reported and the app starts")
    check(png[0] >= 320 and png[1] >= 320, "the window opens at a usable size: %dx%d" % (png[0], png[1]))


def test_bench_frames_prints_the_frame_rate(binary):
    run = Run(binary)
    status, output = run.app("--width", "1920", "--height", "1080", "--bench-frames", "30")
    line = [l for l in output.splitlines() if l.startswith("bench-frames: ")]
    check(status == 0 and len(line) == 1, "--bench-frames prints one figure line")
    match = re.match(r"bench-frames: 30 frames in ([0-9.]+) s = ([0-9.]+) frames/s at 1920x1080", line[0])
    check(match is not None and float(match.group(2)) > 0, "it names frames, seconds and frames/s: " + line[0])
    check(abs(30 / float(match.group(1)) - float(match.group(2))) < 0.01 * float(match.group(2)),
          "frames/s is frames over seconds")
    check(run.state()["lesson"]["step"] > 0, "the lesson stepped during the benchmark")


# Each action that takes an argument, given a bad one: the message it must show names the value.
BAD_ARGUMENTS = [
    # A step's range is the run's, in words or its last step, never the type's largest number.
    ("play-speed 0", '"0"'), ("play-speed abc", '"abc"'),
    ("jump-to -3", "'-3' is outside 0 (the start) to "),
    ("jump-to 1e20", "'1e20'"), ("jump-to 99999999999999999999", "'99999999999999999999'"),
    ("edit-cell A 9 9 1", "A[9][9] is outside A"), ("select-thread 99 99", "block 99, thread 99"),
    ("run-until sometime", '"sometime"'), ("race-gpu-size 0", '"0"'), ("race-trials 1000", '"1000"'),
    ("live-reps x", "'x'"), ("live-gflops-axis cubic", "'cubic'"), ("live-view pie", "'pie'"),
    ("live-run out.txt", "'out.txt'"), ("live-sizes 0", "size 0"),
    ("live-model-size 123", "no results at n = 123 (no results are loaded)"),
    # A word is named as not being a size (it once read "no results at n = four").
    ("live-model-size four", "live-model-size takes one size of the results, such as 1024 or 512x256x128: size 'four'"),
    ("live-ladder-size four", "live-ladder-size takes one size of the results, such as 1024 or 512x256x128: size 'four'"),
    ("lesson-set tile=0", "tile = 0"),
]


def test_bad_action_arguments_are_named_and_change_nothing(binary):
    run = Run(binary)
    status, output = run.app("--frames", "3", "--actions", "; ".join(action for action, _ in BAD_ARGUMENTS))
    check(status == 1 and "%d scripted actions were refused" % len(BAD_ARGUMENTS) in output,
          "the app keeps running through %d bad arguments; the scripted run then exits 1" % len(BAD_ARGUMENTS))
    errors = [n["text"] for n in run.state()["notifications"] if n["severity"] == "error"]
    check(len(errors) == len(BAD_ARGUMENTS), "one error per bad argument: %d" % len(errors))
    for (action, needle), error in zip(BAD_ARGUMENTS, errors):
        check(needle in error, "%s: %s" % (action, error))
        check("9223372036854775807" not in error, "%s names no meaningless number: %s" % (action, error))
    state = run.state()
    check(state["lesson"]["play_speed"] == 8 and state["lesson"]["step"] == 0 and state["lesson"]["tile"] == 2,
          "the lesson is as it was: speed 8, step 0, TILE 2")
    live = state["live"]
    check(live["reps"] == 10 and live["gflops_axis"] == "log" and live["view"] == "plot",
          "the live panel is as it was: 10 repetitions, log axis, plot view")
    check(live["sizes"] == "0" and "at least 1" in live["sizes_message"],
          "the sizes field keeps what was typed, the problem beside it: " + live["sizes_message"])
    check(state["race_lab"]["gpu"]["large_size"] == 1024 and state["race_lab"]["gpu"]["trials"] == 3,
          "the race lab is as it was: 1024, 3 trials")


def test_missing_font_falls_back(binary):
    run = Run(binary)
    run.env["TILESCOPE_FONT_DIR"] = os.path.join(run.dir, "no-fonts-here")
    status, output = run.app("--frames", "3", "--screenshot", run.screenshot)
    check(status == 0, "a missing font file does not stop the app")
    check("built-in font" in output, "the missing font is reported")
    check(run.state()["builtin_font"], "ImGui's built-in font is in use")
    png = read_png(run.screenshot)
    check(len(region_colours(png, 0, 0, 200, 16)) > 4, "the menu bar text is still drawn")


def test_unknown_action_fails_before_the_first_frame(binary):
    run = Run(binary)
    status, output = run.app("--frames", "3", "--actions", "step; frobnicate")
    check(status == 2, "an unknown action in a script is a usage error (status 2): %d" % status)
    check('unknown action "frobnicate"' in output, "the unknown action is named")
    check(not os.path.exists(run.state_file), "nothing ran: no state dump was written")


def unprivileged(command, run):
    """Root writes into any folder whatever its mode: under root (CI containers) the app runs
    as nobody (the X server has no access control file, so nobody may draw on it), so a
    read-only folder is read-only. The app's own exit status is printed, apart from the
    server wrapper's."""
    report = ["sh", "-c", '"$@"; echo "app exit status $?"', "sh"]
    if os.geteuid() != 0:
        return XVFB + report + command
    os.chmod(run.dir, 0o755)
    for root, folders, _ in os.walk(run.config_home):
        os.chmod(root, 0o777)
    return XVFB + report + ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command


def test_outputs_that_cannot_be_written_fail_the_run_and_keep_the_old_files(binary):
    run = Run(binary)
    folder = os.path.join(run.dir, "read-only")
    os.makedirs(folder)
    dump, shot = os.path.join(folder, "state.json"), os.path.join(folder, "shot.png")
    for path in (dump, shot):
        with open(path, "w") as f:
            f.write("the old file")
    os.chmod(folder, 0o555)
    command = unprivileged([binary, "--frames", "3", "--dump-state", dump, "--screenshot", shot], run)
    done = subprocess.run(command, env=run.env, capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    print(output)
    check("app exit status 1\n" in output, "a --screenshot and --dump-state that cannot be written exit 1")
    check("cannot write " + shot in output and "cannot write " + dump in output and "Permission denied" in output,
          "both paths are named with the reason")
    for path in (dump, shot):
        with open(path) as f:
            check(f.read() == "the old file", os.path.basename(path) + ": the old file is intact")
    check(sorted(os.listdir(folder)) == ["shot.png", "state.json"], "no temporary file is left")


def test_f1_explains_the_panels_words(binary):
    """F1 lists, after the keys, the words the panels use: "32-byte sectors", "barrier stall
    steps" and the phase badges among them, at both screen sizes, with nothing cut off."""
    for width, height in ((1366, 768), (1920, 1080)):
        run = Run(binary)
        status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", "--actions", "help; wait 3")
        help_list = run.state().get("help", {})
        terms = help_list.get("glossary", [])
        check(status == 0 and {"32-byte sectors", "barrier stall steps", "phase badge (p1, p2, ...)"} <= set(terms),
              "%dx%d: F1's glossary has the Counters' words: %s" % (width, height, terms))
        check(help_list.get("clipped_text") == 0, "%dx%d: none of it cut off %s" %
              (width, height, help_list.get("clipped_examples")))


def test_default_window_fits_a_laptop_screen(binary):
    """On a 1366x768 screen the 1600x900 default, or a size saved on a larger screen, shrinks
    to the screen's work area; a size asked for on the command line is kept."""
    run = Run(binary)
    status, _ = run.app("--frames", "3", screen="1366x768")
    window = run.state()["window"]
    check(status == 0 and window["width"] <= 1366 and window["height"] <= 768,
          "the default window fits a 1366x768 screen: %s" % window)
    saved = Run(binary, config_home=run.config_home)  # its settings now hold the window's size
    settings = os.path.join(run.config_home, "tilescope", "settings.json")
    with open(settings) as f:
        stored = json.load(f)
    stored["window"] = {"width": 1920, "height": 1080}
    with open(settings, "w") as f:
        json.dump(stored, f)
    status, _ = saved.app("--frames", "3", screen="1366x768")
    window = saved.state()["window"]
    check(status == 0 and window["width"] <= 1366 and window["height"] <= 768,
          "a 1920x1080 window saved on a larger screen fits it too: %s" % window)
    asked = Run(binary)
    status, _ = asked.app("--frames", "3", "--width", "1280", "--height", "720", screen="1366x768")
    check(asked.state()["window"] == {"width": 1280, "height": 720}, "--width/--height are kept: %s" %
          asked.state()["window"])


if __name__ == "__main__":
    run_tests(globals())
