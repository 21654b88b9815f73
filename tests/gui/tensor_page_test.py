"""The Tensor cores page draws the fragments of one mma.sync m16n8k8 (TF32): the lane it shows
for every element of A, B and C is the PTX ISA's layout (computed here from the ISA's formulas,
apart from the app's code), lane 5 picked by its action is named with its registers, the
quads' colours are drawn in the panel, no text of it is cut off at 1366x768 or 1920x1080, and
a lane outside 0-31 is refused by name."""
from guitest import Run, check, read_png, region_colours, run_tests

# The Okabe & Ito colours of quads 0-6 (lane / 4), as app/gui/palette.h has them.
QUAD_COLOURS = [(230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178), (213, 94, 0),
                (204, 121, 167)]


def ptx_lane(operand, row, column):
    """Who holds the element, from the PTX ISA's table for .tf32 m16n8k8 (group = lane / 4,
    thread = lane % 4): A's row is group (+8), its column thread (+4); B's row thread (+4),
    its column group; C's row group (+8), its column 2·thread (+1)."""
    if operand == "A":
        return row % 8 * 4 + column % 4
    if operand == "B":
        return column * 4 + row % 4
    return row % 8 * 4 + column // 2


def test_fragments_follow_the_ptx_layout(binary):
    for width, height in [(1366, 768), (1920, 1080)]:
        run = Run(binary)
        status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", "--actions",
                            "page-tensor; tensor-lane 5", "--screenshot", run.screenshot)
        check(status == 0, "%dx%d: the Tensor cores page opens and picks lane 5" % (width, height))
        state = run.state()
        lanes = state["tensor"]["lanes"]
        for operand, rows in (("A", 16), ("B", 8), ("C", 16)):
            grid = lanes[operand]
            check(len(grid) == rows and all(len(line) == 8 for line in grid), "%s is %dx8" % (operand, rows))
            wrong = [(r, c) for r in range(rows) for c in range(8) if grid[r][c] != ptx_lane(operand, r, c)]
            check(not wrong, "%s: every element's lane is the PTX ISA's (wrong at %s)" % (operand, wrong[:4]))
        check(state["tensor"]["picked_lane"] == 5, "lane 5 is picked")
        panel = state["tensor_panels"]["mma_fragments"]
        check(panel["visible"], "the MMA fragments panel is drawn")
        check(panel["clipped_text"] == 0, "%dx%d: no text of it cut off %s" % (width, height,
                                                                             panel["clipped_examples"]))
        x0, y0, x1, y1 = (int(v) for v in panel["rect"])
        colours = region_colours(read_png(run.screenshot), x0, y0, x1, y1)
        missing = [c for c in QUAD_COLOURS if c not in colours]
        check(not missing, "every quad's colour is drawn in the panel (missing %s)" % missing)

    run = Run(binary)
    status, output = run.app("--frames", "2", "--actions", "page-tensor; tensor-lane 32")
    check(status != 0 and "tensor-lane: '32' is outside 0 to 31" in output, "lane 32 is refused by name")


if __name__ == "__main__":
    run_tests(globals())
