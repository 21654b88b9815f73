// 17_staged_epilogue.cu — C leaves through shared memory, in whole lines.
//
// What it teaches: in rung 15 a tile's last wgmma ends, then both consumer warpgroups store
// their 64×256 accumulators to C while the tensor cores have nothing to do (the producer
// already fills the ring with the next tile's slices, but no consumer is free to multiply
// them): docs/results/h200-tensor-2026-11-28-c.txt times rung 15 without them. Stored
// straight from the wgmma fragment, a lane holds two neighbouring columns of two rows, so one
// store instruction of a warp puts 8 bytes a lane into 8 rows: 8 pieces of 32 bytes in 8
// different 128-byte lines. Every line a store touches is work for the SM's load/store
// unit and for L2. Here each consumer warp first writes 16 rows × 64 columns of its
// fragment into its own 4 KiB of shared memory, then reads them back 16 bytes a lane, two
// rows an instruction: one store then writes 2 × 256 contiguous bytes of C, 4 whole lines,
// and a tile's epilogue touches a quarter of the lines rung 15's did. In shared memory each
// 16-byte unit u of row r sits at u ^ (r % 8), so that the fragment's writes, 8 rows at a
// time, fall in different banks (hopper::StoreAccumulatorsStaged in hopper_common.cuh).
//
// What it costs: the 8 warps' 32 KiB of shared memory beside the 192 KiB ring (225 KiB of
// the 227 a block may have), and registers: the staging's addresses do not fit beside 128
// accumulators in the 168 registers each of 384 threads gets. So the producer warpgroup,
// whose one working thread needs few, hands registers back (setmaxnreg.dec to 40) and the
// consumers take them (setmaxnreg.inc to 232): no spills.
//
// Tiles, ring and threads: rung 15's (hopper::WarpSpecializedPipeline, here with
// kStagedStores) — block tile 128×256, K 64 per stage, 4 stages of 48 KiB, a producer
// warpgroup and two consumer warpgroups of 64 × 256, 128 FP32 accumulators a thread, a
// persistent grid of one block per SM.
//
// What the hardware does: shared memory has 32 banks of 4 bytes; a warp's access takes one
// pass per 128 bytes if no two lanes meet in a bank, more if they do. A global store is split
// into one request per 128-byte line it touches. setmaxnreg moves a warpgroup's registers to
// and from the SM's pool while the kernel runs. Needs sm_90a: compiled for that
// architecture alone, refused with the reason on any other GPU.
//
// Run it: `tilescope bench --kernels warp_specialized,staged_epilogue --sizes 4096,6144,8192 --reps 20 --interleave`.
#pragma once
#include "15_warp_specialized.cu"

namespace staged_epilogue {

using Pipeline = hopper::WarpSpecializedPipeline<warp_specialized::Bf16Operands, true>;

}  // namespace staged_epilogue

// C = A·B as rung 15 (BF16 A and Bᵀ, K-major, by tensor map; C row-major FP32), its
// epilogue through each consumer warp's piece of shared memory.
__global__ void __launch_bounds__(staged_epilogue::Pipeline::kThreads, 1)
    staged_epilogue_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                           float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char raw_shared[];
  staged_epilogue::Pipeline::Run(&a_map, &b_map, C, M, N, K, raw_shared);
#endif
}
