// 15_warp_specialized.cu — copies and math in separate warps, one long-lived block per SM.
//
// What it teaches: in rung 14 the thread that issues the TMA copies is also one of the
// consumers. When it must wait for the other warpgroup to free a stage, its own warpgroup
// issues no wgmma; and every block ends with its epilogue (storing 128×256 floats of C)
// while the tensor cores have nothing queued, then a new block starts with empty stages.
// Here the work is split by warps (warp specialisation):
// - a producer warpgroup, in which one thread does nothing but wait for a free stage and
//   hand the TMA its next two boxes;
// - two consumer warpgroups that only wait for full stages, issue wgmma and store C.
// And the grid is persistent: one block per SM (at most), each walking the tiles
// blockIdx.x, blockIdx.x + gridDim.x, … in the grouped order of rung 14. The stages form
// one ring across tiles, so while the consumers store one tile's C the producer already
// fills the stages with the next tile's first slices: the epilogue overlaps the copies, and
// the next tile's first wgmma finds its operands waiting.
//
// Tiles: as rung 14 — block tile 128×256, K 64 per stage, 4 stages, each consumer 64 rows
// × 256 columns with four m64n256k16 wgmma per stage, 128 FP32 accumulators a thread. 384
// threads; the producer's 128 hold no part of C (kernel_table.h: producer_threads).
//
// Where the code is: the pipeline (the ring of stages, the producer's loop, the consumers'
// loop, the kernel's set-up) is hopper::WarpSpecializedPipeline in hopper_common.cuh, which
// rung 16 runs too; what this rung chooses is its operands, BF16 with m64n256k16, below.
//
// Registers: __launch_bounds__(384, 1) lets ptxas give each thread up to 168 registers, and
// the consumers' 128 accumulators fit in that without spilling (ptxas -v), so the producer
// does not hand registers to the consumers (setmaxnreg): there is nothing to gain at this
// tile. A larger consumer tile would need it.
//
// What the hardware does: as rung 14 (TMA, 128-byte swizzle, wgmma). Needs sm_90a: compiled
// for that architecture alone, refused with the reason on any other GPU.
//
// Run it: `tilescope bench --kernels wgmma_bf16,warp_specialized,cublas_bf16 --sizes 1024:8192 --reps 20`.
#pragma once
#include "hopper_common.cuh"

namespace warp_specialized {

// BF16 operands: 64 of K in a 128-byte stage row, four m64n256k16 per stage.
struct Bf16Operands {
  static constexpr unsigned kElementBytes = 2;
  static constexpr int kMmaK = 16;
  __device__ __forceinline__ static void Mma(float (&acc)[hopper::kAccumulators256], std::uint64_t a, std::uint64_t b) {
    hopper::MmaBf16M64N256K16(acc, a, b);
  }
};
using Pipeline = hopper::WarpSpecializedPipeline<Bf16Operands>;

}  // namespace warp_specialized

// C = A·B as rung 14 (BF16 A and Bᵀ, K-major, by tensor map; C row-major FP32), on a
// persistent grid of at most one block per SM: warpgroup 0 copies, 1 and 2 multiply.
__global__ void __launch_bounds__(warp_specialized::Pipeline::kThreads, 1)
    warp_specialized_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                            float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char raw_shared[];
  warp_specialized::Pipeline::Run(&a_map, &b_map, C, M, N, K, raw_shared);
#endif
}
