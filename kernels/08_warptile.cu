// 08_warptile.cu — warp tiling: a level between the block tile and the thread's micro-tile.
//
// What it teaches: the 32 threads of a warp issue each shared load together, so what
// matters is which words one warp instruction touches. In 07 a warp is 2 rows × 16
// columns of threads spread over the whole block tile: its B load touches 256 bytes, its
// A load 32. Here each warp owns a WM×WN = 32×64 sub-tile of the block's C, its lanes laid
// out 4 × 8 with 4×4 quadrants 16 rows and 32 columns apart: a warp's A load touches 64
// bytes and its B load 128, and the 8 warps of a block read disjoint rows or columns of
// the shared tiles. (Nsight Compute counts the same shared-memory passes as 07: see the
// measured notes linked below.)
//
// Tile: BM×BN = 128×128, BK = 8, warp tile WM×WN = 32×64 (4×2 warps), 8×8 per thread,
// 256 threads. Global loads per FMA 1/BM + 1/BN = 1/64 floats; shared loads per FMA as
// in 07: (TM + TN)/(TM·TN) = 1/4 floats, 1/16 instructions.
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#08-warptile
// Run it: `tilescope bench --kernels warptile`.
#pragma once
#include "ladder_common.cuh"

namespace warptile {
constexpr int kWarp = 32;
constexpr int kLanesM = 4;  // a warp's lanes: 4 rows × 8 columns of threads
constexpr int kLanesN = 8;
constexpr int kSub = 4;  // a quadrant's edge: one float4
constexpr int kPad = 4;  // words added to each As row (07)
}  // namespace warptile

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(BM / WM * BN / WN * warptile::kWarp)
    warptile_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  using ladder::kVec;
  using warptile::kLanesM;
  using warptile::kLanesN;
  using warptile::kPad;
  using warptile::kSub;
  constexpr int kThreads = BM / WM * BN / WN * warptile::kWarp;
  constexpr int kQuadsM = WM / (kLanesM * kSub);  // quadrants per thread along M and N
  constexpr int kQuadsN = WN / (kLanesN * kSub);
  constexpr int kTM = kQuadsM * kSub;  // the thread's micro-tile
  constexpr int kTN = kQuadsN * kSub;
  __shared__ __align__(16) float As[BK][BM + kPad];
  __shared__ __align__(16) float Bs[BK][BN];
  const int warp = threadIdx.x / warptile::kWarp;
  const int lane = threadIdx.x % warptile::kWarp;
  // Quadrant (qi, qj) starts at row row0 + qi·kLanesM·kSub, column col0 + qj·kLanesN·kSub.
  const int row0 = warp / (BN / WN) * WM + lane / kLanesN * kSub;
  const int col0 = warp % (BN / WN) * WN + lane % kLanesN * kSub;
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  const bool a_aligned = ladder::VectorAligned(A, K);
  const bool b_aligned = ladder::VectorAligned(B, N);
  float acc[kTM][kTN] = {};
  alignas(16) float a[kTM];
  alignas(16) float b[kTN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int c = threadIdx.x; c < BM * BK / kVec; c += kThreads) {
      const int m = c / (BK / kVec);
      const int k = c % (BK / kVec) * kVec;
      const float4 v = ladder::LoadFloat4Guarded(A, M, K, block_row + m, k0 + k, a_aligned);
      As[k + 0][m] = v.x;
      As[k + 1][m] = v.y;
      As[k + 2][m] = v.z;
      As[k + 3][m] = v.w;
    }
    for (int c = threadIdx.x; c < BK * BN / kVec; c += kThreads) {
      const int k = c / (BN / kVec);
      const int n = c % (BN / kVec) * kVec;
      *reinterpret_cast<float4*>(&Bs[k][n]) = ladder::LoadFloat4Guarded(B, K, N, k0 + k, block_col + n, b_aligned);
    }
    // 1st barrier: the tiles must be complete before any thread reads them.
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int q = 0; q < kQuadsM; ++q) {
        *reinterpret_cast<float4*>(&a[q * kSub]) = *reinterpret_cast<const float4*>(&As[k][row0 + q * kLanesM * kSub]);
      }
#pragma unroll
      for (int q = 0; q < kQuadsN; ++q) {
        *reinterpret_cast<float4*>(&b[q * kSub]) = *reinterpret_cast<const float4*>(&Bs[k][col0 + q * kLanesN * kSub]);
      }
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    // 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
    __syncthreads();
  }
  const bool c_aligned = ladder::VectorAligned(C, N);
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = block_row + row0 + i / kSub * kLanesM * kSub + i % kSub;
#pragma unroll
    for (int j = 0; j < kTN; j += kSub) {
      const float4 v = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      ladder::StoreFloat4Guarded(C, M, N, row, block_col + col0 + j / kSub * kLanesN * kSub, v, c_aligned);
    }
  }
}
