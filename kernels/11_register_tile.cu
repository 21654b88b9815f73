// 11_register_tile.cu — a 16×8 micro-tile where the grid fills the GPU; split K where it does not.
//
// What it teaches: each k-step a thread loads TM + TN floats from shared memory for TM·TN
// FMAs, and every load, address and barrier takes an issue slot an FMA could have used.
// Twice the micro-tile (16×8 per thread, a 128×256 block tile of 256 threads) makes each
// fragment feed twice the FMAs and halves A's share of the global loads per FMA; it needs
// about twice the registers, so one block fits an SM. 10's cp.async for B is what makes it
// pay: with B staged in registers too, the compiler, short of registers, sinks the global
// loads to the end of the slice and their latency shows (that version was measured and not
// kept: see the notes linked below). A 128×256 tile gives few blocks on small matrices
// (32 at 1024² for 132 SMs), so where its grid would leave more than a quarter of the SMs
// idle the launcher runs 10's 128×128 tile instead and splits K over a thread-block
// cluster of S blocks (sm_90): each block accumulates its part of K, leaves its partial
// tile in its own shared memory, and after a cluster barrier each block sums one S-th of
// the tile's rows across the S shared memories (distributed shared memory) and stores them:
// one launch, no atomics, the same sum order in every run.
//
// Tile: BM×BN = 128×256, BK = 8, warp tile 64×64 (2×4 warps), 16×8 per thread, 256
// threads, 2 shared buffers. Global loads per FMA 1/BM + 1/BN = 3/256 floats (09: 1/64);
// shared loads per FMA (TM + TN)/(TM·TN) = 3/16 floats, 3/64 LDS.128 (09: 1/4 and 1/16).
// Small grids: 10's tile in clusters of S = min(8, SMs / tiles) blocks along K, plus BM·BN
// floats of shared memory for the partial tile: the reduction's S·BM·BN shared reads per
// BM·BN·K FMAs add S/K shared loads per FMA.
// One block per SM, the split kernel too, by design.
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#11-register_tile
// Run it: `tilescope bench --kernels register_tile`.
#pragma once
#include <cooperative_groups.h>

#include "10_async_copy.cu"

namespace register_tile {
// Where the large tile would leave SMs idle, 10's 128×128 tile instead, split along K.
constexpr int kSmallBM = 128;
constexpr int kSmallBN = 128;
constexpr int kSmallWM = 32;
constexpr int kSmallWN = 64;

// The largest cluster every sm_90 GPU launches (larger ones need an opt-in).
constexpr int kMaxSplits = 8;

// The large tile is worth it while at least three quarters of the SMs get a block: at
// 2048² its 128 tiles keep 128 of 132 SMs busy, at 1024² its 32 tiles only a quarter.
constexpr bool LargeTileFills(long long tiles, int sm_count) { return tiles * 4 >= 3LL * sm_count; }

// Parts of K for a grid of `tiles` C tiles: as many as keep the blocks within one per SM
// (more would queue behind each other), at most kMaxSplits and at most one per K-slice.
constexpr int SplitsFor(long long tiles, int sm_count, long long slices) {
  long long splits = tiles > 0 ? sm_count / tiles : 1;
  if (splits > kMaxSplits) splits = kMaxSplits;
  if (splits > slices) splits = slices;
  return splits > 1 ? static_cast<int>(splits) : 1;
}

// The dynamic shared memory a split block asks for: its partial tile, and more than half
// of an SM's shared memory, so that no SM holds two blocks: two blocks of a cluster on one
// SM would run at half speed while other SMs idle (measured on the H100: 30 instead of 33
// TFLOPS at 1024³ with 09's loop).
constexpr unsigned SharedBytes(int bm, int bn, int shared_per_sm) {
  const int partial = bm * bn * static_cast<int>(sizeof(float));
  return static_cast<unsigned>(partial > shared_per_sm / 2 ? partial : shared_per_sm / 2);
}

// This block's part of K: whole slices per part, so no slice straddles two parts.
struct KRange {
  int begin;
  int end;
};
__device__ __forceinline__ KRange PartOfK(int K, int BK, int splits, int part) {
  const int slices_per_part = ((K + BK - 1) / BK + splits - 1) / splits;
  const int begin = min(K, part * slices_per_part * BK);
  return {begin, min(K, begin + slices_per_part * BK)};
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
// Leaves the thread's part of the C tile in `partial` (this block's shared memory, BM×BN
// floats, row-major), then sums one S-th of the tile's rows across the cluster's S partial
// tiles (distributed shared memory) in the same order in every run, and stores them.
template <int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void SumAcrossCluster(
    float* partial,
    const float (&acc)[async_copy::Tiling<BM, BN, BK, WM, WN>::kTM][async_copy::Tiling<BM, BN, BK, WM, WN>::kTN],
    float* C, int M, int N, int block_row, int block_col) {
  namespace cg = cooperative_groups;
  using T = async_copy::Tiling<BM, BN, BK, WM, WN>;
  using async_copy::kLanesM;
  using async_copy::kLanesN;
  using async_copy::kSub;
  using ladder::kVec;
  cg::cluster_group cluster = cg::this_cluster();
  const int splits = static_cast<int>(cluster.num_blocks());
  const int part = static_cast<int>(cluster.block_rank());
  const int2 origin = double_buffered::ThreadOrigin<BN, WM, WN>();
#pragma unroll
  for (int i = 0; i < T::kTM; ++i) {
    const int row = origin.x + i / kSub * kLanesM * kSub + i % kSub;
#pragma unroll
    for (int j = 0; j < T::kTN; j += kVec) {
      const int col = origin.y + j / kSub * kLanesN * kSub;
      *reinterpret_cast<float4*>(&partial[row * BN + col]) =
          make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
    }
  }
  // Cluster barrier 1: every block's partial tile must be complete before any block sums it.
  cluster.sync();
  const bool c_aligned = ladder::VectorAligned(C, N);
  const int rows_per_part = (BM + splits - 1) / splits;
  const int first = part * rows_per_part * BN / kVec;
  const int last = min(BM, (part + 1) * rows_per_part) * BN / kVec;
  for (int c = first + static_cast<int>(threadIdx.x); c < last; c += T::kThreads) {
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int s = 0; s < splits; ++s) {
      const float4 v = reinterpret_cast<const float4*>(cluster.map_shared_rank(partial, s))[c];
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
    ladder::StoreFloat4Guarded(C, M, N, block_row + c * kVec / BN, block_col + c * kVec % BN, sum, c_aligned);
  }
  // Cluster barrier 2: a block must not exit, freeing its shared memory, while another
  // block of the cluster still reads its partial tile.
  cluster.sync();
}
#endif
}  // namespace register_tile

// The small tile split along K. Grid: (tiles along N, tiles along M, S); the launch gives
// clusters of (1, 1, S); dynamic shared memory: the BM×BN partial tile.
template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(async_copy::Tiling<BM, BN, BK, WM, WN>::kThreads)
    register_tile_split_k_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // no clusters before sm_90: the launcher never sends this kernel there
#else
  using T = async_copy::Tiling<BM, BN, BK, WM, WN>;
  namespace cg = cooperative_groups;
  __shared__ __align__(16) async_copy::Buffers<BM, BN, BK> shared;
  extern __shared__ float4 partial_vec[];
  const register_tile::KRange range = register_tile::PartOfK(K, BK, static_cast<int>(cg::this_cluster().num_blocks()),
                                                             static_cast<int>(cg::this_cluster().block_rank()));
  float acc[T::kTM][T::kTN] = {};
  if (range.begin < range.end) {
    async_copy::AccumulateBlock<BM, BN, BK, WM, WN>(shared, A, B, C, M, N, K, blockIdx.y * BM, blockIdx.x * BN,
                                                    range.begin, range.end, acc);
  }
  register_tile::SumAcrossCluster<BM, BN, BK, WM, WN>(reinterpret_cast<float*>(partial_vec), acc, C, M, N,
                                                      blockIdx.y * BM, blockIdx.x * BN);
#endif
}
