#!/usr/bin/env bash
# Nsight Compute's figures for the tensor-core rungs and the cuBLAS rows they race, at one
# square size: how busy the tensor pipes were, shared-memory bank conflicts, and the bytes
# from DRAM and through L2. For a machine with an NVIDIA GPU and ncu (a lent H100 or H200);
# BUILD holds tilescope and libtilescope_gpu.so.
#
#   scripts/tensor-counters.sh BUILD [SIZE] [KERNELS]   SIZE defaults to 4096; KERNELS to the
#                                                       tensor rungs and the three cuBLAS rows
#
# One launch each (`bench --reps 1 --warmups 0`); only the kernel under test is profiled: a
# rung's *_matmul kernel, or for a cuBLAS row the second of cuBLAS's kernels (named *gemm*, or
# nvjet* for its Hopper BF16 GEMM), after the runner's SGEMM reference. Not profiled: the
# cuBLAS row of the same precision the runner times beside a rung, the fills, copies, checks.
# The columns, where this ncu knows the metric (else "-"):
#   time us          gpu__time_duration.sum
#   tensor %         sm__pipe_tensor_cycles_active (every tensor instruction), else
#                    sm__pipe_tensor_op_gmma_cycles_active (wgmma), else
#                    sm__pipe_tensor_op_hmma_cycles_active (mma.sync): % of peak, active SMs
#   smem conflicts   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld + _op_st: extra
#                    passes of shared loads and stores by threads (TMA and wgmma bypass this pipe)
#   L2 MB            lts__t_bytes.sum: every byte through L2, reads and writes, all clients
#   DRAM rd MB, wr MB  dram__bytes_read.sum, dram__bytes_write.sum
set -uo pipefail
build=${1:?usage: scripts/tensor-counters.sh BUILD [SIZE] [KERNELS]}
size=${2:-4096}
kernels=${3:-mma_tf32,wgmma_tf32,cublas_tf32,wgmma_bf16,warp_specialized,staged_epilogue,cublas_bf16}
app="$build/tilescope"
wanted=(gpu__time_duration.sum sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
  sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
  sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  lts__t_bytes.sum dram__bytes_read.sum dram__bytes_write.sum)
# Only the metrics this ncu and GPU know: an unknown one fails the whole run.
known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
metrics=""
for metric in "${wanted[@]}"; do
  if grep -qx "${metric%%.*}" <<<"$known"; then metrics="$metrics${metrics:+,}$metric"; fi
done
[ -n "$metrics" ] || { echo "ncu knows none of the metrics" >&2; exit 1; }
echo "metrics: $metrics"
printf '%-20s %9s %9s %15s %10s %10s %10s\n' kernel "time us" "tensor %" "smem conflicts" "L2 MB" "DRAM rd MB" "DRAM wr MB"
status=0
for name in ${kernels//,/ }; do
  only=(-k regex:'_matmul$')
  case $name in cublas_*) only=(-k regex:'gemm|nvjet' --launch-skip 1 --launch-count 1) ;; esac
  raw=$(ncu --clock-control none --csv --print-units base --metrics "$metrics" "${only[@]}" \
    "$app" bench --kernels "$name" --sizes "$size" --reps 1 --warmups 0 2>/dev/null) || { status=1; continue; }
  echo "$raw" | awk -F'","' -v name="$name" '
    NF > 10 && $1 != "\"ID" { gsub(/"/, "", $NF); gsub(/,/, "", $NF); v[$(NF-2)] += $NF; n[$(NF-2)]++ }
    function Get(m, scale) { return (m in v) ? sprintf("%.1f", v[m] / scale) : "-" }
    function Mean(m) { return (m in v) ? sprintf("%.1f", v[m] / n[m]) : "-" }
    END {
      tensor = Mean("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active")
      if (tensor == "-") tensor = Mean("sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active")
      if (tensor == "-" || tensor == "0.0") tensor = Mean("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active")
      conflicts = "-"
      if ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" in v)
        conflicts = sprintf("%d", v["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] + v["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"])
      printf "%-20s %9s %9s %15s %10s %10s %10s\n", name, Get("gpu__time_duration.sum", 1000), tensor, conflicts,
        Get("lts__t_bytes.sum", 1e6), Get("dram__bytes_read.sum", 1e6), Get("dram__bytes_write.sum", 1e6) }'
done
exit $status
