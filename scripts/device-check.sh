#!/usr/bin/env bash
# The GPU half of TileScope's checks, for a machine with an NVIDIA GPU but no build tools
# or desktop libraries (e.g. a lent H100 server).
#
#   scripts/device-check.sh bundle BUILD   here: copy the shared libraries build/tilescope
#                                          needs beyond glibc and CUDA (GLFW, X11, stb…) into
#                                          BUILD/runtime-libs, so BUILD can travel alone
#   scripts/device-check.sh run BUILD OUT  there: GPU tests, the bench table, the default
#                                          sweep's wall time and the race counts; logs,
#                                          CSV and JSON under OUT, the tables on stdout
#
# Build BUILD for the server's architecture only (sm_90 for an H100) so it stays small:
#   cmake -S . -B build-gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 && ninja -C build-gpu \
#     tilescope tilescope_gpu kernels_tests kernels_gpu_tests
set -uo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
build=${2:-}
if [ -z "$build" ] || { [ "$mode" != bundle ] && [ "$mode" != run ]; }; then
  echo "usage: scripts/device-check.sh bundle BUILD | run BUILD OUT" >&2
  exit 2
fi

if [ "$mode" = bundle ]; then
  mkdir -p "$build/runtime-libs"
  # Everything ldd resolves except the C runtime and CUDA, which the server has.
  ldd "$build/tilescope" | awk '/=> \//{print $3}' |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas)[.-]' |
    xargs -r cp -L -t "$build/runtime-libs"
  ls "$build/runtime-libs"
  exit 0
fi

out=${3:-}
if [ -z "$out" ]; then
  echo "usage: scripts/device-check.sh run BUILD OUT" >&2
  exit 2
fi
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$build/runtime-libs:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
tilescope="$build/tilescope"
status=0

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.used,memory.total --format=csv |
  tee "$out/nvidia-smi.txt"

echo "== kernels tests (CPU side)"
"$build/kernels_tests" --gtest_brief=1 >"$out/kernels_tests.log" 2>&1 || status=1
tail -n 3 "$out/kernels_tests.log"

echo "== kernels GPU tests"
"$build/kernels_gpu_tests" >"$out/kernels_gpu_tests.log" 2>&1 || status=1
grep -E '^(\[  (PASSED|FAILED|SKIPPED) |stopped|NVIDIA|tiled|.*Failure)' "$out/kernels_gpu_tests.log"

echo "== bench: naive, tiled 8/16/32, cuBLAS FP32 and TF32 at 256..8192"
"$tilescope" bench --kernels naive,tiled8,tiled16,tiled32,cublas_fp32,cublas_tf32 --sizes 256:8192 \
  --csv "$out/bench.csv" --json "$out/bench.json" | tee "$out/bench.txt" || status=1

echo "== the default sweep (registry defaults x 256..8192): wall time"
start=$(date +%s%N)
"$tilescope" bench >"$out/default_sweep.txt" || status=1
echo "default sweep: $(( ($(date +%s%N) - start) / 1000000 )) ms, $(grep -c ' yes$' "$out/default_sweep.txt") verified rows"

echo "== race run: 1024^2, 3 trials, every tile with variants"
"$tilescope" bench --race --sizes 1024 --trials 3 | tee "$out/race.txt" || status=1

exit $status
