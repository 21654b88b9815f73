#!/usr/bin/env bash
# Nsight Compute's counts of each ladder rung's loads, beside what the rung's header
# formulas predict, at one square size; and the FP32 (FMA) pipe's use. For a machine with
# an NVIDIA GPU and ncu (a lent H100); BUILD holds tilescope and libtilescope_gpu.so.
#
#   scripts/ladder-counters.sh BUILD [SIZE]     SIZE defaults to 1024
#
# Per rung, one launch at SIZE³ (the runner's cuBLAS reference and its checks are not
# profiled: only kernels named *_matmul). Columns:
#   global sectors     l1tex__t_sectors_pipe_lsu_mem_global_op_ld + …_op_ldgsts: 32-byte
#                      sectors loaded into registers, plus those cp.async copies (B from 10
#                      on, A in 12)
#   formula            SIZE³·(1/BM + 1/BN) floats · 4 B / 32 B (each block loads its A and
#                      B tiles once per K-slice; a split of K the same split S ways). 11, 12 run
#                      10's 128×128 tile where its own grid is small (1024²): pass SIZE 4096
#   shared ld instr    smsp__inst_executed_op_shared_ld: warp-level shared load instructions
#   formula            SIZE³/32 · (TM + TN)/(TM·TN)/W, W floats per load: 1 for 04 and 05
#                      (scalar loads in the source), 4 for 06 on (float4); 04 has TN = 1
#   wavefronts         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld: shared-memory passes
#   conflicts          l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld
#   fma pipe %         sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
#   issue %            smsp__issue_active.avg.pct_of_peak_sustained_active
# The rungs and their tiles come from `tilescope bench --list`, the table itself.
set -uo pipefail
build=${1:?usage: scripts/ladder-counters.sh BUILD [SIZE]}
size=${2:-1024}
app="$build/tilescope"
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,smsp__inst_executed_op_shared_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active

# name BM BN TM TN for each ladder row: "block tile 128×128×8 · 8×8 per thread".
rows=$("$app" bench --list | sed -n 's/^\([a-z0-9_]*\) .*block tile \([0-9]*\)×\([0-9]*\)×[0-9]* · \([0-9]*\)×\([0-9]*\) per thread.*/\1 \2 \3 \4 \5/p')
[ -n "$rows" ] || { echo "no ladder rows in '$app bench --list'" >&2; exit 1; }

printf '%-16s %14s %14s %14s %14s %14s %10s %7s %7s\n' rung "global sectors" formula "shared ld" formula \
  wavefronts conflicts "fma %" "issue %"
status=0
while read -r name bm bn tm tn; do
  width=4
  case $name in blocktile_1d | blocktile_2d) width=1 ;; esac
  raw=$(ncu --clock-control none --csv --metrics "$metrics" -k regex:'_matmul$' \
    "$app" bench --kernels "$name" --sizes "$size" --reps 1 --warmups 0 2>/dev/null) || { status=1; continue; }
  # Sum each metric over the profiled launches.
  read -r sectors shared waves conflicts fma issue < <(echo "$raw" | awk -F'","' '
    NF > 10 && $1 != "\"ID" { gsub(/"/, "", $NF); gsub(/,/, "", $NF); v[$(NF-2)] += $NF; n[$(NF-2)]++ }
    END { printf "%d %d %d %d %.1f %.1f\n",
      v["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] + v["l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"],
      v["smsp__inst_executed_op_shared_ld.sum"],
      v["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"],
      v["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"],
      Mean("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
      Mean("smsp__issue_active.avg.pct_of_peak_sustained_active") }
    function Mean(name) { return n[name] ? v[name] / n[name] : 0 }')
  sector_formula=$(awk -v n="$size" -v bm="$bm" -v bn="$bn" 'BEGIN { printf "%d", n^3 * (1/bm + 1/bn) * 4 / 32 }')
  shared_formula=$(awk -v n="$size" -v tm="$tm" -v tn="$tn" -v w="$width" \
    'BEGIN { printf "%d", n^3 / 32 * (tm + tn) / (tm * tn) / w }')
  printf '%-16s %14s %14s %14s %14s %14s %10s %7s %7s\n' "$name" "$sectors" "$sector_formula" "$shared" \
    "$shared_formula" "$waves" "$conflicts" "$fma" "$issue"
done <<<"$rows"
exit $status
