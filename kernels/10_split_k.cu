// 10_split_k.cu — the block tile's count against the SM count: split K when the grid is small.
//
// What it teaches: at 1024² the 128×128 block tile of 09 gives 64 blocks for 132 SMs:
// half the GPU idles however fast each block is (wave quantization). Cutting K into S
// parts gives S·64 blocks. The S blocks of one C tile form a thread-block cluster
// (sm_90): each accumulates its part of K with 09's code, leaves its partial tile in its
// own shared memory, and after a cluster barrier each block sums one S-th of the tile's
// rows across the S shared memories (distributed shared memory) and stores them: one
// launch, no atomics, the same sum order in every run. The launcher picks S per shape
// (SplitsFor: as many parts as keep one block per SM); where the grid already fills the
// GPU (S = 1) it runs 09's kernel unchanged.
//
// Tile: 09's (128×128×8, warp tile 32×64, 8×8 per thread, 256 threads) in clusters of S
// blocks along K, plus BM·BN floats of shared memory for the partial tile. Global loads
// per FMA as 09: 1/BM + 1/BN. Shared loads per FMA: 09's 1/4 floats, plus the reduction's
// S·BM·BN reads (one write each) per BM·BN·K FMAs: S/K more.
// Registers: 126 (S = 1, 09's kernel) or 129 (the split kernel) per thread (ptxas -v, sm_90);
// blocks per SM: 2 (S = 1) or 1 (split, by design)
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor, as the runner reports it). H100 (132 SMs),
// 2026-11-23, at 4096³: 42925 GFLOPS, 84.7% of cuBLAS SGEMM (50696 GFLOPS) in the same sweep,
// C verified: `tilescope bench --kernels RUNGS,cublas_fp32,cublas_tf32 --sizes 256:8192 --reps
// 20`, RUNGS the seven ladder kernels (docs/results/h100-ladder-2026-11-23.json).
// At 1024³ it splits K in two: 31581 GFLOPS, 106.7% of cuBLAS (29596) in that sweep (09:
// 60.5%).
// Nsight Compute at 1024³ (scripts/ladder-counters.sh,
// docs/results/h100-ladder-counters-2026-11-23.txt): global sectors as 09 (the split blocks
// load the same A and B slices between them); shared wavefronts 6.33 M (09: 6.29 M) for the
// reduction; FMA pipe 57.0%.
// Run it: `tilescope bench --kernels split_k --sizes 1024`.
#pragma once
#include <cooperative_groups.h>

#include "09_double_buffered.cu"

namespace split_k {
// The largest cluster every sm_90 GPU launches (larger ones need an opt-in).
constexpr int kMaxSplits = 8;

// The dynamic shared memory a block asks for: its partial tile, and more than half of
// an SM's shared memory, so that no SM holds two blocks. The rule below counts on one
// block per SM: two blocks of a cluster sharing an SM would run at half speed while
// other SMs idle (measured on the H100: 30 instead of 33 TFLOPS at 1024³).
constexpr unsigned SharedBytes(int bm, int bn, int shared_per_sm) {
  const int partial = bm * bn * static_cast<int>(sizeof(float));
  return static_cast<unsigned>(partial > shared_per_sm / 2 ? partial : shared_per_sm / 2);
}

// Parts of K for a grid of `tiles` C tiles: as many as keep the blocks within one per SM
// (more would queue behind each other), at most kMaxSplits and at most one per K-slice.
constexpr int SplitsFor(long long tiles, int sm_count, long long slices) {
  long long splits = tiles > 0 ? sm_count / tiles : 1;
  if (splits > kMaxSplits) splits = kMaxSplits;
  if (splits > slices) splits = slices;
  return splits > 1 ? static_cast<int>(splits) : 1;
}
}  // namespace split_k

// Grid: (tiles along N, tiles along M, S); the launch gives clusters of (1, 1, S).
template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(double_buffered::Tiling<BM, BN, BK, WM, WN>::kThreads)
    split_k_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  // No clusters before sm_90: the launcher never sends this kernel there (09 runs instead).
  __trap();
#else
  namespace cg = cooperative_groups;
  using T = double_buffered::Tiling<BM, BN, BK, WM, WN>;
  using ladder::kVec;
  cg::cluster_group cluster = cg::this_cluster();
  const int splits = static_cast<int>(cluster.num_blocks());
  const int part = static_cast<int>(cluster.block_rank());
  // Whole slices per part, so no slice straddles two parts.
  const int slices_per_part = ((K + BK - 1) / BK + splits - 1) / splits;
  const int k_begin = min(K, part * slices_per_part * BK);
  const int k_end = min(K, k_begin + slices_per_part * BK);
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  float acc[T::kTM][T::kTN] = {};
  if (k_begin < k_end) {
    double_buffered::Accumulate<BM, BN, BK, WM, WN>(A, B, M, N, K, block_row, block_col, k_begin, k_end, acc);
  }
  extern __shared__ float4 partial_vec[];  // this block's BM×BN partial tile, row-major
  float* partial = reinterpret_cast<float*>(partial_vec);
  const int2 origin = double_buffered::ThreadOrigin<BN, WM, WN>();
#pragma unroll
  for (int i = 0; i < T::kTM; ++i) {
    const int row = origin.x + i / double_buffered::kSub * double_buffered::kLanesM * double_buffered::kSub +
                    i % double_buffered::kSub;
#pragma unroll
    for (int j = 0; j < T::kTN; j += kVec) {
      const int col = origin.y + j / double_buffered::kSub * double_buffered::kLanesN * double_buffered::kSub;
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
    for (int s = 0; s < splits; ++s) {  // the same order in every block and every run
      const float4 v = reinterpret_cast<const float4*>(cluster.map_shared_rank(partial, s))[c];
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
    const int row = c * kVec / BN;
    ladder::StoreFloat4Guarded(C, M, N, block_row + row, block_col + c * kVec % BN, sum, c_aligned);
  }
  // Cluster barrier 2: a block must not exit, freeing its shared memory, while another
  // block of the cluster still reads its partial tile.
  cluster.sync();
#endif
}
