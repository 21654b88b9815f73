#!/usr/bin/env python3
"""`tilescope trace` as a user runs it: the walkthrough and the JSON summary, each figure
compared with a closed form computed here (never a number copied from a run).

Usage: trace_test.py TILESCOPE REPO_ROOT CHECK   (CHECK: one of the functions in CHECKS)
Prints PASS, or FAIL: with the reason.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from verdict import expect, fail  # noqa: E402

TILESCOPE, ROOT = sys.argv[1], sys.argv[2]


# The limit on one run, set for Release; CTest scales it in the sanitized build (tests/CMakeLists.txt).
RUN_TIMEOUT = 120 * int(os.environ.get("TILESCOPE_TIMEOUT_SCALE", "1"))


def run(*args, status=0):
    done = subprocess.run([TILESCOPE, "trace", *args], capture_output=True, text=True, timeout=RUN_TIMEOUT)
    if done.returncode != status:
        fail(f"trace {' '.join(args)}: exit {done.returncode}, expected {status}\n{done.stdout}{done.stderr}")
    return done


def run_json(*args):
    return json.loads(run(*args, "--json", "-").stdout)


def ceil_div(a, b):
    return -(-a // b)


def sequence(rows, cols):
    return [[r * cols + c + 1 for c in range(cols)] for r in range(rows)]


def product(a, b):
    return [[sum(a[i][p] * b[p][j] for p in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def closed_forms(m, n, k, tm, tn, tk, naive=False, barriers=2):
    """What the guarded kernels must read, store and execute (kernels/02_tiled.cu, 03, 01)."""
    if naive:
        return {"global_reads_a": m * n * k, "global_reads_b": m * n * k, "shared_reads": 0, "shared_writes": 0,
                "barrier_arrivals": 0, "fma_executed": m * n * k, "phases": 1}
    blocks = ceil_div(m, tm) * ceil_div(n, tn)
    threads = blocks * tm * tn
    phases = ceil_div(k, tk)
    return {"global_reads_a": ceil_div(n, tn) * m * k, "global_reads_b": ceil_div(m, tm) * k * n,
            "shared_writes": blocks * phases * (tm * tk + tk * tn), "shared_reads": threads * phases * 2 * tk,
            "barrier_arrivals": threads * phases * barriers, "fma_executed": threads * phases * tk, "phases": phases}


def model_lines(kernel_file):
    """1-based line of each `// model: NAME` marker: the lines hazards must name."""
    lines = {}
    with open(os.path.join(ROOT, "kernels", kernel_file), encoding="utf-8") as source:
        for number, text in enumerate(source, 1):
            found = re.search(r"// model: (\w+)", text)
            if found:
                lines[found.group(1)] = number
    return lines


def inline(matrix):
    return "[" + ",".join("[" + ",".join(str(v) for v in row) + "]" for row in matrix) + "]"


def block_sections(out, phases):
    """{(phase, "(bx,by)"): the lines printed for that block in that phase}."""
    found = {}
    chunks = re.split(r"^Phase (\d+) \(t=\d+\).*$", out, flags=re.M)
    for number, chunk in zip(chunks[1::2], chunks[2::2]):
        chunk = chunk.split("\n\n")[0]
        for part in chunk.split("\n  block ")[1:]:
            found[(int(number), part.split(",", 2)[0] + "," + part.split(",", 2)[1])] = part
    expect(len({phase for phase, _ in found}) == phases, f"expected {phases} phases in\n{out}")
    return found


def check_default_walkthrough():
    m = n = k = 4
    tile = 2
    a, b = sequence(m, k), sequence(k, n)
    out = run().stdout
    phases = ceil_div(k, tile)
    expect(f"Number of tile phases: {phases}" in out, "phase count")
    sections = block_sections(out, phases)
    for t in range(phases):
        for by in range(ceil_div(m, tile)):
            for bx in range(ceil_div(n, tile)):
                rows = range(by * tile, by * tile + tile)
                cols = range(bx * tile, bx * tile + tile)
                depth = range(t * tile, t * tile + tile)
                section = sections.get((t + 1, f"({bx},{by})"), "")
                for text in (f"{tile * tile} global reads of A, {tile * tile} of B",
                             "As = " + inline([[a[r][p] for p in depth] for r in rows]),
                             "Bs = " + inline([[b[p][c] for c in cols] for p in depth]),
                             "partial sums = " + inline([[sum(a[r][p] * b[p][c] for p in range(t * tile + tile))
                                                          for c in cols] for r in rows])):
                    expect(text in section, f"phase {t + 1}, block ({bx},{by}): missing {text} in\n{section}")
    for row in product(a, b):
        expect(re.search(r"^\s*" + r"\s+".join(str(v) for v in row) + r"\s*$", out, re.M), f"C row {row}")
    naive = 2 * m * n * k
    tiled = ceil_div(n, tile) * m * k + ceil_div(m, tile) * k * n
    expect(f"{naive} total, {naive // (m * n)} per element of C" in out, "naive reads")
    expect(f"{tiled} total, {tiled // (m * n)} per element of C" in out, "tiled reads")
    expect(f"saving: {naive / tiled:.2f}×" in out, "saving")
    expansion = re.search(r"^C\[0\]\[0\] = (.*) = (\S+)", out, re.M)
    expect(expansion, "no expansion of C[0][0]")
    terms = re.findall(r"(\d+)×(\d+)", expansion.group(1))
    expect([(int(x), int(y)) for x, y in terms] == [(a[0][p], b[p][0]) for p in range(k)], f"C[0][0]: {terms}")
    expect(int(expansion.group(2)) == product(a, b)[0][0], "C[0][0] value")
    expect("C is correct and no hazard was detected" in out, "verdict")


SHAPES = [  # m, n, k, kernel, tile or (tm, tn, tk)
    (4, 4, 4, "tiled", 2), (6, 5, 7, "tiled", 4), (1, 1, 1, "tiled", 2), (7, 3, 11, "tiled", 2),
    (3, 5, 40, "tiled", 4), (13, 17, 5, "tiled", 8), (8, 8, 8, "rect", (4, 2, 4)), (9, 7, 10, "rect", (2, 4, 3)),
    (4, 4, 4, "naive", 2), (5, 3, 6, "naive", 4),
]


def shape_args(m, n, k, kernel, tiles):
    args = ["--m", str(m), "--n", str(n), "--k", str(k), "--kernel", kernel]
    if kernel == "rect":
        return args + ["--tm", str(tiles[0]), "--tn", str(tiles[1]), "--tk", str(tiles[2])]
    return args + ["--tile", str(tiles)]


def check_json_closed_forms():
    required = ["global_reads_a", "global_reads_b", "global_reads_total", "naive_global_reads", "global_writes",
                "shared_reads", "shared_writes", "barrier_arrivals", "barrier_stall_steps", "global_sectors",
                "bank_conflicts", "phases", "fma_executed", "flops", "hazards", "out_of_bounds", "wrong_elements", "c"]
    for m, n, k, kernel, tiles in SHAPES:
        where = f"{m}x{n}x{k} {kernel} {tiles}"
        summary = run_json(*shape_args(m, n, k, kernel, tiles))
        missing = [key for key in required if key not in summary]
        expect(not missing, f"{where}: keys missing: {missing}")
        tm, tn, tk = tiles if kernel == "rect" else (tiles, tiles, tiles)
        for key, value in closed_forms(m, n, k, tm, tn, tk, naive=kernel == "naive").items():
            expect(summary[key] == value, f"{where}: {key} = {summary[key]}, closed form {value}")
        expect(summary["global_reads_total"] == summary["global_reads_a"] + summary["global_reads_b"], f"{where}: total")
        expect(summary["naive_global_reads"] == 2 * m * n * k, f"{where}: naive reads")
        expect(summary["global_writes"] == m * n, f"{where}: writes")
        expect(summary["flops"] == 2 * m * n * k, f"{where}: flops")
        expect(summary["hazards"] == [] and summary["out_of_bounds"] == 0 and summary["wrong_elements"] == 0,
               f"{where}: a correct lesson reported problems")
        expect(summary["c"] == product(sequence(m, k), sequence(k, n)), f"{where}: C differs from the product")
        expect(summary["barrier_stall_steps"] >= 0 and summary["global_sectors"] > 0, f"{where}: stalls/sectors")
        if kernel == "tiled" and tm & (tm - 1) == 0:
            expect(summary["bank_conflicts"] == 0, f"{where}: power-of-two square tiles have no bank conflicts")


def check_json_race():
    lines = model_lines("02_tiled.cu")
    for tile, severity in ((2, "warning"), (16, "error")):
        size = 2 * tile
        for barrier, kind, reader, writer in (("--barrier1", "RAW", "fma", "store"), ("--barrier2", "WAR", "fma", "store")):
            summary = run_json("--m", str(size), "--n", str(size), "--k", str(size), "--tile", str(tile), barrier, "off",
                               "--scheduler", "race", "--fill", "random:7")
            where = f"tile {tile}, {barrier} off"
            expect(summary["hazards"], f"{where}: no hazards")
            expect(summary["wrong_elements"] > 0, f"{where}: the race-exposing scheduler left C right")
            expect({h["kind"] for h in summary["hazards"]} == {kind}, f"{where}: kinds {set(h['kind'] for h in summary['hazards'])}")
            severities = {h["severity"] for h in summary["hazards"]}
            expect(severity in severities, f"{where}: no {severity} among {severities}")
            expect(any(h["observed_order"] == "reversed" for h in summary["hazards"]), f"{where}: none witnessed")
            for hazard in summary["hazards"]:
                for side, line in zip((hazard["first"], hazard["second"]), hazard["lines"]):
                    expect(lines[side["instruction"]] == line == side["line"], f"{where}: line {line} is not "
                           f"the {side['instruction']} marker's {lines[side['instruction']]}")
                same_warp = hazard["first"]["warp"] == hazard["second"]["warp"]
                expect(hazard["severity"] == ("warning" if same_warp else "error"), f"{where}: severity by warp")
    barriers_on = run_json("--m", "32", "--n", "32", "--k", "32", "--tile", "16", "--scheduler", "race", "--fill", "random:7")
    expect(barriers_on["hazards"] == [] and barriers_on["wrong_elements"] == 0, "both barriers on: still wrong")


def check_printout_plain_source():
    """A printed hazard names its line with the statement as the handouts write it: the kernel
    file's line without its model marker and indentation, never a template switch."""
    with open(os.path.join(ROOT, "kernels", "02_tiled.cu"), encoding="utf-8") as source:
        file_lines = source.read().splitlines()
    out = run("--m", "4", "--n", "4", "--k", "4", "--tile", "2", "--barrier2", "off", "--scheduler", "race").stdout
    named = re.findall(r"at line (\d+) \((.*?)\)(?:,|$| then|:)", out, re.MULTILINE)
    expect(named, "the printout names no hazard's line:\n" + out)
    templates = ("Sync<", "kFirstSync", "kSecondSync", "kGuarded", "kBsTransposed", "kCeilTiles")
    for number, statement in named:
        in_file = re.sub(r"\s*// model: \w+$", "", file_lines[int(number) - 1]).strip()
        if any(name in in_file for name in templates):
            # A switch resolved for this variant: what the file's line assigns, written plainly.
            expect(" = " in statement and statement.split(" = ")[0] in in_file, f"line {number} printed as {statement!r}")
        else:
            expect(statement == in_file, f"line {number} printed as {statement!r}, the file has {in_file!r}")
    for template in templates + ("(store_as)", "(fma)"):
        expect(template not in out, f"the printout shows {template!r}")


def check_json_guard_off():
    m, n, k, tile = 5, 5, 5, 2
    guarded = run_json("--m", str(m), "--n", str(n), "--k", str(k), "--tile", str(tile))
    expect(guarded["out_of_bounds"] == 0, "guarded kernel flagged out-of-bounds accesses")
    off = run_json("--m", str(m), "--n", str(n), "--k", str(k), "--tile", str(tile), "--guard", "off")
    # Every thread loads TILE elements of A and of B per phase; those outside the matrix are flagged.
    padded = ceil_div(m, tile) * tile
    blocks = ceil_div(m, tile) * ceil_div(n, tile)
    phases = ceil_div(k, tile)
    expect(off["global_reads_a"] == blocks * tile * phases * tile, "unguarded reads of A")
    expect(off["out_of_bounds"] > 0, "no out-of-bounds access flagged with the guard off")
    expect(len(off["out_of_bounds_accesses"]) == off["out_of_bounds"], "out-of-bounds list and count differ")
    expect(padded > m, "test shape must not be a tile multiple")


def write_vectors(path, cases, truncate=0):
    data = b""
    for m, inner, cols, a, b, c in cases:  # the harness's names: A M×N, B N×K, C M×K
        data += struct.pack("<3i", m, inner, cols)
        for matrix in (a, b, c):
            data += struct.pack(f"<{len(matrix)}f", *matrix)
    with open(path, "wb") as out:
        out.write(data[:len(data) - truncate])


def check_fill_file():
    m, inner, cols = 3, 5, 2
    a = [[(i * 7 + p) % 5 - 2 for p in range(inner)] for i in range(m)]
    b = [[(p * 3 + j) % 4 - 1 for j in range(cols)] for p in range(inner)]
    c = product(a, b)
    flat = lambda matrix: [v for row in matrix for v in row]
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "vectors.bin")
        write_vectors(path, [(m, inner, cols, flat(a), flat(b), flat(c))])
        summary = run_json("--fill", "file:" + path)
        lesson = summary["lesson"]
        expect((lesson["m"], lesson["n"], lesson["k"]) == (m, cols, inner), f"sizes {lesson}")
        expect(summary["c"] == c, "C from the file's A and B")
        expect("pass" in run("--fill", "file:" + path).stdout, "no check against the file's C")
        disagree = run("--fill", "file:" + path, "--m", str(m + 1), status=2).stderr
        expect("--m" in disagree and f"M = {m}" in disagree.replace("m = ", "M = "), disagree)
        write_vectors(path, [(m, inner, cols, flat(a), flat(b), flat(c))], truncate=4)
        truncated = run("--fill", "file:" + path, status=2).stderr
        expect("case 1 at byte offset 0" in truncated and "truncated" in truncated, truncated)


def check_lesson_file():
    path = os.path.join(ROOT, "assets", "lessons", "tile4_8x8x8.json")
    with open(path, encoding="utf-8") as lesson_file:
        lesson = json.load(lesson_file)
    summary = run_json("--lesson", path)
    expect(all(summary["lesson"][key] == lesson[key] for key in ("m", "n", "k", "tile")), "lesson sizes")
    expect(summary["phases"] == ceil_div(lesson["k"], lesson["tile"]), "phases of the lesson file")
    overridden = run_json("--lesson", path, "--k", "12")
    expect(overridden["phases"] == ceil_div(12, lesson["tile"]), "a flag overrides the lesson file")
    with tempfile.TemporaryDirectory() as directory:
        odd = os.path.join(directory, "odd.json")
        with open(odd, "w", encoding="utf-8") as out:
            json.dump({**lesson, "colour": "red"}, out)
        warned = run("--lesson", odd)
        expect("unknown key 'colour'" in warned.stderr, warned.stderr)


MAX_THREADS_PER_BLOCK = 1024       # CUDA's limit
MAX_SHARED_BYTES_PER_BLOCK = 48 * 1024  # static shared memory per block


def check_bad_values():
    """Each bad value: exit 2 and one line naming the value and the limit."""
    big_tile = 33
    tm, tn, tk = 16, 16, 512
    shared = 4 * (tm * tk + tk * tn)
    cases = [
        (["--m", "0"], ["m = 0", "at least 1"]),
        (["--k", "-3"], ["k = -3", "at least 1"]),
        (["--n", "70000"], ["n = 70000", "limit is 65536"]),
        (["--tile", "0"], ["tile = 0", "at least 1"]),
        (["--tile", str(big_tile)], [f"{big_tile * big_tile} threads", f"limit is {MAX_THREADS_PER_BLOCK}"]),
        (["--tm", str(tm), "--tn", str(tn), "--tk", str(tk)], [f"{shared} bytes", str(MAX_SHARED_BYTES_PER_BLOCK)]),
        (["--m", "65536", "--n", "65536", "--k", "65536", "--tile", "16"], ["MiB of model state", "limit is"]),
        (["--scheduler", "fastest"], ["'fastest'", "realistic, thread, random, race"]),
        (["--kernel", "cublas"], ["'cublas'", "tiled, rect, naive"]),
        (["--barrier1", "maybe"], ["'maybe'", "syncthreads, syncwarp, off"]),
        (["--guard", "sometimes"], ["'sometimes'", "on, off"]),
        (["--tiles", "round"], ["'round'", "ceil, floor"]),
        (["--fill", "zeros"], ["'zeros'", "sequence"]),
        (["--fill-a", "random:x"], ["random:x", "seed"]),
        (["--kernel", "tiled", "--tm", "4"], ["--tm", "--kernel rect"]),
        (["--kernel", "naive", "--barrier2", "off"], ["barrier2", "naive kernel has none"]),
        (["--lesson", "no_such_lesson"], ["no_such_lesson", "default"]),
        (["--m", "abc"], ["--m", "abc"]),
        (["--m", "18446744073709551615"], ["'18446744073709551615'", "limit is 65536"]),
        (["--k", "1e20"], ["'1e20'", "not a whole number"]),
    ]
    for args, needles in cases:
        done = run(*args, status=2)
        message = done.stderr.strip()
        expect(done.stdout == "", f"{args}: printed a walkthrough for a bad value")
        expect(len(message.splitlines()) == 1, f"{args}: not one line: {message!r}")
        for needle in needles:
            expect(needle in message, f"{args}: {needle!r} not in {message!r}")


def check_json_bank_conflicts():
    """Lesson 6: Bs stored transposed. Each warp's T reads of Bs per phase and its one store
    conflict T²/32 ways: (T + 1)·(T²/32 − 1) extra wavefronts per warp and phase; row-major: none.
    C is the same bit for bit."""
    for tile in (8, 16, 32):
        size = 2 * tile
        args = ("--tile", str(tile), "--m", str(size), "--n", str(size), "--k", str(size))
        transposed = run_json(*args, "--bs-layout", "transposed")
        row_major = run_json(*args)
        warps = (tile * tile + 31) // 32
        blocks, phases = 4, 2
        extra = (tile + 1) * (max(1, tile * tile // 32) - 1) * warps * blocks * phases
        expect(transposed["bank_conflicts"] == extra, f"TILE {tile}: {transposed['bank_conflicts']} != {extra}")
        expect(row_major["bank_conflicts"] == 0, f"TILE {tile}: row-major Bs conflicts")
        expect(transposed["c"] == row_major["c"], f"TILE {tile}: the layout changed C")
    done = run("--kernel", "rect", "--tm", "4", "--tn", "2", "--tk", "4", "--bs-layout", "transposed", status=2)
    expect("only the square tiled kernel" in done.stderr, "the rect kernel refuses the layout: " + done.stderr)


def as_unprivileged():
    """Root writes into any folder whatever its mode: under root (CI containers) the child
    becomes nobody, so a read-only folder means the same on every machine."""
    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)


def check_json_file():
    """--json FILE is written whole or not at all: into a read-only folder the old file stays,
    the message names the path and the reason, the exit status is 1, nothing is left behind."""
    folder = tempfile.mkdtemp(prefix="tilescope-json-")
    os.chmod(folder, 0o755)
    path = os.path.join(folder, "trace.json")
    run("--json", path)
    with open(path) as f:
        expect(json.load(f) == run_json(), "--json FILE holds what --json - prints")
    expect(os.listdir(folder) == ["trace.json"], "no temporary file is left: %s" % os.listdir(folder))
    with open(path, "w") as f:
        f.write("the old file")
    os.chmod(folder, 0o555)
    done = subprocess.run([TILESCOPE, "trace", "--json", path], capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          preexec_fn=as_unprivileged)
    expect(done.returncode == 1, f"exit {done.returncode} writing into a read-only folder, expected 1")
    expect(path in done.stderr and "Permission denied" in done.stderr, "the path and the reason: " + done.stderr)
    with open(path) as f:
        expect(f.read() == "the old file", "the old file is intact")
    expect(os.listdir(folder) == ["trace.json"], "no temporary file is left after the failure")


CHECKS = {name[len("check_"):]: function for name, function in globals().items() if name.startswith("check_")}

if __name__ == "__main__":
    CHECKS[sys.argv[3]]()
    print("PASS")
