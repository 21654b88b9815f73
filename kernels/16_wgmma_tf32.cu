// 16_wgmma_tf32.cu — rung 15's pipeline fed FP32 matrices: wgmma on TF32.
//
// What it teaches: rung 13 ran TF32 on the tensor cores with mma.sync, one warp and one
// 16×8×8 product at a time, and reached about a third of cuBLAS TF32. Rungs 14 and 15 built
// Hopper's path (TMA copies into swizzled shared memory, warpgroup wgmma, a producer
// warpgroup feeding persistent consumers) for BF16. The one idea here: the same pipeline
// multiplies FP32 matrices as TF32, because wgmma has a TF32 form. What changes is little:
// - an element is 4 bytes, so a 128-byte swizzled row holds 32 of K, not 64;
// - the instruction is m64n256k8 (half BF16's K per instruction, at half BF16's rate), so a
//   stage of 32 takes four of them, as BF16's stage of 64 took four m64n256k16;
// - TF32 wgmma reads both operands K-major only (no transposed form, unlike BF16), so B goes
//   in as Bᵀ (N×K), as it did for BF16.
// A stage is then 128×32 + 256×32 floats = 48 KiB, exactly rung 15's, and it holds half the
// products; the tensor cores run TF32 at half BF16's rate, so a stage keeps them busy as long
// as a BF16 stage did, and the copies per unit of time are the same.
//
// Operands: the FP32 values themselves, not rounded: the tensor cores read the sign, the
// exponent and the top 10 mantissa bits of each and drop the rest (truncation; cuBLAS TF32's
// results are those of rounding to nearest, so this rung's error is the larger, within TF32's
// tolerance). The runner copies A once per shape with rows padded to 4 floats (16
// bytes, what a tensor map's stride needs) and B transposed, before any timing
// (kernels/gpu/module.cu). Checked against cuBLAS FP32 with TF32's tolerance,
// 8·sqrt(K)·2^-11·max|A|·max|B| (bench.cpp), and against cuBLAS TF32 element by element.
//
// Tiles, ring and threads: rung 15's, from the same code (hopper::WarpSpecializedPipeline in
// hopper_common.cuh) — block tile 128×256, 4 stages in one ring across the tiles of a
// persistent block, a producer warpgroup (one thread issues the TMA copies), two consumer
// warpgroups of 64 rows × 256 columns, 128 FP32 accumulators a thread. What this rung
// chooses is its operands, TF32 with m64n256k8, below.
//
// What the hardware does: the TMA writes each 128-byte row with the 128-byte swizzle (16-byte
// chunk c of row r at chunk c ^ (r % 8)); a descriptor tells wgmma so; a k8 step moves the
// descriptor 32 bytes along the row. Needs sm_90a: compiled for that architecture alone,
// refused with the reason on any other GPU.
//
// Run it: `tilescope bench --kernels mma_tf32,wgmma_tf32,cublas_tf32 --sizes 1024:8192 --reps 20`.
#pragma once
#include "hopper_common.cuh"

namespace wgmma_tf32 {

// TF32 operands: FP32 in shared memory, 32 of K in a 128-byte stage row, four m64n256k8 per stage.
struct Tf32Operands {
  static constexpr unsigned kElementBytes = 4;
  static constexpr int kMmaK = 8;
  __device__ __forceinline__ static void Mma(float (&acc)[hopper::kAccumulators256], std::uint64_t a, std::uint64_t b) {
    hopper::MmaTf32M64N256K8(acc, a, b);
  }
};
using Pipeline = hopper::WarpSpecializedPipeline<Tf32Operands>;

}  // namespace wgmma_tf32

// C = A·B, A (M×K) and B given as Bᵀ (N×K), both FP32 K-major through their tensor maps (box
// kBK × kBM for A, kBK × kBN for Bᵀ, 128-byte swizzle), multiplied as TF32; C row-major FP32.
// A persistent grid of at most one block per SM: warpgroup 0 copies, 1 and 2 multiply.
__global__ void __launch_bounds__(wgmma_tf32::Pipeline::kThreads, 1)
    wgmma_tf32_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* C,
                      int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char raw_shared[];
  wgmma_tf32::Pipeline::Run(&a_map, &b_map, C, M, N, K, raw_shared);
#endif
}
