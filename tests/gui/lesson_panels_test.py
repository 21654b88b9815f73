"""The lesson page's panels on screen: each one is drawn where --dump-state says, inside
the window, overlapping no other, at 1920x1080, at 1280x720 and in presentation mode; the
pixels there show what the panel draws (the tile outline in orange, the running threads'
marks in sky blue); pages switch with their actions and the choice survives a restart; and
a real mouse click on an element of A opens the editor whose value re-runs the lesson."""

from guitest import LINK_BY_FORMULA, Run, check, read_png, region_colours, run_tests

ORANGE = (230, 159, 0)     # Okabe-Ito: the current block's tile outline in Matrices.
SKY_BLUE = (86, 180, 233)  # A running thread's mark in Threads.
VERMILLION = (213, 94, 0)  # A hazard's mark on the Timeline.
PANELS = ["matrices", "threads", "narration", "timeline", "counters", "shared_tiles", "controls", "kernel_source",
          "hazards", "race_lab", "occupancy"]
# What the room reads in presentation mode; the rest fold away (the View menu brings them back).
PRESENTED = ["matrices", "kernel_source", "shared_tiles", "narration"]


def overlap(r, s):
    return min(r[2], s[2]) - max(r[0], s[0]) > 1 and min(r[3], s[3]) - max(r[1], s[1]) > 1


def check_layout(state, width, height, label, shown=PANELS):
    slots = state["layout"]["lesson_slots"]
    area = state["layout"]["area"]
    names = sorted(slots)
    check(len(names) == len(shown), "%s: %d lesson panels have a slot: %s" % (label, len(shown), ", ".join(names)))
    check(all(area[0] <= r[0] and area[1] <= r[1] and r[2] <= area[2] + 0.5 and r[3] <= area[3] + 0.5
              for r in slots.values()), "%s: every slot lies in the free area %s" % (label, area))
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if overlap(slots[a], slots[b])]
    check(not clashes, "%s: no two slots overlap %s" % (label, clashes))
    panels = state["lesson_panels"]
    rects = {}
    for name in PANELS:
        if name not in shown:
            check(not panels[name]["visible"], "%s: the %s panel is folded away" % (label, name))
            continue
        check(panels[name]["visible"], "%s: the %s panel is drawn" % (label, name))
        rects[name] = panels[name]["rect"]
        x0, y0, x1, y1 = rects[name]
        check(x0 >= 0 and y0 >= 0 and x1 <= width + 0.5 and y1 <= height + 0.5 and x1 - x0 > 100 and y1 - y0 > 60,
              "%s: %s lies inside the window: %s" % (label, name, rects[name]))
    for i, a in enumerate(shown):
        for b in shown[i + 1:]:
            check(not overlap(rects[a], rects[b]), "%s: %s and %s do not overlap" % (label, a, b))
    return rects


def test_panels_present_1920(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "5", "--actions", "run-until phase 1",
                        "--screenshot", run.screenshot)
    state = run.state()
    check(status == 0 and state["page"] == "lesson", "the lesson page is shown by default")
    rects = check_layout(state, 1920, 1080, "1920x1080")
    png = read_png(run.screenshot)
    for name, rect in rects.items():
        x0, y0, x1, y1 = (int(v) for v in rect)
        check(len(region_colours(png, x0, y0, x1, min(y1, y0 + 200))) > 12, "the %s panel draws text" % name)
    x0, y0, x1, y1 = (int(v) for v in rects["matrices"])
    check(ORANGE in region_colours(png, x0, y0, x1, y1), "Matrices outlines the current block's tiles in orange")
    x0, y0, x1, y1 = (int(v) for v in rects["threads"])
    check(SKY_BLUE in region_colours(png, x0, y0, x1, y1), "Threads draws running threads' marks in sky blue")
    matrices = state["lesson_panels"]["matrices"]
    check(matrices["drawn_as"] == {"a": "values", "b": "values", "c": "values"}, "a 4x4 lesson shows numbers")
    # Phase 1's first instruction (an event, not a step number) is one warp-instruction: the 2x2
    # block that ran loads one element of A per thread, from its own two rows of A.
    rows = {2 * (matrices["outlined_block"] // 2) + i for i in range(2)}
    marked = matrices["marked_this_step"]
    check(len(marked) == 4 and all(m.startswith("A[") and int(m[2:m.index("]")]) in rows for m in marked),
          "phase 1's first loads of A, in rows %s, are marked: %s" % (sorted(rows), marked))


def test_timeline_marks_leave_phase_labels_readable(binary):
    """Without the 2nd barrier the first hazard comes just after phase 2 starts: its triangle
    once covered the "p2" label. Labels and marks now lie in rows of their own."""
    run = Run(binary)
    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "3", "--screenshot", run.screenshot,
                        "--actions", "toggle-barrier2; race-scheduler; run-until hazard")
    timeline = run.state()["lesson_panels"]["timeline"]
    check(status == 0 and "hazard" in timeline["breakpoint_outcome"], "the run stops at its first hazard")
    x0, y0, x1, y1 = (int(v) for v in timeline["rect"])
    check(VERMILLION in region_colours(read_png(run.screenshot), x0, y0, x1, y1),
          "the Timeline draws the hazard's triangle")
    check(timeline["labels_under_marks"] == 0, "no mark covers a phase label: %d" % timeline["labels_under_marks"])


def test_panels_present_small_and_presentation(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1280", "--height", "720", "--frames", "5")
    check(status == 0, "app exits 0 at 1280x720")
    check_layout(run.state(), 1280, 720, "1280x720")
    for width, height in ((1920, 1080), (1366, 768)):
        run = Run(binary)
        status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "5", "--presentation",
                            "--actions", "to-barrier; step")
        state = run.state()
        label = "presentation %dx%d" % (width, height)
        check(status == 0 and state["presentation"], "presentation mode is on")
        check_layout(state, width, height, label, PRESENTED)
        check(state["lesson_panels"]["matrices"]["drawn_as"] == {"a": "values", "b": "values", "c": "values"},
              "%s: the 4x4 matrices show their numbers" % label)
        check(state["font_size"] >= 24, "%s: in a font a room can read" % label)


def test_large_lesson_is_a_heat_map(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "3",
                        "--actions", "lesson-set m=64 n=64 k=64 tile=16; step")
    matrices = run.state()["lesson_panels"]["matrices"]
    check(status == 0 and run.state()["lesson"]["m"] == 64, "a 64x64x64 lesson opens")
    check(matrices["drawn_as"] == {"a": "heat map", "b": "heat map", "c": "heat map"},
          "64x64 matrices are drawn as heat maps")


def test_a_512_lesson_fits_its_panel_and_hover_reads_each_cell(binary):
    """At 512³ a heat map's cells are smaller than a pixel: the three grids still fit the
    Matrices panel (they once ran past it, cutting C off at both sizes), and the hover names
    the very cell under the pointer with its value (sequence fill: A[i][j] = 512·i + j + 1)."""
    lesson = "lesson-set m=512 n=512 k=512 tile=16; whole-run-cancel"
    for width, height in ((1366, 768), (1920, 1080)):
        probe = Run(binary)
        status, _ = probe.app("--width", str(width), "--height", str(height), "--frames", "3", "--actions", lesson)
        state = probe.state()
        matrices = state["lesson_panels"]["matrices"]
        x0, y0, x1, y1 = state["lesson_panels"]["matrices"]["rect"]
        cell = matrices["cell_pixels"]
        label = "%dx%d" % (width, height)
        check(status == 0 and state["lesson"]["m"] == 512, "%s: the 512³ lesson opens" % label)
        check(matrices["drawn_as"] == {"a": "heat map", "b": "heat map", "c": "heat map"} and cell < 1,
              "%s: heat maps of cells smaller than a pixel (%.3f)" % (label, cell))
        cx, cy = matrices["origins"]["c"]
        check(cx + 512 * cell <= x1 and cy + 512 * cell <= y1 and matrices["origins"]["a"][0] >= x0,
              "%s: A, B and C fit the panel %s" % (label, [x0, y0, x1, y1]))
    # A pointer at whole pixels lands mid-pixel in cell coordinates: the cell it names is the
    # one its position falls in, not the first of the pixel's cells.
    ax, ay = matrices["origins"]["a"]
    x, y = int(ax + 101.5 * cell), int(ay + 300.5 * cell)
    row, col = int((y - ay) / cell), int((x - ax) / cell)
    run = Run(binary)
    run.interact(["--width", "1920", "--height", "1080", "--actions", lesson], [
        'xdotool mousemove --window "$win" %d %d' % (x + 40, y + 40),
        "sleep 0.3",
        'xdotool mousemove --window "$win" %d %d' % (x, y),
        "sleep 1.0",
    ])
    hovered = run.state()["lesson_panels"]["matrices"]["hovered"]
    check(hovered == "A[%d][%d] = %.6g" % (row, col, 512 * row + col + 1),
          "the hover names A[%d][%d] under the pointer at (%d, %d) with its value: %r" % (row, col, x, y, hovered))


def test_pages_switch_and_persist(binary):
    run = Run(binary)
    status, _ = run.app("--frames", "3", "--actions", "page-live; " + LINK_BY_FORMULA)
    state = run.state()
    check(status == 0 and state["page"] == "live" and state["pages"] == ["lesson", "live", "tensor"], "page-live shows the Live GPU page")
    check(not any(state["lesson_panels"][name]["visible"] for name in PANELS), "no lesson panel is drawn there")
    again = Run(binary, config_home=run.config_home)
    again.app("--frames", "3", "--actions", LINK_BY_FORMULA)
    check(again.state()["page"] == "live", "the page survives a restart")
    again.app("--frames", "3", "--actions", LINK_BY_FORMULA + "; step")
    check(again.state()["page"] == "lesson", "a lesson action (step) brings the lesson page back")


def test_click_a_cell_to_edit(binary):
    probe = Run(binary)
    probe.app("--width", "1920", "--height", "1080", "--frames", "3")
    matrices = probe.state()["lesson_panels"]["matrices"]
    x, y = matrices["origins"]["a"]
    # A[1][2]: row 1, column 2 of A, clicked in the middle of its cell.
    cx, cy = int(x + 2.5 * matrices["column_widths"]["a"]), int(y + 1.5 * matrices["cell_pixels"])
    run = Run(binary)
    status = run.interact(["--width", "1920", "--height", "1080"], [
        "sleep 0.5",
        'xdotool mousemove --window "$win" %d %d' % (cx, cy),
        "sleep 0.3",
        'xdotool click --window "$win" 1',
        # The edit field opens a frame or two after the click, and a sanitized build on a busy
        # machine draws a frame in tenths of a second: a key sent sooner is lost ("42" read as
        # "2" under ASan at a load of 6).
        "sleep 1.5",
        'xdotool key --window "$win" ctrl+a',
        "sleep 0.5",
        'xdotool type --delay 100 --window "$win" "42"',
        'xdotool key --window "$win" Return',
        "sleep 0.5",
        'xdotool key --window "$win" End',
        "sleep 0.5",
    ], timeout=120)
    check(status == 0, "the app quits with status 0")
    lesson = run.state()["lesson"]
    check(lesson["finished"], "End ran the edited lesson to its end")
    b = [[float(r * 4 + col + 1) for col in range(4)] for r in range(4)]
    a_row = [5.0, 6.0, 42.0, 8.0]
    got = lesson["c"]
    check(all(got[4 + j] == sum(a_row[p] * b[p][j] for p in range(4)) for j in range(4)),
          "the clicked element A[1][2] became 42 and row 1 of C follows: " + str(got[4:8]))
    check(got[0] == 90.0, "row 0 of C is unchanged: C[0][0] = 90")


if __name__ == "__main__":
    run_tests(globals())
