#!/usr/bin/env bash
# The GPU screenshots under docs/screenshots/ (docs/results/README.md shows them), made on a
# machine with an NVIDIA GPU and a display whose GL context is the GPU's
# (shared/gpu-gui/start-display.sh sets that up on a headless server):
#   live-h100.png + live-h100.json  the live GPU panel after a sweep run from the GUI's own
#                                   --actions (naive, tiled 8/16/32, cuBLAS FP32 and TF32,
#                                   256..8192), and that run's results as saved by the panel;
#                                   the frames the window drew during the sweep are printed
#   race-lab-h100.png               the TILE 16 race lesson (first barrier removed) run to
#                                   its end on the model, and the race lab's GPU run of it
#                                   at the lesson's size and 1024²
#   race-lab-h100.json              what the panels showed then (--dump-state)
#   about-h100.png                  the About box: OpenGL renderer, CUDA runtime and driver
#   ladder-h100.png + .json         the ladder view after a sweep of every FP32 rung at 4096 run
#                                   from the GUI (naive, tiled 32, rungs 04-12, cuBLAS FP32)
#   roofline-h100.png               the same run as a roofline
# and the frame rate of the default lesson on that GPU (--bench-frames).
# Usage: scripts/device-screenshots.sh BUILD OUT   (TILESCOPE_FONT_DIR: DejaVu, if not installed)
# Run it before scripts/device-check.sh, or on a fresh machine: after the GPU tests' injected
# faults, NVIDIA's GL driver was seen to stall the live sweep and abort (docs/results/README.md).
set -uo pipefail
cd "$(dirname "$0")/.."
app=${1:?usage: scripts/device-screenshots.sh BUILD OUT}/tilescope
out=${2:?usage: scripts/device-screenshots.sh BUILD OUT}
mkdir -p "$out"
config=$(mktemp -d)
status=0

shoot() {  # NAME [ARGS...]: a clean settings folder each time
  local name=$1; shift
  rm -rf "${config:?}"/*
  XDG_CONFIG_HOME=$config "$app" --width 1920 --height 1080 --frames 30 --screenshot "$out/$name.png" "$@" ||
    { echo "$name: the app failed"; status=1; }
}

sweep="page-live; live-kernels naive,tiled8,tiled16,tiled32,cublas_fp32,cublas_tf32; live-sizes 256:8192"
sweep+="; live-reps 10; live-run $out/live-h100.json"
shoot live-h100 --dump-state "$config-live.json" --actions "$sweep"
python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["live"]["sweep_frames"]
print("during the sweep the window drew %d frames in %.1f s (%.0f frames/s), the longest %.1f ms"
      % (f["frames"], f["seconds"], f["frames"] / max(f["seconds"], 1e-9), f["longest_frame_ms"]))' "$config-live.json"

shoot race-lab-h100 --lesson race_tile16 --dump-state "$out/race-lab-h100.json" \
  --actions "run-to-end; race-gpu-size 1024; race-trials 3; race-gpu-run"

shoot about-h100 --lesson default --actions "about"

# The kernel ladder at 4096 measured from the GUI, every rung beside cuBLAS, then its roofline.
rungs="blocktile_1d,blocktile_2d,vectorized,conflict_free,warptile,double_buffered,async_copy,register_tile,all_async"
shoot ladder-h100 --actions "page-live; live-kernels naive,tiled32,$rungs,cublas_fp32; live-sizes 4096; live-reps 10; live-run $out/ladder-h100.json; live-view ladder"
shoot roofline-h100 --actions "page-live; live-load $out/ladder-h100.json; live-view roofline; live-ladder-size 4096"

rm -rf "${config:?}"/*
XDG_CONFIG_HOME=$config "$app" --width 1920 --height 1080 --lesson default --bench-frames 1000 | grep '^bench-frames'
rm -rf "$config" "$config-live.json"
exit $status
