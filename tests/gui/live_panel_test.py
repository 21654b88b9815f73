"""The live GPU panel without a GPU: it says why there is no device, bad sizes get a message
beside the field, a saved sweep loads and draws its lines (seen in the pixels of the plot and
in the widget's state), the model link counts the global reads at the smallest size, the
results export in the CLI's format (`tilescope bench --csv/--json`, kernels/results_file.h)
and load back, a truncated file is reported and the last good plot stays, and the plot
exports as a PNG of its own.

The results file is written here with synthetic numbers (round, clearly made up) in the
JSON the CLI writes: the test is about loading and drawing, not about any GPU's speed."""
import json
import os

from guitest import LINK_BY_FORMULA, Run, check, read_png, region_colours, run_tests

ORANGE = (230, 159, 0)    # Okabe-Ito: the first kernel's colour.
SKY_BLUE = (86, 180, 233)  # The second's.
MAGENTA = (255, 64, 255)   # The student's own kernel (palette.h, kStudentMagenta).
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILED = os.path.join(TESTS, "corpus", "tiled_correct.cu")


def synthetic_sweep():
    kernels = [("naive", "naive (global memory only)", 1000.0), ("tiled16", "tiled, TILE 16", 2000.0),
               ("cublas_fp32", "cuBLAS SGEMM (FP32)", 10000.0)]
    results = []
    for name, label, base in kernels:
        for i, n in enumerate([128, 256, 512, 1024]):
            gflops = base * (i + 1)
            results.append({
                "kernel": name, "label": label, "m": n, "n": n, "k": n, "error": "", "reps": 5,
                "median_ms": 2.0 * n ** 3 / gflops / 1e6, "min_ms": 0.0, "max_ms": 0.0, "q1_ms": 0.0, "q3_ms": 0.0,
                "gflops": gflops, "percent_of_cublas": 100.0 * base / 10000.0, "max_abs_error": 0.0,
                "tolerance": 0.001, "wrong_elements": 0, "verified": True,
                "occupancy_blocks_per_sm": 0 if name.startswith("cublas") else 4, "threads_per_block": 256})
    return {"format": "tilescope-sweep", "version": 1,
            "device": {"name": "Synthetic GPU (test data)", "compute_capability": "9.0", "sms": 100,
                       "clock_mhz": 1000.0, "memory_bytes": 8.0e9, "fp32_peak_gflops": 50000.0},
            "measured_at": "2000-01-01T00:00:00Z", "results": results}


def write_sweep(run):
    path = os.path.join(run.dir, "sweep.json")
    with open(path, "w") as f:
        json.dump(synthetic_sweep(), f)
    return path


def test_no_device_reason(binary):
    run = Run(binary)
    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "3")
    check(status == 0, "app exits 0")
    live = run.state()["live"]
    check(not live["device"]["available"], "no device here")
    check(len(live["device"]["reason"]) > 10, "the panel gives the reason: " + live["device"]["reason"])
    check(not live["run_button"]["enabled"], "Run is disabled without a device")
    check(live["device"]["reason"] in live["run_button"]["tooltip"],
          "Run's tooltip gives the reason: " + live["run_button"]["tooltip"])
    status, output = run.app("--frames", "3", "--actions", "live-run; " + LINK_BY_FORMULA)
    check("cannot run" in output, "Run without a device says it cannot run")


def test_no_gpu_shows_the_shipped_run_at_once(binary):
    """Ctrl+2 on a PC without a GPU: the page opens on the H100 run shipped with TileScope and
    says so, at both screen sizes; a file loaded first is kept."""
    for width, height in ((1366, 768), (1920, 1080)):
        run = Run(binary)
        status, _ = run.app("--width", str(width), "--height", str(height), "--frames", "3", "--actions",
                            "page-live; wait 3; " + LINK_BY_FORMULA)
        state = run.state()
        live = state["live"]
        check(status == 0 and not live["device"]["available"] and live["results"] > 0,
              "%dx%d: the GPU page opens on %d results" % (width, height, live["results"]))
        said = [n["text"] for n in state.get("notifications", [])] if isinstance(state.get("notifications"), list) else []
        check("h100-bench.json" in live.get("loaded_from", "") or any("shipped" in t for t in said),
              "%dx%d: it is the shipped H100 run, said so: %s %s" % (width, height, live.get("loaded_from"), said))
    run = Run(binary)
    sweep = write_sweep(run)
    run.app("--frames", "3", "--actions", "live-load %s; page-live; wait 2" % sweep)
    check(run.state()["live"]["loaded_from"] == sweep, "a sweep loaded before the page opens stays")


def test_bad_sizes_are_named_beside_the_field(binary):
    run = Run(binary)
    status, output = run.app("--frames", "3", "--actions",
                             "live-sizes 0; live-sizes -4; live-sizes 300:4096; " + LINK_BY_FORMULA)
    for sizes, needle in [("0", "at least 1"), ("-4", "not a whole number"), ("300:4096", "powers of two")]:
        check(status == 1 and "sizes: size" in output and needle in output, "sizes %s are refused: %s" % (sizes, needle))
    check("3 scripted actions were refused" in output, "the scripted run counts the refusals and exits 1")
    check("powers of two" in run.state()["live"]["sizes_message"], "the last problem stands beside the field")


def test_loaded_sweep_draws_lines(binary):
    run = Run(binary)
    sweep = write_sweep(run)
    png_path = os.path.join(run.dir, "plot.png")
    status, output = run.app("--width", "1920", "--height", "1080", "--frames", "5", "--actions",
                             "live-load " + sweep + "; wait 2; live-export-png " + png_path,
                             "--screenshot", run.screenshot)
    check(status == 0, "app exits 0")
    live = run.state()["live"]
    check(live["results"] == 12, "12 results loaded")
    check(live["loaded_from"] == sweep and live["measured_on"] == "Synthetic GPU (test data)",
          "the panel says where the results come from")
    series = {s["name"].split(" \u2014")[0]: s["points"] for s in live["plot"]["series"]}
    check(series.get("naive (global memory only)") == 4 and series.get("tiled, TILE 16") == 4,
          "two kernels with 4 points each: " + str(series))
    check(any("reference" in s["name"] for s in live["plot"]["series"]), "cuBLAS is the reference series")
    check(any("peak" in line for line in live["plot"]["reference_lines"]), "the FP32 peak is drawn")
    x0, y0, x1, y1 = (int(v) for v in live["plot"]["region"])
    colours = region_colours(read_png(run.screenshot), x0, y0, x1, y1)
    check(ORANGE in colours and SKY_BLUE in colours, "the first two kernels' colours are in the plot's pixels")
    link = live["model_link"]
    reads = {row["label"]: row for row in link["rows"]}
    check(link["size"] == "128" and reads["tiled, TILE 16"]["counted_by"] == "model",
          "the model link counts at the smallest size, 128: " + str(link))
    check(reads["naive (global memory only)"]["global_reads"] == 2 * 128 ** 3
          and reads["tiled, TILE 16"]["global_reads"] == 2 * 128 ** 3 // 16,
          "naive reads 2n\u00b3, TILE 16 reads 2n\u00b3/16")
    check(os.path.exists(png_path), "the plot was exported as PNG")
    plot_png = read_png(png_path)
    check(abs(plot_png[0] - (x1 - x0)) <= 1 and abs(plot_png[1] - (y1 - y0)) <= 1,
          "the exported PNG is the plot region (%dx%d)" % (plot_png[0], plot_png[1]))


def test_export_in_the_cli_format_loads_back(binary):
    run = Run(binary)
    sweep = write_sweep(run)
    csv_path = os.path.join(run.dir, "again.csv")
    status, _ = run.app("--frames", "3", "--actions", "live-load " + sweep + "; live-export-csv " + csv_path)
    check(status == 0 and os.path.exists(csv_path), "the results were exported as CSV")
    with open(csv_path) as f:
        text = f.read()
    check(text.startswith("# format: tilescope-sweep") and "\n# results: 12\n" in text,
          "the CSV is the CLI's format, with its row count")
    status, _ = run.app("--frames", "3", "--actions", "live-load " + csv_path)
    live = run.state()["live"]
    check(live["results"] == 12 and live["loaded_from"] == csv_path, "the CSV loads back")
    check(sum(s["points"] for s in live["plot"]["series"]) == 12, "and draws every point")
    check(live["provenance"] == "loaded from %s, measured on Synthetic GPU (test data) at 2000-01-01T00:00:00Z"
          % csv_path, "marked: " + live["provenance"])


def test_files_made_by_the_cli_load(binary):
    """docs/results/h100-bench.{json,csv}: written by `tilescope bench --json/--csv` on an H100."""
    results = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "results")
    for name in ["h100-bench.json", "h100-bench.csv"]:
        run = Run(binary)
        path = os.path.join(results, name)
        # At 8192 the model link takes the closed form, so no model count holds the run up.
        status, _ = run.app("--frames", "3", "--actions", "live-load " + path + "; live-model-size 8192")
        live = run.state()["live"]
        check(status == 0 and live["loaded_from"] == path and live["measured_on"] == "NVIDIA H100 80GB HBM3",
              name + " loads: " + live["provenance"])
        points = sum(s["points"] for s in live["plot"]["series"])
        check(points == live["results"] and points > 20, "%s: all %d results are plotted" % (name, points))
        check(any("peak" in line for line in live["plot"]["reference_lines"]), name + ": the FP32 peak line is drawn")


def test_model_link_above_256_uses_the_formula(binary):
    run = Run(binary)
    sweep = write_sweep(run)
    status, _ = run.app("--frames", "3", "--actions", "live-load " + sweep + "; live-model-size 1024")
    link = run.state()["live"]["model_link"]
    reads = {row["label"]: row for row in link["rows"]}
    naive = reads["naive (global memory only)"]
    check(link["size"] == "1024" and naive["counted_by"] == "formula" and naive["global_reads"] == 2 * 1024 ** 3,
          "at 1024 the closed form gives 2n\u00b3: " + str(naive))
    # The file says 4000 GFLOPS at 1024: 2n³ flops and 2n³ reads of 4 B, so 4 x 4000 GB/s requested.
    check(abs(naive["requested_gbs"] - 4 * 4000.0) < 1e-6 * 16000, "requested load = reads x 4 B / time")


def test_truncated_file_keeps_last_plot(binary):
    run = Run(binary)
    good = write_sweep(run)
    bad = os.path.join(run.dir, "truncated.json")
    with open(good) as f:
        text = f.read()
    with open(bad, "w") as f:
        f.write(text[:len(text) // 2])
    status, output = run.app("--frames", "5", "--actions", "live-load " + good + "; live-load " + bad)
    check(status == 1 and "1 scripted action was refused" in output,
          "a truncated file does not stop the app; the scripted run that asked for it exits 1")
    live = run.state()["live"]
    check("not loaded" in live["message"] and "truncated.json" in live["message"], "the message names the bad file")
    check(live["results"] == 12 and live["loaded_from"] == good, "the last good sweep stays on screen")
    check(sum(s["points"] for s in live["plot"]["series"]) == 12, "and its plot keeps every point")


def test_bars_view(binary):
    run = Run(binary)
    sweep = write_sweep(run)
    status, _ = run.app("--frames", "5", "--actions", "live-load " + sweep + "; live-view bars")
    live = run.state()["live"]
    check(status == 0 and live["view"] == "bars", "the bars view is on")
    names = [s["name"] for s in live["plot"]["series"]]
    check(len(names) == 2 and all(s["points"] == 4 for s in live["plot"]["series"]),
          "one bar per size for each non-reference kernel: " + str(names))


def test_results_open_through_the_file_dialog(binary):
    """Open… lists a folder's sub-folders and its JSON and CSV files (nothing else, nothing
    hidden); a folder chosen there is listed in turn and a file chosen is loaded, the dialog
    closing behind it. The clicks push these same actions."""
    run = Run(binary)
    folder = os.path.join(run.dir, "results")
    os.makedirs(os.path.join(folder, "runs"))
    with open(os.path.join(folder, "sweep.json"), "w") as f:
        json.dump(synthetic_sweep(), f)
    with open(os.path.join(folder, "runs", "again.json"), "w") as f:
        json.dump(synthetic_sweep(), f)
    for name in ("notes.txt", ".hidden.json"):
        with open(os.path.join(folder, name), "w") as f:
            f.write("{}")
    status, _ = run.app("--frames", "3", "--actions", "page-live; live-choose-file %s; %s" % (folder, LINK_BY_FORMULA))
    chooser = run.state()["live"]["file_chooser"]
    check(status == 0 and chooser["open"] and chooser["folder"] == folder, "Open… lists the folder: %s" % chooser)
    check(chooser["entries"] == ["runs/", "sweep.json"], "folders first, then results files only: %s" % chooser["entries"])
    runs = os.path.join(folder, "runs")
    status, _ = run.app("--frames", "3", "--actions", "page-live; live-choose-file %s; live-choose-file %s; live-load %s"
                        % (folder, runs, os.path.join(runs, "again.json")))
    live = run.state()["live"]
    check(status == 0 and live["loaded_from"] == os.path.join(runs, "again.json"), "the file chosen is loaded")
    check(not live["file_chooser"]["open"] and live["file_chooser"]["folder"] == runs,
          "the dialog closes behind it, last in the folder it showed")
    status, output = run.app("--frames", "3", "--actions",
                             "page-live; live-choose-file %s; %s" % (os.path.join(folder, "none-such"), LINK_BY_FORMULA))
    check(status == 1 and "none-such' is not a folder that can be opened" in output, "a folder that is not there is named")


def sweep_with_your_kernel():
    """The synthetic sweep with the student's kernel beside it, as a sweep saves it: right at
    three sizes, its C wrong at the fourth."""
    sweep = synthetic_sweep()
    for i, n in enumerate([128, 256, 512, 1024]):
        gflops = 1500.0 * (i + 1)
        sweep["results"].append({
            "kernel": "your_kernel", "label": "your kernel: tiled (tiled.cu)", "m": n, "n": n, "k": n, "error": "",
            "reps": 5, "median_ms": 2.0 * n ** 3 / gflops / 1e6, "min_ms": 0.0, "max_ms": 0.0, "q1_ms": 0.0,
            "q3_ms": 0.0, "gflops": gflops, "percent_of_cublas": 15.0, "max_abs_error": 0.0 if n < 1024 else 3.0,
            "tolerance": 0.001, "wrong_elements": 0 if n < 1024 else 4096, "verified": n < 1024,
            "occupancy_blocks_per_sm": 0, "threads_per_block": 256})
    return sweep


def test_your_kernel_row_without_a_gpu(binary):
    """--kernel's file is offered in the sweep's "your kernel" row; without a GPU the row is
    disabled, its tooltip says why, and adding the file says so after checking it. A file that
    is missing, refused by the front end or not a kernel a sweep can time is named."""
    run = Run(binary)
    status, _ = run.app("--kernel", TILED, "--width", "1366", "--height", "768", "--frames", "3", "--actions",
                        "page-live; " + LINK_BY_FORMULA, "--screenshot", run.screenshot)
    live = run.state()["live"]
    row = live["your_kernel"]
    check(status == 0 and row["path"] == TILED and not row["included"], "--kernel's file is offered, not added: %s" % row)
    check(not live["your_kernel_row"]["enabled"], "the row is disabled without a GPU")
    check(live["device"]["reason"] in live["your_kernel_row"]["tooltip"],
          "its tooltip gives the reason: " + live["your_kernel_row"]["tooltip"])
    status, output = run.app("--kernel", TILED, "--frames", "3", "--actions", "page-live; live-student; " + LINK_BY_FORMULA)
    check("compiled, but it joins a sweep only on a GPU" in output and not run.state()["live"]["your_kernel"]["included"],
          "adding it checks the file, then says a sweep needs a GPU: " + output[-300:])
    cases = [(os.path.join(run.dir, "none-such.cu"), "none-such.cu: cannot open"),
             (os.path.join(TESTS, "app", "check_refused.cu"), "check_refused.cu:3:3: the type 'double' is not supported"),
             (os.path.join(TESTS, "app", "sweep_no_c.cu"), "takes no pointer for C"),
             (os.path.join(TESTS, "app", "sweep_fixed_size.cu"), "fixed takes no size")]
    for path, said in cases:
        status, output = run.app("--frames", "3", "--actions", "page-live; live-student %s; %s" % (path, LINK_BY_FORMULA))
        row = run.state()["live"]["your_kernel"]
        check(status == 1 and said in output and said in row["problem"] and not row["included"],
              "%s: named in the status bar and the row: %s | %s" % (os.path.basename(path), output[-200:], row["problem"]))
    status, output = run.app("--frames", "3", "--actions", "page-live; live-student; " + LINK_BY_FORMULA)
    check(status == 1 and "opened none with --kernel" in output, "no file to add is said: " + output[-200:])
    status, _ = run.app("--frames", "3", "--actions",
                        "page-live; live-student-choose %s; %s" % (os.path.join(TESTS, "app"), LINK_BY_FORMULA))
    chooser = run.state()["live"]["your_kernel"]["chooser"]
    check(status == 0 and chooser["open"] and "check_refused.cu" in chooser["entries"]
          and all(e.endswith((".cu", "/")) for e in chooser["entries"]), "the dialog lists .cu files: %s" % chooser)


def test_your_kernel_is_plotted_in_its_own_colour(binary):
    """A sweep with the student's kernel: its line in its own colour under its own label, the
    size where its C was wrong left out and owned up to in the legend; it exports and loads
    back like a rung."""
    run = Run(binary)
    path = os.path.join(run.dir, "yours.json")
    with open(path, "w") as f:
        json.dump(sweep_with_your_kernel(), f)
    again = os.path.join(run.dir, "again.csv")
    status, _ = run.app("--width", "1920", "--height", "1080", "--frames", "5", "--actions",
                        "live-load %s; page-live; wait 2; live-export-csv %s" % (path, again),
                        "--screenshot", run.screenshot)
    live = run.state()["live"]
    series = {s["name"]: s["points"] for s in live["plot"]["series"]}
    check(status == 0 and series.get("your kernel: tiled (tiled.cu) (1 not plotted \u2717)") == 3,
          "its three right sizes plotted, the wrong one owned up to: %s" % series)
    x0, y0, x1, y1 = (int(v) for v in live["plot"]["region"])
    check(MAGENTA in region_colours(read_png(run.screenshot), x0, y0, x1, y1), "its colour is in the plot's pixels")
    status, _ = run.app("--frames", "3", "--actions", "live-load %s; page-live" % again)
    check(status == 0 and run.state()["live"]["results"] == 16, "the CSV export loads back with its rows")


if __name__ == "__main__":
    run_tests(globals())
