#!/usr/bin/env bash
# The GPU half of TileScope's checks, for a machine with an NVIDIA GPU, CUDA and ctest but
# no desktop libraries (e.g. a lent H100 server).
#
#   scripts/device-check.sh bundle BUILD   here: copy the shared libraries build/tilescope
#                                          needs beyond glibc and CUDA (GLFW, X11, stb…) into
#                                          BUILD/runtime-libs, so BUILD can travel alone
#   scripts/device-check.sh run BUILD OUT  there: GPU tests (ctest -L gpu: GoogleTest and
#                                          racecheck against the model), the verify CLI
#                                          tests, the model check, the bench table, the
#                                          default sweep's wall time and the race counts;
#                                          logs, CSV and JSON under OUT, tables on stdout
#
# Build BUILD for the server's architecture only (sm_90 for an H100) so it stays small:
#   cmake -S . -B build-gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 && ninja -C build-gpu \
#     tilescope tilescope_gpu tilescope_gpu_worker kernels_tests kernels_gpu_tests model_hazards write_test_vectors
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
export PATH="$PATH:/usr/local/cuda/bin"
tilescope="$build/tilescope"
status=0

# CTest files name the source and build folders by absolute path: where this checkout
# sits elsewhere on the server, point the configured source path at it.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$source_dir" ] && [ ! -e "$source_dir" ]; then
  mkdir -p "$(dirname "$source_dir")" && ln -s "$PWD" "$source_dir"
fi

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.used,memory.total --format=csv |
  tee "$out/nvidia-smi.txt"

echo "== kernels tests (CPU side)"
"$build/kernels_tests" --gtest_brief=1 >"$out/kernels_tests.log" 2>&1 || status=1
tail -n 3 "$out/kernels_tests.log"

echo "== GPU tests: ctest -L gpu (the GoogleTest GPU suite; racecheck runs last)"
ctest --test-dir "$build" -L gpu -E racecheck -V >"$out/ctest_gpu.log" 2>&1 || status=1
grep -E '^ *[0-9]+/[0-9]+ Test|tests passed|tests failed' "$out/ctest_gpu.log"
echo "-- GoogleTest output worth reading (timings, counts)"
grep -E '(stopped .* after Cancel|NVIDIA|^[0-9]+: tiled[0-9_a-z]+ +[0-9]+ [0-9]+ of|Failure)' "$out/ctest_gpu.log" |
  sed 's/^[0-9]*: //'

echo "== CLI tests: verify on the model and the GPU, bench and verify without a GPU"
ctest --test-dir "$build" -R '^cli\.(verify|bench)' >"$out/ctest_cli.log" 2>&1 || status=1
grep -E 'Test +#|tests passed|tests failed' "$out/ctest_cli.log"
"$tilescope" verify "$build/tests/kernels/vectors/good.bin"

echo "== model check: the GPU's C against the model's, bit for bit, at small sizes"
"$tilescope" bench --kernels naive,tiled2,tiled16,tiled32,rect32x16x16,tiled2_nosync12,tiled16_nosync1,tiled16_unguarded,tiled16_bank_conflict,tiled32_bank_conflict \
  --sizes 4,37x29x53,128 --reps 3

echo "== occupancy: the model with the device's limits and registers, TILE 2, 8, 16, 32"
for tile in 2 8 16 32; do "$tilescope" occupancy --tile "$tile" --gpu present; done | tee "$out/occupancy.txt"

echo "== bench: naive, tiled 8/16/32, cuBLAS FP32 and TF32 at 256..8192"
"$tilescope" bench --kernels naive,tiled8,tiled16,tiled32,cublas_fp32,cublas_tf32 --sizes 256:8192 \
  --csv "$out/bench.csv" --json "$out/bench.json" | tee "$out/bench.txt" || status=1

echo "== the default sweep (registry defaults x 256..8192): wall time"
start=$(date +%s%N)
"$tilescope" bench >"$out/default_sweep.txt" || status=1
echo "default sweep: $(( ($(date +%s%N) - start) / 1000000 )) ms for $(grep -c ' yes$' "$out/default_sweep.txt") verified rows"

echo "== race run: the lesson's size (4) and 1024^2, 5 trials, every tile with variants"
"$tilescope" bench --race --tiles 2,4,8,16,32 --sizes 4,1024 --trials 5 | tee "$out/race.txt" || status=1

echo "== racecheck against the model: ctest -L gpu -R racecheck"
RACECHECK_LOG_DIR="$out/racecheck" ctest --test-dir "$build" -L gpu -R racecheck -V >"$out/ctest_racecheck.log" 2>&1 ||
  status=1
grep -E '^ *[0-9]+/[0-9]+ Test|tests passed|tests failed' "$out/ctest_racecheck.log"
sed -n 's/^[0-9]*: //; /^\(compute-sanitizer\|SKIPPED\)/,/^\(PASS\|FAIL\|SKIPPED\)/p' "$out/ctest_racecheck.log"

exit $status
