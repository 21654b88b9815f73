#!/usr/bin/env bash
# Regenerates the screenshots under docs/screenshots/ (README and docs/ show them) with the
# app's own --screenshot, in a real window under Xvfb (Mesa llvmpipe), from a clean settings
# folder, after 40 frames (a tour's stop lays its panels out, and a presentation panel shrinks
# text that does not fit, over the frames after it opens):
#   window.png        what README's first command opens: lesson 1 (default) at its tour's first stop
#   tour-stop9-*      lesson 1's tour at a key stop (naive against tiled reads, beside the 4×4
#                     walkthrough exercise's claim), its question answered wrong with the
#                     exercise's figure so the reveal shows; normal and presentation, at
#                     1920x1080 and 1366x768
#   tour-LESSON-stopN-1366x768
#                     a key stop of each other lesson of the curriculum (two_barriers also in
#                     presentation mode)
#   lesson-mid-phase  the default lesson inside phase 1: tiles loaded, the first barrier
#                     passed, inner products done up to the second barrier
#   lesson-end        the default lesson at its end
#   presentation      mid-phase 1 in presentation mode (large fonts, high contrast)
#   presentation-1366x768, presentation-1366x768-end
#                     presentation mode on a 1366x768 laptop or projector, mid-phase 1 and at the end
#   padded-6x5x7      M = 6, N = 5, K = 7 with TILE 4, in its tail phase: zero padding
#   race-lab          the first barrier off, the race-exposing scheduler, run to the end:
#                     RAW hazards (one warp: warnings) and wrong C cells
#   race-lab-1366x768 the same in presentation mode on a 1366x768 laptop or projector
#   live-loaded       the live GPU panel on a machine without a GPU, showing the H100 run
#                     saved in docs/screenshots/live-h100.json
#   live-ladder-h100-saved, live-roofline-h100-saved
#                     the ladder and roofline views of the saved H100 ladder sweep at 4096
#   live-ladder-tensor-h200-saved
#                     the ladder of the saved H200 sweep of the tensor-core rungs at 8192: each
#                     towards cuBLAS of its own precision
#   tensor-fragments-1366x768
#                     the Tensor cores page: the lanes of an mma m16n8k8 fragment, lane 5 picked
# The H100 screenshots (live-h100, race-lab-h100, about-h100) come from
# scripts/device-screenshots.sh on a GPU machine.
# Usage: scripts/screenshots.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
app=${1:-build}/tilescope
out=docs/screenshots
mkdir -p "$out"
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT

shoot() {  # NAME [ARGS...]
  local name=$1; shift
  local log
  if ! log=$(XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1920x1080x24" \
      "$app" --width "${WIDTH:-1920}" --height "${HEIGHT:-1080}" --frames 40 --screenshot "$out/$name.png" "$@" 2>&1); then
    echo "$log" >&2
    exit 1
  fi
  grep -E 'error|warning' <<<"$log" >&2 || true
  rm -rf "${config:?}"/*
  echo "wrote $out/$name.png"
}

shoot window --lesson default
# Lesson 1's tour at its stop 9 (--stop opens there; the questions before it do not hold it back).
answer="guide-answer 3"  # the exercise's 8×
for size in 1920x1080 1366x768; do
  WIDTH=${size%x*} HEIGHT=${size#*x} shoot "tour-stop9-$size" --lesson default --stop 9 --actions "$answer"
  WIDTH=${size%x*} HEIGHT=${size#*x} shoot "tour-stop9-presentation-$size" --lesson default --stop 9 --presentation \
    --actions "$answer"
done
# A key stop of each other lesson at 1366x768, the laptop size (--stop opens there). A choice
# whose list holds a source document's figure is answered with it, so the reveal shows the claim against
# the model's count; a number question is left open, as a student meets it.
WIDTH=1366 HEIGHT=768 shoot tour-two_barriers-stop5-1366x768 --lesson two_barriers --stop 5
WIDTH=1366 HEIGHT=768 shoot tour-two_barriers-stop5-presentation-1366x768 --lesson two_barriers --stop 5 --presentation
WIDTH=1366 HEIGHT=768 shoot tour-edges-stop4-1366x768 --lesson edges --stop 4
WIDTH=1366 HEIGHT=768 shoot tour-tile_size-stop2-1366x768 --lesson tile_size --stop 2 --actions "guide-answer 3"
WIDTH=1366 HEIGHT=768 shoot tour-rect_tiles-stop2-1366x768 --lesson rect_tiles --stop 2
WIDTH=1366 HEIGHT=768 shoot tour-banks-stop3-1366x768 --lesson banks --stop 3
WIDTH=1366 HEIGHT=768 shoot tour-cublas-stop3-1366x768 --lesson cublas --stop 3
# The whole window (every panel): leave the tour first, as G does.
# Stops start from events of the run (phase 1, a barrier release), then a few steps of inner products.
mid_phase="guide-leave; run-until phase 1; run-until release; step; step; step; step; select-thread 1 3"
shoot lesson-mid-phase --lesson default --actions "$mid_phase"
shoot lesson-end --lesson default --actions "guide-leave; run-to-end"
shoot presentation --lesson default --presentation --actions "$mid_phase"
WIDTH=1366 HEIGHT=768 shoot presentation-1366x768 --lesson default --presentation --actions "$mid_phase"
WIDTH=1366 HEIGHT=768 shoot presentation-1366x768-end --lesson default --presentation --actions "guide-leave; run-to-end"
shoot padded-6x5x7 --lesson padded_6x5x7 --actions "guide-leave; run-until phase 2; run-until release"
# The default lesson's whole numbers, so the wrong cells read as numbers at 1366x768 too.
race="guide-leave; lesson-set barrier1=off scheduler=race; run-to-end"
shoot race-lab --lesson default --actions "$race"
WIDTH=1366 HEIGHT=768 shoot race-lab-1366x768 --lesson default --presentation --actions "$race"
shoot live-loaded --actions "page-live; live-load $out/live-h100.json"
# The saved ladder sweep, named by its path in the repository (the File field shows it as given).
ladder=docs/results/h100-ladder-12-2026-11-25.json
shoot live-ladder-h100-saved --actions "page-live; live-load $ladder; live-view ladder; live-ladder-size 4096"
shoot live-roofline-h100-saved --actions "page-live; live-load $ladder; live-view roofline; live-ladder-size 4096"
shoot live-ladder-tensor-h200-saved --actions \
  "page-live; live-load docs/results/h200-tensor-rungs-2026-11-28.json; live-view ladder; live-ladder-size 8192"
WIDTH=1366 HEIGHT=768 shoot tensor-fragments-1366x768 --actions "page-tensor; tensor-lane 5"
