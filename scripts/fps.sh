#!/usr/bin/env bash
# Frame rate of the lesson window (issue 6's targets: the default lesson ≥ 60 fps and a
# 64×64×64 lesson ≥ 30 fps at 1920×1080), with --bench-frames: one step per frame, vsync
# off, in a real window under Xvfb (Mesa llvmpipe where there is no GPU), clean settings.
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
