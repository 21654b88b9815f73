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
// The ring: stage s = i % 4 of the block's i-th slice (counted across its tiles) has a
// "full" barrier (1 arrival, the producer's, plus the copy's bytes) and an "empty" one (one
// arrival per consumer warpgroup). The i-th fill of a stage is phase i / 4 of both, so a
// thread waits on parity (i / 4) % 2 for "full", and the producer, refilling, on the parity
// of the previous use, (i / 4 − 1) % 2.
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

constexpr int kBM = 128;
constexpr int kBN = 256;
constexpr int kBK = 64;  // BF16 elements in one 128-byte swizzled row
constexpr int kMmaK = 16;
constexpr int kStages = 4;
constexpr int kConsumers = kBM / 64;  // consumer warpgroups, 64 rows of the tile each
constexpr int kThreads = (kConsumers + 1) * hopper::kWarpgroup;
constexpr int kGroupM = 16;
constexpr unsigned kElementBytes = 2;
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
// stage to be free, then ask the TMA for A's and B's boxes, counted on the stage's "full".
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
        hopper::MmaBf16M64N256K16(acc, hopper::Advance(a, step), hopper::Advance(b, step));
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

}  // namespace warp_specialized

// C = A·B as rung 14 (BF16 A and Bᵀ, K-major, by tensor map; C row-major FP32), on a
// persistent grid of at most one block per SM: warpgroup 0 copies, 1 and 2 multiply.
__global__ void __launch_bounds__(warp_specialized::kThreads, 1)
    warp_specialized_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                            float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  namespace w = warp_specialized;
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
  // The barriers initialised before any thread waits on one; the only block-wide barrier:
  // from here on producer and consumers meet only at the mbarriers.
  __syncthreads();
  const w::Work work(M, N, K);
  if (warpgroup == 0) {
    if (threadIdx.x == 0) w::Produce(work, &a_map, &b_map, shared, full, empty);
    return;
  }
  w::Consume(work, shared, full, empty, C, M, N, warpgroup - 1);
#endif
}
