"""The lesson window driven like a user would: step through the whole default lesson one
step at a time and check that the Counters figures equal the closed forms this test derives
itself, that C equals a product this test computes, and that the Matrices, Threads,
Narration and Timeline panels agree; the same on the padded 6x5x7 lesson; editing an
element of A re-runs the lesson to the same step; scrubbing and breakpoints land where
they say."""
import math
import os

from guitest import Run, check, run_tests

HERE = os.path.dirname(os.path.abspath(__file__))
LESSONS = os.path.join(HERE, "..", "..", "assets", "lessons")


def sequence(rows, cols):
    """The lessons' "sequence" fill: 1, 2, 3... row-major."""
    return [[float(r * cols + c + 1) for c in range(cols)] for r in range(rows)]


def product(a, b):
    """C = A.B in float64; the fills are small integers, so every value is exact in float32 too."""
    k = len(b)
    return [[sum(a[i][p] * b[p][j] for p in range(k)) for j in range(len(b[0]))] for i in range(len(a))]


def closed_forms(m, n, k, t):
    """What a guarded, ceil-tiled T x T kernel reads and stores, derived here (issue 4)."""
    blocks_x, blocks_y, phases = math.ceil(n / t), math.ceil(m / t), math.ceil(k / t)
    blocks = blocks_x * blocks_y
    threads = blocks * t * t
    return {
        "global_reads_a": blocks_x * m * k,
        "global_reads_b": blocks_y * k * n,
        "naive_global_reads": 2 * m * n * k,
        "minimum_global_reads": m * k + k * n,
        "shared_writes": blocks * phases * 2 * t * t,
        "shared_reads": threads * phases * 2 * t,
        "barrier_arrivals": threads * phases * 2,
        "phases": phases,
        "threads": threads,
    }


def check_counters(lesson, m, n, k, t):
    counters = lesson["counters"]
    expected = closed_forms(m, n, k, t)
    for name in ["global_reads_a", "global_reads_b", "naive_global_reads", "minimum_global_reads", "shared_writes",
                 "shared_reads", "barrier_arrivals"]:
        check(counters[name] == expected[name], "%s: the panel shows %d, the closed form gives %d" %
              (name, counters[name], expected[name]))
    reads = expected["global_reads_a"] + expected["global_reads_b"]
    check(counters["global_reads"] == reads, "global reads %d = A + B" % counters["global_reads"])
    whole = counters["whole_run"]
    for name in ["global_reads_a", "global_reads_b", "shared_writes", "shared_reads", "barrier_arrivals"]:
        check(whole[name] == expected[name], "whole run, counted: %s = %d, the closed form gives %d" %
              (name, whole[name], expected[name]))
    check(counters["comparison_kernel"] == "naive" and
          counters["comparison_global_reads_counted"] == expected["naive_global_reads"],
          "the naive kernel, run on the model, reads %s = 2MNK" % counters["comparison_global_reads_counted"])
    check(abs(counters["saving"] - expected["naive_global_reads"] / reads) < 1e-9,
          "saving %.3f = 2MNK / tiled reads, from the counted figures" % counters["saving"])
    per = counters["reads_per_element_of_c"]
    check(per["naive"] == 2 * k and abs(per["closed_form"] - reads / (m * n)) < 1e-9 and
          abs(per["minimum"] - (m * k + k * n) / (m * n)) < 1e-9 and abs(per["counted"] - per["closed_form"]) < 1e-9,
          "reads per element of C: naive 2K = %g, tiled %g, minimum %g" % (per["naive"], per["closed_form"],
                                                                         per["minimum"]))
    phases = counters["phases"]
    check(len(phases) == expected["phases"], "%d phases counted" % len(phases))
    check(sum(p["global_reads_a"] for p in phases) == expected["global_reads_a"] and
          sum(p["global_reads_b"] for p in phases) == expected["global_reads_b"],
          "the per-phase bars add up to the totals")
    # A phase whose slice of K lies inside A and B reads a full slice: T columns of A per block column.
    full_phases = k // t
    check(all(p["global_reads_a"] == math.ceil(n / t) * m * t for p in phases[:full_phases]),
          "every full phase reads ceil(N/T)*M*T elements of A")


def check_c(lesson, a, b):
    m, n = len(a), len(b[0])
    expected = product(a, b)
    got = lesson["c"]
    check(len(got) == m * n and all(got[i * n + j] == expected[i][j] for i in range(m) for j in range(n)),
          "C equals the product computed by the test: " + str(got[:6]) + "...")


def test_default_lesson_step_by_step(binary):
    first = Run(binary)
    status, _ = first.app("--frames", "3")
    total = first.state()["lesson"]["total_steps"]
    check(status == 0 and total > 0, "the default lesson has %d steps" % total)
    run = Run(binary)
    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "3",
                        "--actions", "; ".join(["step"] * (total + 1)))
    state = run.state()
    lesson = state["lesson"]
    check(status == 0 and lesson["finished"] and lesson["step"] == total,
          "%d single steps reach the end; one more does nothing" % total)
    check((lesson["m"], lesson["n"], lesson["k"], lesson["tile"]) == (4, 4, 4, 2), "the default lesson is 4x4x4, T = 2")
    check_counters(lesson, 4, 4, 4, 2)
    check(lesson["counters"]["global_reads"] == 64 and lesson["counters"]["naive_global_reads"] == 128,
          "64 tiled reads against 128 naive: a 2x saving")
    check_c(lesson, sequence(4, 4), sequence(4, 4))
    panels = state["lesson_panels"]
    check(panels["matrices"]["c_final"] == 16 and panels["matrices"]["c_wrong"] == 0,
          "Matrices: 16 final elements of C, none wrong")
    check(panels["threads"]["done"] == 4 and panels["threads"]["one_partly_filled_warp"],
          "Threads: the block's 4 threads are done; the block is one partly filled warp")
    check(panels["timeline"]["step"] == total and panels["timeline"]["total_steps"] == total,
          "Timeline: step %d of %d" % (total, total))
    check(panels["narration"]["step"] == total and "C[" in panels["narration"]["sentence"],
          "Narration tells the last step: " + panels["narration"]["sentence"])


def test_padded_lesson(binary):
    run = Run(binary)
    status, _ = run.app("--frames", "3", "--lesson", os.path.join(LESSONS, "padded_6x5x7.json"),
                        "--actions", "run-to-end")
    lesson = run.state()["lesson"]
    check(status == 0 and lesson["finished"], "the padded lesson runs to its end")
    check((lesson["m"], lesson["n"], lesson["k"], lesson["tile"]) == (6, 5, 7, 4), "M=6, N=5, K=7, T=4")
    check_counters(lesson, 6, 5, 7, 4)
    check_c(lesson, sequence(6, 7), sequence(7, 5))


def test_edit_cell_reruns_to_the_same_step(binary):
    run = Run(binary)
    status, _ = run.app("--frames", "3", "--actions", "step; step; step; step; step; edit-cell A 0 0 100")
    lesson = run.state()["lesson"]
    check(status == 0 and lesson["step"] == 5, "after the edit the lesson stands at step 5 again")
    again = Run(binary)
    again.app("--frames", "3", "--actions", "edit-cell A 0 0 100; edit-cell B 3 2 -2.5; run-to-end")
    a, b = sequence(4, 4), sequence(4, 4)
    a[0][0], b[3][2] = 100.0, -2.5
    check_c(again.state()["lesson"], a, b)
    bad = Run(binary)
    status, output = bad.app("--frames", "3", "--actions", "edit-cell A 9 0 1")
    check(status == 1 and "outside A" in output and '1 scripted action was refused, the first "edit-cell A 9 0 1"' in output,
          "an element outside A is refused with a message, and the scripted run exits 1")


def test_scrub_and_breakpoints(binary):
    run = Run(binary)
    # Forward to an event (phase 2's first instruction), then the slider's action back to a step.
    run.app("--frames", "3", "--actions", "run-until phase 2; jump-to 7")
    state = run.state()
    check(state["lesson"]["step"] == 7 and state["lesson_panels"]["narration"]["step"] == 7,
          "jump-to scrubs back to step 7, and the narration follows")
    run = Run(binary)
    run.app("--frames", "3", "--actions", "run-until phase 2")
    state = run.state()
    timeline = state["lesson_panels"]["timeline"]
    check("Stopped at step" in timeline["breakpoint_outcome"] and state["lesson"]["counters"]["phases"][1]
          ["global_reads_a"] + state["lesson"]["counters"]["phases"][1]["global_reads_b"] > 0,
          "run-until phase 2 stops in phase 2: " + timeline["breakpoint_outcome"])
    run = Run(binary)
    run.app("--frames", "3", "--actions", "run-until phase 2; step")
    check(run.state()["lesson_panels"]["timeline"]["breakpoint_outcome"] == "",
          "a step after the stop takes the stale 'Stopped at step …' away")
    run = Run(binary)
    run.app("--frames", "3", "--actions", "select-thread 3 1; run-until thread 3 1")
    state = run.state()
    check(state["lesson_panels"]["threads"]["block"] == 3 and state["lesson_panels"]["threads"]["thread"] == 1,
          "select-thread shows thread 1 of block 3")
    check("Stopped at step" in state["lesson_panels"]["timeline"]["breakpoint_outcome"],
          "run-until thread stops when that thread runs")
    run = Run(binary)
    status, output = run.app("--frames", "3", "--actions", "run-until hazard")
    check(status == 0 and "without meeting" in run.state()["lesson_panels"]["timeline"]["breakpoint_outcome"],
          "with both barriers on, run-until hazard runs to the end and says it met none")


if __name__ == "__main__":
    run_tests(globals())
