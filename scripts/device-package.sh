#!/usr/bin/env bash
# The Debian package on a GPU machine, as a lab PC would run it: unpacks DEB into a
# throw-away root and, from an empty folder with no build tree in reach, runs the installed
# tilescope's --version, a bench of the teaching kernels and the best ladder rung beside
# cuBLAS (every C verified), and the GUI: the Live GPU page after a sweep started from its
# own --actions, and the About box.
#
#   scripts/device-package.sh DEB OUT
#
# The machine needs the NVIDIA driver, the CUDA 13 runtime and cuBLAS (the package depends
# on none of them), the package's own Depends (GLFW, stb; DejaVu is optional: set
# TILESCOPE_FONT_DIR where it is not installed) and a display: on a headless server source
# shared/gpu-gui/start-display.sh first. Writes OUT/version.txt, OUT/bench.txt, OUT/live.json,
# OUT/package-live.png and OUT/package-about.png.
set -uo pipefail
deb=$(realpath "${1:?usage: scripts/device-package.sh DEB OUT}")
out=$(realpath "${2:?usage: scripts/device-package.sh DEB OUT}")
mkdir -p "$out"
root=$(mktemp -d)
work=$(mktemp -d)
config=$(mktemp -d)
status=0
dpkg -x "$deb" "$root"
app=$root/usr/bin/tilescope
cd "$work" || exit 1
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"

"$app" --version | tee "$out/version.txt" || status=1
grep -q "$root/usr/share/tilescope" "$out/version.txt" ||
  { echo "device-package: --version does not name the installed assets folder"; status=1; }

"$app" bench --kernels tiled16,tiled32,register_tile,cublas_fp32 --sizes 1024,4096 --reps 10 \
  2>&1 | tee "$out/bench.txt"
[ "${PIPESTATUS[0]}" = 0 ] || status=1

shoot() {  # NAME [ARGS...]: a clean settings folder each time
  local name=$1; shift
  rm -rf "${config:?}"/*
  XDG_CONFIG_HOME=$config "$app" --width 1920 --height 1080 --frames 30 --screenshot "$out/$name.png" "$@" ||
    { echo "device-package: $name failed"; status=1; }
}
shoot package-live --actions "page-live; live-kernels naive,tiled16,tiled32,register_tile,cublas_fp32; live-sizes 256:4096; live-reps 5; live-run $out/live.json"
shoot package-about --lesson default --actions "about"
ls "$work"  # an installed app run from here leaves nothing behind in the working folder
exit $status
