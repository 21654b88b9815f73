#!/usr/bin/env bash
# The ladder's timing sweep on a lent GPU, with its checks: the GPU tests that verify every
# rung against cuBLAS (1, 37×29×53, 1000³, 4096³, 4096×1024×2048), then `tilescope bench`
# of KERNELS beside cuBLAS FP32 in one run, and each ladder kernel's instruction mix.
#
#   scripts/ladder-sweep.sh BUILD OUT KERNELS [SIZES] [REPS]
#
# BUILD as for scripts/device-check.sh (bundled); SIZES defaults to 1024,2048,4096,8192,
# REPS (timed launches per point, the median is reported) to 20. Writes OUT/sweep.json,
# OUT/sweep.csv, OUT/gpu_tests.log and OUT/sass-mix.txt; prints the table last.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/ladder-sweep.sh BUILD OUT KERNELS [SIZES] [REPS]}
out=${2:?usage: scripts/ladder-sweep.sh BUILD OUT KERNELS [SIZES] [REPS]}
kernels=${3:?usage: scripts/ladder-sweep.sh BUILD OUT KERNELS [SIZES] [REPS]}
sizes=${4:-1024,2048,4096,8192}
reps=${5:-20}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$build/runtime-libs:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="$PATH:/usr/local/cuda/bin"
status=0

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader

# The opcode mix of every ladder kernel's SASS: FFMA against everything else it issues.
cuobjdump -sass "$build/libtilescope_gpu.so" 2>/dev/null | awk '
  /Function :/ { name = $3 }
  /^ +\/\*[0-9a-f]+\*\/ / && name ~ /(double_buffered|async_copy|register_tile|all_async|stream_k)/ {
    line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
    split(line, word, /[ .;]/); count[name] ++; if (word[1] == "FFMA") ffma[name]++
    else if (word[1] ~ /^LDS/) lds[name]++; else if (word[1] ~ /^LDGSTS/) copies[name]++ }
  END { for (n in count) printf "%6d instr %6d FFMA %4d LDS %4d LDGSTS  %s\n", count[n], ffma[n], lds[n], copies[n], n }' |
  sort -k9 >"$out/sass-mix.txt"
cat "$out/sass-mix.txt"

"$build/kernels_gpu_tests" --gtest_filter='Gpu.Every*:Gpu.RegisterTile*' >"$out/gpu_tests.log" 2>&1 || status=1
grep -E '^\[  (PASSED|FAILED) |Failure|Expected|Which is' "$out/gpu_tests.log" | head -20

"$build/tilescope" bench --kernels "$kernels,cublas_fp32" --sizes "$sizes" --reps "$reps" \
  --json "$out/sweep.json" --csv "$out/sweep.csv" >"$out/sweep.txt" 2>&1 || status=1
cat "$out/sweep.txt"
exit $status
