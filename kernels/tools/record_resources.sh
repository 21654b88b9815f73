#!/bin/sh
# record_resources.sh NVCC SOURCE_DIR OUT TOOL CUDA_VERSION ARCH... — compiles the kernels
# with ptxas's resource report for each architecture and writes the occupancy view's table
# of registers and static shared memory per teaching kernel (kernel_resources.cpp) to OUT.
set -eu
nvcc=$1 source_dir=$2 out=$3 tool=$4 version=$5
shift 5
gencodes=""
for arch in "$@"; do gencodes="$gencodes -gencode arch=compute_$arch,code=sm_$arch"; done
report="$out.ptxas.txt"
# shellcheck disable=SC2086 # one word per flag
"$nvcc" -std=c++17 -c $gencodes -Xptxas -v -I"$source_dir" "$source_dir/kernels/gpu/launchers.cu" -o "$out.o" \
  >"$report" 2>&1
c++filt <"$report" | "$tool" "$version" >"$out.tmp"
mv "$out.tmp" "$out"
rm -f "$out.o"
