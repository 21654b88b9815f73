// 03_tiled_rect.cu — rectangular tiles (the tiling notebook's exercise 2): C(M×N) = A(M×K) · B(K×N).
//
// What it teaches: the tile of C need not be square, nor the slice of K it walks. A block
// of TN×TM threads (x along N, y along M) computes a TM×TN tile of C, stepping through K
// in slices of TK. As is TM×TK and Bs is TK×TN, so when TK exceeds the block's width or
// height a thread loads more than one element per phase: the strided loops below.
// Global reads: ceil(N/TN)·M·K of A and ceil(M/TM)·K·N of B.
// Each `// model:` marker names the model instruction its line performs.
// Run it: `tilescope bench --kernels rect32x16x16`, step through it:
// `tilescope trace --kernel rect --tm 4 --tn 2 --tk 4`.
#pragma once
#include "sync.cuh"

template <int TM, int TN, int TK, SyncKind kFirstSync, SyncKind kSecondSync, bool kGuarded,
          bool kCeilTiles>
__global__ void tiled_rect_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TM][TK];
  __shared__ float Bs[TK][TN];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * TM + ty;
  const int col = blockIdx.x * TN + tx;
  float sum = 0.0f;
  const int num_tiles = kCeilTiles ? (K + TK - 1) / TK : K / TK;
  for (int t = 0; t < num_tiles; ++t) {
    // Row ty of As holds TK values: the block's TN threads of that row share the copying.
    for (int i = tx; i < TK; i += TN) {
      const int a_col = t * TK + i;
      const float a = (!kGuarded || (row < M && a_col < K)) ? A[row * K + a_col] : 0.0f;  // model: load_a
      As[ty][i] = a;  // model: store_as
    }
    // Column tx of Bs holds TK values: the block's TM threads of that column share them.
    for (int i = ty; i < TK; i += TM) {
      const int b_row = t * TK + i;
      const float b = (!kGuarded || (b_row < K && col < N)) ? B[b_row * N + col] : 0.0f;  // model: load_b
      Bs[i][tx] = b;  // model: store_bs
    }
    // 1st barrier: no thread may read As/Bs before every thread of the block stored its elements.
    Sync<kFirstSync>();  // model: barrier1
    for (int k = 0; k < TK; ++k) {
      sum = fmaf(As[ty][k], Bs[k][tx], sum);  // model: fma
    }
    // 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
    Sync<kSecondSync>();  // model: barrier2
  }
  if (!kGuarded || (row < M && col < N)) C[row * N + col] = sum;  // model: store_c
}
