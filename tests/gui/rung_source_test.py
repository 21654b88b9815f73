"""A ladder rung's source under the live page's ladder, opened through its action on the H100
run the README shows: the dump names the rung, the rung before it and the lines marked as
changed, and that count is the one a longest common subsequence of the two files' lines gives
(computed here independently of the app). No text of the live panel is cut off at 1366x768 or
1920x1080, and a name that is not a rung is refused by name, naming the rungs from the first
to the last."""
import os
import re

from guitest import LINK_BY_FORMULA, Run, check, run_tests

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SAVED = os.path.join(ROOT, "docs", "results", "h100-ladder-12-2026-11-25.json")


def changed_lines(before, after):
    """Lines of `after` outside a longest common subsequence of lines with `before`."""
    old, new = before.splitlines(), after.splitlines()
    common = [[0] * (len(new) + 1) for _ in range(len(old) + 1)]
    for i in range(len(old) - 1, -1, -1):
        for j in range(len(new) - 1, -1, -1):
            common[i][j] = common[i + 1][j + 1] + 1 if old[i] == new[j] else max(common[i + 1][j], common[i][j + 1])
    return len(new) - common[0][0]


def read(name):
    with open(os.path.join(ROOT, "kernels", name)) as f:
        return f.read()


def last_rung():
    """The name of the highest-numbered kernel file, which is the ladder's last rung."""
    rungs = [f for f in os.listdir(os.path.join(ROOT, "kernels")) if re.match(r"\d\d[a-z]?_.*\.cu$", f)]
    return max(rungs)[3:-3].lstrip("_")


def test_rung_source_from_its_action(binary):
    for width, height in [(1366, 768), (1920, 1080)]:
        run = Run(binary)
        status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", "--actions",
                            "page-live; live-load %s; live-rung-source all_async; wait 5" % SAVED)
        check(status == 0, "the live page opens the saved run and a rung's source")
        state = run.state()
        live = state["live"]
        check(live["view"] == "ladder", "opening a rung's source shows the ladder")
        source = live["rung_source"]
        check(source["file"] == "12_all_async.cu" and source["before"] == "11_register_tile.cu",
              "12 is shown against 11: %s" % source)
        expected = changed_lines(read("11_register_tile.cu"), read("12_all_async.cu"))
        check(source["changed_lines"] == expected, "%d lines marked, as the diff of the files says (%d)" %
              (source["changed_lines"], expected))
        check(source["lines"] == len(read("12_all_async.cu").splitlines()), "every line of the file is shown")
        check(source["header"] == "12 all_async \u2014 %d lines changed from 11 register_tile" % expected,
              "the header: " + source["header"])
        panel = state["live_panels"]["live_gpu"]
        check(panel["clipped_text"] == 0, "%dx%d: no text of the live panel cut off %s" %
              (width, height, panel["clipped_examples"]))

    run = Run(binary)
    status, _ = run.app("--frames", "2", "--actions",
                        "page-live; live-load %s; live-rung-source blocktile_1d" % SAVED)
    source = run.state()["live"]["rung_source"]
    check(source["before"] == "02_tiled.cu" and
          source["changed_lines"] == changed_lines(read("02_tiled.cu"), read("04_blocktile_1d.cu")),
          "the first rung is shown against 02_tiled.cu: %s" % source)
    status, output = run.app("--frames", "2", "--actions", "page-live; live-rung-source tiled32; " + LINK_BY_FORMULA)
    check("live-rung-source takes a ladder rung's name" in output, "a kernel that is not a rung is refused by name")
    check("\u2026 %s)" % last_rung() in output, "the refusal names the ladder up to its last rung, %s" % last_rung())
    check(run.state()["live"]["rung_source"] is None, "and no source is open")


if __name__ == "__main__":
    run_tests(globals())
