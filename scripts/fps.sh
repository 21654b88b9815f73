#!/usr/bin/env bash
# Frame rate of the lesson window (issue 6's targets: the default lesson ≥ 60 fps and a
# 64×64×64 lesson ≥ 30 fps at 1920×1080; issue 14's: ≥ 30 fps at 512³ while the whole-run pass
# and the comparison count run on their workers, which a 512³ lesson starts at its first frame),
# with --bench-frames: one step per frame, vsync off, in a real window under Xvfb (Mesa
# llvmpipe where there is no GPU), clean settings. Each line also gives the CPU the window's
# thread took a frame, which depends much less on what else the cores run.
# Usage: scripts/fps.sh [BUILD_DIR] [FRAMES]   (default: build 600)
set -euo pipefail
cd "$(dirname "$0")/.."
app=${1:-build}/tilescope
frames=${2:-600}
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT

measure() {  # LABEL [ARGS...]
  local label=$1; shift
  rm -rf "${config:?}"/*
  printf '%-26s ' "$label:"
  XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$app" --width 1920 --height 1080 --bench-frames "$frames" "$@" 2>&1 | sed -n 's/^bench-frames: //p'
}

measure "default lesson (4x4x4)" --lesson default
measure "64x64x64, TILE 16" --actions "lesson-set m=64 n=64 k=64 tile=16"
measure "512x512x512, TILE 16" --actions "lesson-set m=512 n=512 k=512 tile=16"
