// 05_blocktile_2d.cu — a TM×TN micro-tile of C per thread (2D register blocking).
//
// What it teaches: 04 reused a B value TM times; now a thread loads TM values of A and
// TN of B into registers per k and forms their TM·TN products, the outer product. The
// loads per FMA fall from (TM+1)/TM to (TM+TN)/(TM·TN), and the bigger BM×BN = 128×128
// block tile halves the global loads per FMA again. Still plain scalar global loads.
//
// Tile: BM×BN = 128×128, BK = 8, TM×TN = 8×8 per thread, BM·BN/(TM·TN) = 256 threads.
// Global loads per FMA: 1/BM + 1/BN = 1/64. Shared loads per FMA: (TM + TN)/(TM·TN) = 1/4
// floats (the compiler reads B's 8 consecutive floats with two 128-bit loads). The
// compiler reads A's row along k with 128-bit loads too (1/16 instructions per FMA); the
// layout leaves bank conflicts, which 07 removes.
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#05-blocktile_2d
// Run it: `tilescope bench --kernels blocktile_2d`.
#pragma once
#include "ladder_common.cuh"

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN / (TM * TN)))
    blocktile_2d_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  constexpr int kThreads = BM * BN / (TM * TN);
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  const int row0 = threadIdx.x / (BN / TN) * TM;  // the thread's micro-tile: rows row0…, columns col0…
  const int col0 = threadIdx.x % (BN / TN) * TN;
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float a[TM];
  float b[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += kThreads) {
      As[e / BK][e % BK] = ladder::LoadGuarded(A, M, K, block_row + e / BK, k0 + e % BK);
    }
    for (int e = threadIdx.x; e < BK * BN; e += kThreads) {
      Bs[e / BN][e % BN] = ladder::LoadGuarded(B, K, N, k0 + e / BN, block_col + e % BN);
    }
    // 1st barrier: the tiles must be complete before any thread reads them.
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = As[row0 + i][k];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = Bs[k][col0 + j];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    // 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int row = block_row + row0 + i;
      const int col = block_col + col0 + j;
      if (row < M && col < N) C[row * N + col] = acc[i][j];
    }
  }
}
