#!/usr/bin/env bash
# Stages what scripts/ladder-sweep.sh needs on a lent GPU into one folder that can travel
# alone: the app, the GPU module and its worker, the GPU tests, their bundled libraries and the script.
#
#   scripts/ladder-stage.sh BUILD DEST     BUILD bundled first (scripts/device-check.sh bundle)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/ladder-stage.sh BUILD DEST}
dest=${2:?usage: scripts/ladder-stage.sh BUILD DEST}
mkdir -p "$dest/build/runtime-libs" "$dest/scripts"
cp "$build/tilescope" "$build/libtilescope_gpu.so" "$build/tilescope-gpu-worker" "$build/kernels_gpu_tests" "$dest/build/"
cp "$build"/runtime-libs/* "$dest/build/runtime-libs/"
cp scripts/ladder-sweep.sh "$dest/scripts/"
du -sh "$dest"
