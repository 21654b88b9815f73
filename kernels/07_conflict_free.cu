// 07_conflict_free.cu — a shared-memory layout without bank conflicts.
//
// What it teaches: shared memory serves a warp's request in one pass only when its words
// lie in distinct banks (32 banks of 4 bytes) or are the same word. 06 has two conflicts:
// storing A transposed, the threads holding k and k+4 of one row write the same bank
// (As rows are BM = 128 words, a multiple of 32), and reading B, threads 8 floats apart
// hit the same banks twice per 128-bit load. Here As rows get 4 words of padding (one
// 16-byte vector: rows stay aligned) so the two k halves land 16 banks apart, and each
// thread's 8×8 micro-tile is split into four 4×4 quadrants half a tile apart, so the
// threads of a quarter-warp read 8 consecutive float4 of B: 128 bytes, every bank once.
//
// Tile: BM×BN = 128×128, BK = 8, 8×8 per thread as 2×2 quadrants of 4×4, 256 threads.
// Global and shared loads per FMA as in 06 (1/64 and 1/4 floats); what drops is the
// shared-memory passes (wavefronts) per load.
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#07-conflict_free
// Run it: `tilescope bench --kernels conflict_free`.
#pragma once
#include "ladder_common.cuh"

namespace conflict_free {
constexpr int kSub = 4;    // a quadrant's edge: one float4
constexpr int kQuads = 2;  // quadrants per thread along M and along N
constexpr int kThreadTile = kSub * kQuads;
constexpr int kPad = 4;  // words added to each As row: one 16-byte vector
}  // namespace conflict_free

template <int BM, int BN, int BK>
__global__ void __launch_bounds__((BM * BN / (conflict_free::kThreadTile * conflict_free::kThreadTile)))
    conflict_free_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  using conflict_free::kPad;
  using conflict_free::kQuads;
  using conflict_free::kSub;
  using conflict_free::kThreadTile;
  using ladder::kVec;
  constexpr int kThreads = BM * BN / (kThreadTile * kThreadTile);
  __shared__ __align__(16) float As[BK][BM + kPad];  // transposed and padded
  __shared__ __align__(16) float Bs[BK][BN];
  // Quadrant (qi, qj) of the thread's micro-tile starts at row qi·BM/2 + row0, column qj·BN/2 + col0.
  const int row0 = threadIdx.x / (BN / kThreadTile) * kSub;
  const int col0 = threadIdx.x % (BN / kThreadTile) * kSub;
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  const bool a_aligned = ladder::VectorAligned(A, K);
  const bool b_aligned = ladder::VectorAligned(B, N);
  float acc[kThreadTile][kThreadTile] = {};
  alignas(16) float a[kThreadTile];
  alignas(16) float b[kThreadTile];
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
      for (int q = 0; q < kQuads; ++q) {
        *reinterpret_cast<float4*>(&a[q * kSub]) = *reinterpret_cast<const float4*>(&As[k][q * BM / kQuads + row0]);
        *reinterpret_cast<float4*>(&b[q * kSub]) = *reinterpret_cast<const float4*>(&Bs[k][q * BN / kQuads + col0]);
      }
#pragma unroll
      for (int i = 0; i < kThreadTile; ++i) {
#pragma unroll
        for (int j = 0; j < kThreadTile; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    // 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
    __syncthreads();
  }
  const bool c_aligned = ladder::VectorAligned(C, N);
#pragma unroll
  for (int i = 0; i < kThreadTile; ++i) {
    const int row = block_row + i / kSub * (BM / kQuads) + row0 + i % kSub;
#pragma unroll
    for (int j = 0; j < kThreadTile; j += kSub) {
      const float4 v = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      ladder::StoreFloat4Guarded(C, M, N, row, block_col + j / kSub * (BN / kQuads) + col0, v, c_aligned);
    }
  }
}
