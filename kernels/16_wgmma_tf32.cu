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
// Tiles, ring and threads: as rung 15 — block tile 128×256, 4 stages in one ring across the
// tiles of a persistent block, a producer warpgroup (one thread issues the TMA copies), two
// consumer warpgroups of 64 rows × 256 columns, 128 FP32 accumulators a thread.
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

constexpr int kBM = 128;
constexpr int kBN = 256;
constexpr int kBK = 32;  // FP32 elements in one 128-byte swizzled row
constexpr int kMmaK = 8;
constexpr int kStages = 4;
constexpr int kConsumers = kBM / 64;  // consumer warpgroups, 64 rows of the tile each
constexpr int kThreads = (kConsumers + 1) * hopper::kWarpgroup;
constexpr int kGroupM = 16;
constexpr unsigned kElementBytes = 4;
constexpr unsigned kTileBytesA = kBM * kBK * kElementBytes;
constexpr unsigned kTileBytesB = kBN * kBK * kElementBytes;
constexpr unsigned kStageBytes = kTileBytesA + kTileBytesB;
constexpr unsigned kSharedBytes = kStages * kStageBytes + hopper::kSwizzleAtomBytes;
static_assert(kBK * kElementBytes == hopper::kSwizzleRowBytes, "a tile row is one swizzled 128-byte row");
static_assert(kTileBytesA % hopper::kSwizzleAtomBytes == 0, "B's tile starts on a swizzle boundary");

// The tiles of C and the slices of K a block walks.
struct Work {
  int tiles_m, tiles_n, tiles_k;
  __device__ __forceinline__ Work(int M, int N, int K)
      : tiles_m((M + kBM - 1) / kBM), tiles_n((N + kBN - 1) / kBN), tiles_k((K + kBK - 1) / kBK) {}
  __device__ __forceinline__ int Tiles() const { return tiles_m * tiles_n; }
  __device__ __forceinline__ int2 Tile(int linear) const {
    return hopper::GroupedTile(linear, tiles_m, tiles_n, kGroupM);
  }
};

// The producer's one thread: for every slice of every tile of this block, wait for its
// stage to be free, then ask the TMA for A's and Bᵀ's boxes, counted on the stage's "full".
__device__ __forceinline__ void Produce(const Work& work, const CUtensorMap* a_map, const CUtensorMap* b_map,
                                        unsigned char* shared, std::uint64_t* full, std::uint64_t* empty) {
  int slice = 0;
  for (int t = static_cast<int>(blockIdx.x); t < work.Tiles(); t += static_cast<int>(gridDim.x)) {
    const int2 tile = work.Tile(t);
    for (int kt = 0; kt < work.tiles_k; ++kt, ++slice) {
      const int s = slice % kStages;
      if (slice >= kStages) hopper::WaitPhase(&empty[s], (slice / kStages + 1) % 2);
      unsigned char* stage = shared + s * kStageBytes;
      hopper::ArriveExpectingBytes(&full[s], kStageBytes);
      hopper::LoadBox(stage, a_map, &full[s], kt * kBK, tile.x * kBM);
      hopper::LoadBox(stage + kTileBytesA, b_map, &full[s], kt * kBK, tile.y * kBN);
    }
  }
}

// A consumer warpgroup: for every tile of this block, its 64 rows × 256 columns of C.
__device__ __forceinline__ void Consume(const Work& work, unsigned char* shared, std::uint64_t* full,
                                        std::uint64_t* empty, float* C, int M, int N, int consumer) {
  const bool leader = threadIdx.x % hopper::kWarpgroup == 0;  // arrives for the warpgroup
  const unsigned rows_offset = consumer * 64 * hopper::kSwizzleRowBytes;
  float acc[hopper::kAccumulators256];
  int slice = 0;
  for (int t = static_cast<int>(blockIdx.x); t < work.Tiles(); t += static_cast<int>(gridDim.x)) {
#pragma unroll
    for (float& value : acc) value = 0.0f;
    for (int kt = 0; kt < work.tiles_k; ++kt, ++slice) {
      const int s = slice % kStages;
      hopper::WaitPhase(&full[s], slice / kStages % 2);
      const unsigned char* stage = shared + s * kStageBytes;
      const std::uint64_t a = hopper::SwizzledTileDescriptor(stage + rows_offset);
      const std::uint64_t b = hopper::SwizzledTileDescriptor(stage + kTileBytesA);
      hopper::FenceOperands();
#pragma unroll
      for (int k = 0; k < kBK / kMmaK; ++k) {
        const unsigned step = k * kMmaK * kElementBytes;
        hopper::MmaTf32M64N256K8(acc, hopper::Advance(a, step), hopper::Advance(b, step));
      }
      hopper::CommitGroup();
      hopper::WaitGroups<1>();  // the slice before this one is multiplied: free its stage
      if (kt > 0 && leader) hopper::Arrive(&empty[(slice - 1) % kStages]);
    }
    hopper::WaitGroups<0>();
    if (leader) hopper::Arrive(&empty[(slice - 1) % kStages]);
#pragma unroll
    for (float& value : acc) hopper::Touch(value);
    const int2 tile = work.Tile(t);
    hopper::StoreAccumulators(acc, C, M, N, tile.x * kBM + consumer * 64, tile.y * kBN);
  }
}

}  // namespace wgmma_tf32

// C = A·B, A (M×K) and B given as Bᵀ (N×K), both FP32 K-major through their tensor maps (box
// kBK × kBM for A, kBK × kBN for Bᵀ, 128-byte swizzle), multiplied as TF32; C row-major FP32.
// A persistent grid of at most one block per SM: warpgroup 0 copies, 1 and 2 multiply.
__global__ void __launch_bounds__(wgmma_tf32::kThreads, 1)
    wgmma_tf32_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* C,
                      int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  namespace w = wgmma_tf32;
  extern __shared__ unsigned char raw_shared[];
  __shared__ std::uint64_t full[w::kStages], empty[w::kStages];
  unsigned char* const shared = raw_shared + (hopper::kSwizzleAtomBytes -
                                              hopper::SharedAddress(raw_shared) % hopper::kSwizzleAtomBytes) %
                                                 hopper::kSwizzleAtomBytes;
  const int warpgroup = static_cast<int>(threadIdx.x) / hopper::kWarpgroup;
  if (threadIdx.x == 0) {
    for (int s = 0; s < w::kStages; ++s) {
      hopper::InitBarrier(&full[s], 1);
      hopper::InitBarrier(&empty[s], w::kConsumers);
    }
    hopper::FenceBarrierInit();
  }
  // The barriers initialised before any thread waits on one; from here on producer and
  // consumers meet only at the mbarriers.
  __syncthreads();
  const w::Work work(M, N, K);
  if (warpgroup == 0) {
    if (threadIdx.x == 0) w::Produce(work, &a_map, &b_map, shared, full, empty);
    return;
  }
  w::Consume(work, shared, full, empty, C, M, N, warpgroup - 1);
#endif
}
