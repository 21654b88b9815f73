"""The live panel's ladder and roofline views on a saved sweep without a GPU: every FP32
kernel at the chosen size in teaching order with cuBLAS last, a kernel whose C was wrong is
listed but never plotted, the intensity beside each is the block tile's (checked here by its
formula), and the roofline draws one point per plotted kernel under the device's roofs.

The results are synthetic (round, clearly made up) in the JSON the CLI writes: the test is
about the views, not about any GPU's speed. A sweep of ladder rungs once left the model link
waiting forever for counts the model cannot make (the rungs run on the GPU only), so the
app never finished a screenshot: loading one must end like any other."""
import json
import os

from guitest import LINK_BY_FORMULA, Run, check, run_tests

# (registry name, label, block tile BM×BN or None, GFLOPS at 2048, C verified)
KERNELS = [("naive", "naive (global memory only)", None, 1000.0, True),
           ("tiled32", "tiled, TILE 32", (32, 32), 5000.0, True),
           ("blocktile_2d", "05 2D register blocking", (128, 128), 20000.0, True),
           ("warptile", "08 warp tiling", (128, 128), 30000.0, False),
           ("cublas_fp32", "cuBLAS SGEMM (FP32)", None, 40000.0, True)]
SIZE = 2048


def synthetic_sweep():
    results = []
    for name, label, _, gflops, verified in KERNELS:
        for n, scale in [(1024, 0.5), (SIZE, 1.0)]:
            results.append({
                "kernel": name, "label": label, "m": n, "n": n, "k": n, "error": "", "reps": 5,
                "median_ms": 2.0 * n ** 3 / (gflops * scale) / 1e6, "min_ms": 0.0, "max_ms": 0.0, "q1_ms": 0.0,
                "q3_ms": 0.0, "gflops": gflops * scale, "percent_of_cublas": 100.0 * gflops / 40000.0,
                "max_abs_error": 0.0 if verified else 5.0, "tolerance": 0.001,
                "wrong_elements": 0 if verified else 17, "verified": verified,
                "occupancy_blocks_per_sm": 0 if name.startswith("cublas") else 2, "threads_per_block": 256})
    return {"format": "tilescope-sweep", "version": 1,
            "device": {"name": "Synthetic GPU (test data)", "compute_capability": "9.0", "sms": 100,
                       "clock_mhz": 1000.0, "memory_bytes": 8.0e9, "fp32_peak_gflops": 50000.0,
                       "memory_bandwidth_gbs": 2000.0},
            "measured_at": "2000-01-01T00:00:00Z", "results": results}


def intensity(tile, n):
    """2n³ flops over the bytes of A and B requested by block tiles (or 2n³ loads) and C."""
    loads = 2 * n ** 3 if tile is None else -(-n // tile[1]) * n * n + -(-n // tile[0]) * n * n
    return 2.0 * n ** 3 / (4.0 * (loads + n * n))


def test_ladder_and_roofline_of_a_saved_sweep(binary):
    run = Run(binary)
    path = os.path.join(run.dir, "ladder.json")
    with open(path, "w") as f:
        json.dump(synthetic_sweep(), f)
    status, output = run.app("--width", "1366", "--height", "768", "--frames", "3", "--actions",
                             "page-live; live-load %s; live-view ladder" % path,
                             "--screenshot", os.path.join(run.dir, "ladder.png"))
    check(status == 0, "a sweep of ladder rungs loads and the screenshot finishes")
    live = run.state()["live"]
    check(live["view"] == "ladder", "the ladder view is on")
    ladder = live["ladder"]
    check(ladder["size"] == str(SIZE), "the ladder shows the largest size by default: " + ladder["size"])
    names = [row["kernel"] for row in ladder["rows"]]
    check(names == [k[0] for k in KERNELS], "FP32 kernels in teaching order, cuBLAS last: %s" % names)
    for (name, _, tile, gflops, verified), row in zip(KERNELS, ladder["rows"]):
        check(row["plotted"] == verified, "%s plotted only with a correct C" % name)
        check(abs(row["gflops"] - gflops) < 1e-6, "%s's GFLOPS as measured" % name)
        if name != "cublas_fp32":
            check(abs(row["flop_per_byte"] - intensity(tile, SIZE)) < 1e-9,
                  "%s requests %.3f FLOP/byte" % (name, intensity(tile, SIZE)))
        check(len(row["idea"]) > 10, "%s has its idea in a line" % name)

    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "3", "--actions",
                        "page-live; live-load %s; live-view roofline; live-ladder-size 1024" % path)
    check(status == 0, "the roofline draws")
    live = run.state()["live"]
    check(live["ladder"]["size"] == "1024", "live-ladder-size chose 1024")
    series = [s["name"] for s in live["plot"]["series"]]
    print("roofline series:", series)
    check(any(s.startswith("roofs: memory 2000 GB/s") for s in series), "the device's roofs are drawn")
    points = {s["name"]: s["points"] for s in live["plot"]["series"]}
    for name, label, _, _, verified in KERNELS[:-1]:
        check((label in points) == verified, "%s %s on the roofline" % (label, "is" if verified else "is not"))
    check(live["plot"]["reference_lines"] and "cuBLAS" in live["plot"]["reference_lines"][0],
          "cuBLAS is its measured line")
    status, output = run.app("--frames", "2", "--actions", "page-live; live-load %s; live-ladder-size 999" % path)
    check("no results at n = 999" in output, "a size with no results is refused by name")


def test_roofline_says_why_kernels_lie_above_the_memory_roof(binary):
    """The shipped H100 run places the naive kernel above the DRAM roof: the roofline says which,
    with the bytes a second each asks for (GFLOPS over its intensity, worked here from the
    file), and that L2 and L1 serve them."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "assets", "results", "h100-bench.json")) as f:
        shipped = json.load(f)
    bandwidth = shipped["device"]["memory_bandwidth_gbs"]
    for width, height in ((1366, 768), (1920, 1080)):
        run = Run(binary)
        status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", "--actions",
                            "page-live; live-view roofline; " + LINK_BY_FORMULA,
                            "--screenshot", os.path.join(run.dir, "roofline.png"))
        live = run.state()["live"]
        check(status == 0 and live["measured_on"].startswith("NVIDIA H100"), "no GPU here: the shipped H100 run shows")
        n = int(live["ladder"]["size"])
        tiles = {"naive": None, "tiled8": (8, 8), "tiled16": (16, 16), "tiled32": (32, 32)}
        above = []
        for r in shipped["results"]:
            if r["kernel"] in tiles and r["m"] == r["n"] == r["k"] == n and r["verified"]:
                asked = r["gflops"] / intensity(tiles[r["kernel"]], n)
                if asked > bandwidth:
                    above.append("%s asks for %.0f GB/s" % (r["label"], asked))
        note = live["roofline_note"]
        print("roofline note:", note)
        check(any(said.startswith("naive") for said in above), "the shipped run has naive above the memory roof: %s" % above)
        for said in above:
            check(said in note, "the roofline says %r" % said)
        check("more than DRAM's %.0f GB/s" % bandwidth in note and "L2 and L1 serve" in note,
              "and why: L2 and L1 serve what DRAM does not")
        check("l2_bandwidth_gbs" not in shipped["device"] and "No L2 roof" in note,
              "the shipped run has no measured L2 bandwidth, and the roofline says why it has no L2 roof")
        shown = run.state()["live_panels"]["live_gpu"]
        check(shown["clipped_text"] == 0, "the note is not cut at %dx%d: %s" % (width, height, shown))


if __name__ == "__main__":
    run_tests(globals())
