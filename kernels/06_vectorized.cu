// 06_vectorized.cu — 128-bit loads and stores, and A stored transposed in shared memory.
//
// What it teaches: 05 moves every float with its own instruction. Here global loads and
// C's stores move 4 floats each (LDG.128/STG.128), and As is stored k-major (As[k][m],
// the transpose of A's tile) so a thread's TM values of A for one k are consecutive and
// come in TM/4 128-bit shared loads, like B's. Same tile as 05; only the instruction
// count changes, not the bytes.
//
// Tile: BM×BN = 128×128, BK = 8, TM×TN = 8×8 per thread, 256 threads.
// Global loads per FMA: 1/BM + 1/BN = 1/64 floats, 1/256 instructions. Shared loads per
// FMA: (TM + TN)/(TM·TN) = 1/4 floats, (TM + TN)/4/(TM·TN) = 1/16 instructions. B's
// reads 8 floats apart and As's stores still conflict in the banks (07 removes both).
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#06-vectorized
// Run it: `tilescope bench --kernels vectorized`.
#pragma once
#include "ladder_common.cuh"

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN / (TM * TN)))
    vectorized_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  using ladder::kVec;
  constexpr int kThreads = BM * BN / (TM * TN);
  __shared__ __align__(16) float As[BK][BM];  // transposed: As[k][m] = A(m, k)
  __shared__ __align__(16) float Bs[BK][BN];
  const int row0 = threadIdx.x / (BN / TN) * TM;
  const int col0 = threadIdx.x % (BN / TN) * TN;
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  const bool a_aligned = ladder::VectorAligned(A, K);
  const bool b_aligned = ladder::VectorAligned(B, N);
  float acc[TM][TN] = {};
  alignas(16) float a[TM];  // 16-byte aligned: filled by 128-bit loads
  alignas(16) float b[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int c = threadIdx.x; c < BM * BK / kVec; c += kThreads) {
      const int m = c / (BK / kVec);
      const int k = c % (BK / kVec) * kVec;
      const float4 v = ladder::LoadFloat4Guarded(A, M, K, block_row + m, k0 + k, a_aligned);
      As[k + 0][m] = v.x;  // the transpose happens here, one word per store
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
      for (int i = 0; i < TM; i += kVec) {
        *reinterpret_cast<float4*>(&a[i]) = *reinterpret_cast<const float4*>(&As[k][row0 + i]);
      }
#pragma unroll
      for (int j = 0; j < TN; j += kVec) {
        *reinterpret_cast<float4*>(&b[j]) = *reinterpret_cast<const float4*>(&Bs[k][col0 + j]);
      }
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    // 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
    __syncthreads();
  }
  const bool c_aligned = ladder::VectorAligned(C, N);
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; j += kVec) {
      const float4 v = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      ladder::StoreFloat4Guarded(C, M, N, block_row + row0 + i, block_col + col0 + j, v, c_aligned);
    }
  }
}
