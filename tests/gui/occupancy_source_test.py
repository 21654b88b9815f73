"""The Occupancy panel and the Numba source beside the CUDA, as a user sees them: the panel
shows what `tilescope occupancy` computes for the lesson's tile (one model, two views) and
follows a change of tile; it folds away in presentation mode; the L key's action puts the
Numba transcription beside 02_tiled.cu with the selected thread's line marked in both, and
leaves the rect kernel, which has no twin, with its CUDA alone. The source is plain CUDA for the
lesson's variant: a switched-off barrier is a commented-out line, marked and kept in view (pinned
above the code when the selected thread's line scrolls it away), at both screen sizes and in
presentation."""
import json
import os
import subprocess

from guitest import Run, check, read_png, region_colours, run_tests


def cli_occupancy(binary, *flags):
    done = subprocess.run([binary, "occupancy", *flags, "--json"], capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, "tilescope occupancy %s runs: %s" % (" ".join(flags), done.stderr))
    return json.loads(done.stdout)


def classroom(rows):
    return [r for r in rows if r["gpu"] != "present"]


def test_panel_matches_the_cli(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1366", "--height", "768", "--frames", "5", "--screenshot", run.screenshot)
    state = run.state()
    check(status == 0, "the app runs")
    panel = state["occupancy"]
    cli = cli_occupancy(binary, "--tile", "2")
    check(panel["kernel"] == "tiled, TILE 2", "the panel names the lesson's kernel: %s" % panel["kernel"])
    check(panel["warp_fill"] == "one warp, 4 live lanes of 32 (28 idle)", "one warp of 4 live lanes")
    check(classroom(panel["gpus"]) == classroom(cli["gpus"]), "the panel's figures are the CLI's for the four GPUs")
    check(state["lesson_panels"]["occupancy"]["visible"], "the Occupancy panel is shown in the normal layout")
    x0, y0, x1, y1 = (int(v) for v in state["lesson_panels"]["occupancy"]["rect"])
    check(len(region_colours(read_png(run.screenshot), x0, y0, x1, y1)) > 12, "the panel draws its table")


def test_panel_follows_the_tile(binary):
    run = Run(binary)
    status, _ = run.app("--frames", "5", "--actions", "lesson-set tile=16; wait 5", "--screenshot", run.screenshot)
    state = run.state()
    check(status == 0, "the app runs")
    if state["lesson"]["tile"] != 16:
        check(False, "the lesson took tile 16: %s" % state["lesson"])
    panel = state["occupancy"]
    h100 = [r for r in panel["gpus"] if r["gpu"] == "h100"][0]
    check(panel["kernel"] == "tiled, TILE 16" and h100["threads_per_block"] == 256 and h100["warps_per_block"] == 8,
          "TILE 16: 256 threads in 8 warps")
    cli = [r for r in cli_occupancy(binary, "--tile", "16", "--gpu", "h100")["gpus"]][0]
    check(h100["blocks_per_sm"] == cli["blocks_per_sm"], "blocks per SM on the H100 as the CLI says")


def test_folded_away_in_presentation(binary):
    run = Run(binary)
    status, _ = run.app("--presentation", "--frames", "5")
    check(status == 0 and not run.state()["lesson_panels"]["occupancy"]["visible"],
          "presentation mode folds the Occupancy panel away")


def test_numba_beside_the_cuda(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "5",
                        "--actions", "step; step; select-thread 0 1; toggle-numba", "--screenshot", run.screenshot)
    state = run.state()
    check(status == 0, "the app runs")
    source = state["kernel_source"]
    check(source["languages"] == "cuda+numba", "the action puts the Numba source beside the CUDA")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "kernels", "02_tiled.cu")) as f:
        cuda = f.read().split("\n")
    with open(os.path.join(root, "kernels", "python", "02_tiled_numba.py")) as f:
        python = f.read().split("\n")
    check(len(source["next_lines"]) == 1 and len(source["python_next_lines"]) >= 1,
          "the selected thread's line is marked in both: %s / %s" % (source["next_lines"], source["python_next_lines"]))
    cuda_line = cuda[source["next_lines"][0] - 1]
    python_line = python[source["python_next_lines"][-1] - 1]
    marker = cuda_line.split("// model: ")[-1].strip()
    twins = {"load_a": "a = A[", "store_as": "As[ty, tx] = a", "load_b": "b = B[", "store_bs": "Bs[ty, tx] = b",
             "barrier1": "cuda.syncthreads()", "fma": "cuda.fma(", "barrier2": "cuda.syncthreads()",
             "store_c": "C[row, col] = total"}
    check(marker in twins and twins[marker] in python_line,
          "CUDA line %r has its twin %r" % (cuda_line.strip(), python_line.strip()))
    run2 = Run(binary)
    run2.app("--frames", "5", "--actions", "toggle-numba; toggle-numba")
    check(run2.state()["kernel_source"]["languages"] == "cuda", "the key toggles back to CUDA alone")


def test_rect_kernel_has_no_twin(binary):
    run = Run(binary)
    status, _ = run.app("--lesson", "rect_4x2x4", "--frames", "5", "--actions", "toggle-numba")
    check(status == 0 and run.state()["kernel_source"]["languages"] == "cuda",
          "the rect kernel shows its CUDA alone: it has no Numba transcription")


def test_switched_off_barrier_stays_in_view(binary):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "kernels", "02_tiled.cu")) as f:
        cuda = f.read().split("\n")
    for width, height in ((1366, 768), (1920, 1080)):
        for mode in ([], ["--presentation"]):
            run = Run(binary)
            status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "5", *mode,
                                "--actions", "toggle-barrier2; step; step; select-thread 0 1")
            where = "%dx%d%s" % (width, height, " presentation" if mode else "")
            check(status == 0, "the app runs at " + where)
            source = run.state()["kernel_source"]
            switches = {s["what"]: s for s in source["switches"]}
            check(switches["barrier2"]["text"].strip() == "// __syncthreads();" and not switches["barrier2"]["on"],
                  "%s: the 2nd barrier is a commented-out __syncthreads(): %r" % (where, switches["barrier2"]["text"]))
            check(switches["barrier1"]["text"].strip() == "__syncthreads();",
                  "%s: the 1st barrier is a plain __syncthreads(): %r" % (where, switches["barrier1"]["text"]))
            line = switches["barrier2"]["line"]
            check(line in source["lines_in_view"] or line in source["pinned_lines"],
                  "%s: the switched-off barrier's line %d is in view or pinned: %s / %s"
                  % (where, line, source["lines_in_view"], source["pinned_lines"]))
            check(len(source["next_lines"]) == 1 and "// model: store_as" in cuda[source["next_lines"][0] - 1]
                  and source["next_lines"][0] in source["lines_in_view"],
                  "%s: the selected thread's marker is on its As store, in view: %s" % (where, source["next_lines"]))


if __name__ == "__main__":
    run_tests(globals())
