#!/usr/bin/env python3
"""`tilescope occupancy` as a user runs it: blocks per SM for each limit, compared with the
occupancy rules worked here in Python from the GPU's limits and the registers ptxas
recorded (sim/model/kernel_resources.json); bad values named with exit status 2.

Usage: occupancy_test.py TILESCOPE REPO_ROOT CHECK   (CHECK: one of the functions in CHECKS)
Prints PASS, or FAIL: with the reason.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from verdict import expect, fail  # noqa: E402

TILESCOPE, ROOT = sys.argv[1], sys.argv[2]
KIB = 1024
# The programming guide's per-SM limits: threads, blocks, shared memory KiB, reserved, unit, arch.
GPUS = {
    "t4": (1024, 16, 64, 0, 256, "sm_75"),
    "a100": (2048, 32, 164, KIB, 128, "sm_80"),
    "rtx4090": (1536, 24, 100, KIB, 128, "sm_89"),
    "h100": (2048, 32, 228, KIB, 128, "sm_90"),
}


def run(*args, status=0):
    done = subprocess.run([TILESCOPE, "occupancy", *args], capture_output=True, text=True, timeout=60)
    if done.returncode != status:
        fail(f"occupancy {' '.join(args)}: exit {done.returncode}, expected {status}\n{done.stdout}{done.stderr}")
    return done


def round_up(value, unit):
    return (value + unit - 1) // unit * unit


def expected(gpu, threads, shared, registers):
    """Blocks per SM by each limit, by the calculator's rules."""
    max_threads, max_blocks, shared_kib, reserved, unit, _ = GPUS[gpu]
    warps = (threads + 31) // 32
    per_warp = round_up(registers * 32, 256)
    by = {
        "threads": max_threads // threads,
        "warps": max_threads // 32 // warps,
        "blocks": max_blocks,
        "registers": (65536 // 4 // per_warp) * 4 // warps,
    }
    if shared:
        by["shared memory"] = shared_kib * KIB // round_up(shared + reserved, unit)
    return by


def recorded(name, gpu):
    with open(os.path.join(ROOT, "sim", "model", "kernel_resources.json")) as file:
        return json.load(file)["kernels"][name]["registers"][GPUS[gpu][5]]


def check_every_tile_and_gpu():
    for tile in (2, 8, 16, 32):
        for gpu in GPUS:
            out = json.loads(run("--tile", str(tile), "--gpu", gpu, "--json").stdout)
            row = out["gpus"][0]
            threads, shared = tile * tile, 2 * tile * tile * 4
            by = expected(gpu, threads, shared, recorded(f"tiled{tile}", gpu))
            where = f"TILE {tile} on {gpu}"
            expect(row["threads_per_block"] == threads, where + ": threads")
            expect(row["warps_per_block"] == (threads + 31) // 32, where + ": warps")
            expect(row["shared_bytes_per_block"] == shared, where + ": shared bytes")
            for resource, blocks in by.items():
                expect(row["limits"][resource]["blocks"] == blocks,
                       f"{where}: {resource} allows {row['limits'][resource]['blocks']}, expected {blocks}")
            expect(row["blocks_per_sm"] == min(by.values()), where + ": blocks per SM")
            expect(set(row["limiting"]) == {r for r, b in by.items() if b == min(by.values())}, where + ": limiting")


def check_text_names_the_limit():
    out = run("--tile", "2", "--gpu", "h100").stdout
    expect("one warp, 4 live lanes of 32 (28 idle)" in out, "TILE 2's warp fill:\n" + out)
    expect("limited by blocks" in out, "TILE 2 on the H100 is limited by the block slots:\n" + out)
    expect("2048 threads / 4 = 512" in out, "the threads limit's arithmetic:\n" + out)


def check_rect_and_naive():
    rect = json.loads(run("--kernel", "rect", "--tm", "32", "--tn", "16", "--tk", "16", "--gpu", "h100", "--json").stdout)
    row = rect["gpus"][0]
    expect(row["threads_per_block"] == 32 * 16 and row["shared_bytes_per_block"] == 4 * (32 * 16 + 16 * 16), "rect block")
    by = expected("h100", 512, 3072, recorded("rect32x16x16", "h100"))
    expect(row["blocks_per_sm"] == min(by.values()), f"rect blocks per SM {row['blocks_per_sm']}")
    naive = json.loads(run("--kernel", "naive", "--tile", "16", "--gpu", "a100", "--json").stdout)["gpus"][0]
    expect(naive["limits"]["shared memory"]["blocks"] is None, "the naive kernel has no shared memory limit")
    expect(naive["blocks_per_sm"] == 2048 // 256, "naive 16×16 on the A100")


def check_every_gpu_listed():
    out = json.loads(run("--tile", "16", "--json").stdout)
    keys = [row["gpu"] for row in out["gpus"]]
    expect(keys[:4] == ["t4", "a100", "rtx4090", "h100"], f"classroom GPUs in order: {keys}")
    expect(len(keys) == 5 or "present_gpu" in out, "the present GPU, or why there is none")


def check_bad_values():
    done = run("--gpu", "v100", status=2)
    expect("--gpu v100" in done.stderr and "h100" in done.stderr, "names the bad GPU and the choices: " + done.stderr)
    done = run("--tile", "64", status=2)
    expect("4096 threads" in done.stderr, "a block too large is named: " + done.stderr)
    done = run("--tile", "abc", status=2)
    expect("--tile" in done.stderr, "a bad tile is named: " + done.stderr)


def check_present():
    done = subprocess.run([TILESCOPE, "occupancy", "--gpu", "present"], capture_output=True, text=True, timeout=60)
    if done.returncode == 3:
        expect("no GPU here" in done.stderr, "says why there is no GPU: " + done.stderr)
    else:
        expect(done.returncode == 0 and "cudaFuncGetAttributes" in done.stdout, "the present GPU's registers:\n" + done.stdout)


CHECKS = {name[len("check_"):]: fn for name, fn in globals().items() if name.startswith("check_")}

if __name__ == "__main__":
    CHECKS[sys.argv[3]]()
    print("PASS")
