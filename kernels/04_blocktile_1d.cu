// 04_blocktile_1d.cu — the first rung of the ladder: each thread computes a column of TM
// elements of C instead of one.
//
// What it teaches: in 02_tiled.cu every FMA needs two shared-memory loads, so the shared
// memory, not the FMA units, sets the pace. Here a thread keeps TM partial sums in
// registers and reuses one value of B for all of them: per k it loads one B value and TM
// A values (which the 32 threads of a warp share, one broadcast) for TM FMAs. The block
// tile grows to BM×BN = 64×64, stepping through K by BK = 8, with BM·BN/TM threads.
//
// Per block and K-slice: global loads (BM + BN)·BK floats for BM·BN·BK FMAs, so
// 1/BM + 1/BN = 1/32 global loads per FMA (02_tiled at TILE 32: 2/32). Shared loads
// per FMA: (TM + 1)/TM = 1.125 (02_tiled: 2). The compiler reads each As row's BK = 8
// consecutive k values with two 128-bit loads, so A costs 2 instructions per 8 FMAs and
// B one per TM = 8: 3/8 shared load instructions per FMA.
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#04-blocktile_1d
// Run it: `tilescope bench --kernels blocktile_1d`.
#pragma once
#include "ladder_common.cuh"

template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__((BM * BN / TM))
    blocktile_1d_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  constexpr int kThreads = BM * BN / TM;
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  // A warp's 32 threads are 32 neighbouring columns of one row group: B loads are
  // consecutive words, A loads are one word broadcast to the warp.
  const int col = threadIdx.x % BN;
  const int row0 = threadIdx.x / BN * TM;
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  float acc[TM] = {};
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
      const float b = Bs[k][col];  // one B value serves all TM rows
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] = fmaf(As[row0 + i][k], b, acc[i]);
    }
    // 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
    __syncthreads();
  }
  const int c_col = block_col + col;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int c_row = block_row + row0 + i;
    if (c_row < M && c_col < N) C[c_row * N + c_col] = acc[i];
  }
}
