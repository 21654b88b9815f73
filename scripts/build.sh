#!/usr/bin/env bash
# TileScope's entry points on a fresh Debian 12 machine (README.md):
#   scripts/build.sh gui      install what is missing, build (Release), open the default lesson
#   scripts/build.sh test     install what is missing, build, run every test through CTest
#   scripts/build.sh package  install what is missing, build the Debian package for lab PCs
#   scripts/build.sh web      install what is missing, build the site (build-web/site) with
#                             Emscripten and serve it on http://localhost:8080/ (--no-serve: build only)
# The GPU runner is built when nvcc is found (/usr/local/cuda). `test` then builds and tests the
# CPU code a second time without CUDA, as a classroom PC without CUDA would run it, and that
# second build is the sanitized one (scripts/sanitize.sh: ASan + UBSan, zero reports); last it
# fuzzes every file reader, the one with the most code for FUZZ_SECONDS and each other for a
# share of it by the code it reaches (scripts/fuzz.sh; default 60, 0 skips it).
# Where Emscripten and Chromium are installed (scripts/setup.sh installs them), `test` also builds
# the site and runs its tests in headless Chromium (the CTest label `web`).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  gui|test|package) ;;
  web) case "${2:-}" in ''|--no-serve) ;; *) echo "usage: scripts/build.sh web [--no-serve]" >&2; exit 2 ;; esac ;;
  *) echo "usage: scripts/build.sh gui|test|package|web" >&2; exit 2 ;;
esac

bash scripts/setup.sh
jobs=$(nproc)
# ccache keys on paths relative to the checkout, and not on the folder itself (the sanitized and
# fuzz builds carry -g1, which would otherwise add it): a fresh clone elsewhere, as CI makes,
# reuses what an earlier build compiled instead of compiling all three builds cold.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true

configure_and_build() {  # DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

# The site: its own folder, configured through Emscripten's toolchain (emcmake); only the app's
# target, whose link writes build-web/site.
. scripts/web-tools.sh
web_tools_missing="the browser build needs emcmake, chromium and Dear ImGui's sources in $imgui_source_dir (scripts/setup.sh installs them)"
build_site() {  # [cmake args...]
  emcmake cmake -S . -B build-web -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_IMGUI_SOURCE_DIR="$imgui_source_dir" "$@" >/dev/null
  cmake --build build-web -j "$jobs" --target tilescope
}

if [ "$mode" = web ]; then
  web_tools_present || { echo "scripts/build.sh: $web_tools_missing" >&2; exit 1; }
  build_site
  [ "${2:-}" = --no-serve ] && exit 0
  exec python3 web/serve.py build-web/site 8080
fi

if [ "$mode" = gui ]; then
  # The GPU architectures CMakeLists.txt chooses for classrooms, whatever `test` left cached.
  configure_and_build build -UCMAKE_CUDA_ARCHITECTURES
  exec ./build/tilescope --lesson default
fi

if [ "$mode" = package ]; then
  # A folder of its own: Release with the GPU architecture list CMakeLists.txt chooses,
  # whatever build/ was configured with, and no tests to compile.
  configure_and_build build-package -DBUILD_TESTING=OFF
  (cd build-package && cpack)
  echo "scripts/build.sh package: $(ls -t "$PWD"/build-package/tilescope_*.deb | head -n 1)"
  exit 0
fi

# Each phase is reported by its wall time and its CPU time: on a machine shared with other work,
# the CPU time is what two idle cores would take.
children_cpu_to() {  # VAR: the CPU seconds (user + system) of this shell's finished children
  local file
  file=$(mktemp)
  # `times` in this shell: in a $(...) it would count that subshell's own children, none.
  times >"$file"
  printf -v "$1" '%s' "$(awk 'END { split($0, t, /[ms ]+/); print t[1] * 60 + t[2] + t[3] * 60 + t[4] }' "$file")"
  rm -f "$file"
}
phases=""
phase_wall=$(date +%s)
children_cpu_to phase_cpu  # setup.sh above is not a phase
end_phase() {  # NAME: appends the phase since the last call to $phases
  local now cpu
  now=$(date +%s)
  children_cpu_to cpu
  phases+="${phases:+, }$1 $(( now - phase_wall )) s ($(awk -v a="$cpu" -v b="$phase_cpu" 'BEGIN { printf "%.0f", a - b }') s CPU)"
  phase_wall=$now phase_cpu=$cpu
}
start=$(date +%s)
seconds=${FUZZ_SECONDS:-60}
case "$seconds" in
  ''|*[!0-9]*) echo "scripts/build.sh: FUZZ_SECONDS must be a whole number of seconds (0 skips fuzzing), not '$seconds'" >&2
               exit 2 ;;
esac
# The tests need the GPU module built for one architecture, not the classroom list's five
# (CMakeLists.txt; `gui` and `package` keep it): this machine's GPU where it has one, else the
# H100's, which compiles and loads as any would. The kernels' registers are still recorded for
# every classroom architecture (kernels/CMakeLists.txt), as their test needs.
if nvidia-smi -L >/dev/null 2>&1; then test_architectures=native; else test_architectures=90-real; fi
configure_and_build build -DCMAKE_CUDA_ARCHITECTURES="$test_architectures"
end_phase "build/ compile"
status=0
ctest --test-dir build -j "$jobs" --output-on-failure || status=1
end_phase "build/ tests"
if web_tools_present; then
  { build_site && ctest --test-dir build-web -L web --output-on-failure; } || status=1
  end_phase "build-web (the site and its browser test)"
else
  echo "scripts/build.sh test: skipping the browser tests (label web): $web_tools_missing"
fi
# The no-CUDA build with ASan and UBSan: every nocuda test a second time but those labelled
# "unsanitized", which the run above has just run, and of the GUI tests the 15 labelled
# ci_sanitized (SANITIZE_GUI=ci), which open every page and panel: 178 s of CPU under ASan
# against 381 s for all 23, the rest showing the same pages at other sizes and stops
# (tests/gui/CMakeLists.txt); scripts/sanitize.sh alone runs them all.
SANITIZE_GUI=ci JOBS=$jobs bash scripts/sanitize.sh build-nocuda || status=1
end_phase "build-nocuda (sanitized)"
if [ "$seconds" != 0 ]; then
  FUZZ_SECONDS=$seconds JOBS=$jobs bash scripts/fuzz.sh build-fuzz || status=1
  end_phase "build-fuzz"
fi
children_cpu_to total_cpu
echo "scripts/build.sh test: $(( $(date +%s) - start )) s, $total_cpu s of CPU (user + system) ($phases)"
exit $status
