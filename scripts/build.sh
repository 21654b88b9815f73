#!/usr/bin/env bash
# TileScope's entry points on a fresh Debian 12 machine (README.md):
#   scripts/build.sh gui      install what is missing, build (Release), open the default lesson
#   scripts/build.sh test     install what is missing, build, run every test through CTest
#   scripts/build.sh package  install what is missing, build the Debian package for lab PCs
# The GPU runner is built when nvcc is found (/usr/local/cuda); the no-CUDA build is always
# built and tested too, as a classroom PC without CUDA would run it.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  gui|test|package) ;;
  *) echo "usage: scripts/build.sh gui|test|package" >&2; exit 2 ;;
esac

bash scripts/setup.sh
jobs=$(nproc)

configure_and_build() {  # DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

if [ "$mode" = gui ]; then
  configure_and_build build
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

start=$(date +%s)
configure_and_build build
configure_and_build build-nocuda -DTILESCOPE_WITH_CUDA=OFF
status=0
# The no-CUDA run selects by label: a test labelled neither nocuda nor gpu would silently
# never run there (a list-valued label once dropped every model test that way).
unlabelled=$(ctest --test-dir build-nocuda -N -LE 'nocuda|gpu' | sed -n 's/^Total Tests: //p')
if [ "$unlabelled" != 0 ]; then
  echo "scripts/build.sh test: $unlabelled tests are labelled neither nocuda nor gpu" >&2
  ctest --test-dir build-nocuda -N -LE 'nocuda|gpu' >&2
  status=1
fi
ctest --test-dir build -j "$jobs" --output-on-failure || status=1
ctest --test-dir build-nocuda -j "$jobs" --output-on-failure -L nocuda || status=1
echo "scripts/build.sh test: $(( $(date +%s) - start )) s"
exit $status
