// 02_tiled.cu — the handouts' shared-memory tiled kernel: C(M×N) = A(M×K) · B(K×N).
//
// What it teaches: a block of TILE×TILE threads computes one TILE×TILE tile of C. In each
// phase t every thread copies one element of A into As and one of B into Bs, the block
// waits, and then each thread takes TILE products from shared memory. Global reads drop
// from 2·M·N·K (naive) to ceil(N/TILE)·M·K + ceil(M/TILE)·K·N: TILE times fewer.
//
// The template switches are the lessons:
//  - each barrier is __syncthreads(), __syncwarp() or absent (the race lab, sync.cuh);
//  - kGuarded = false drops the bounds guard and kCeilTiles = false rounds the tile count
//    down, as the Exercise 05 handout's hint code does: on sizes that are not tile
//    multiples the tail tile is silently skipped and edge threads read outside A and B;
//  - kBsTransposed stores the B tile transposed (element (k, c) at Bs[c][k]), lesson 6's
//    bank conflicts: a warp's lanes then read words TILE apart, which share a bank when
//    TILE·TILE ≥ 64 (TILE 16: 8 lanes per bank, TILE 32: all 32). Same products in the
//    same order, so the same C bit for bit, only slower.
// Each `// model:` marker names the model instruction its line performs, so TileScope's
// model, this kernel and compute-sanitizer's file:line all point at the same lines.
// Run it: `tilescope bench --kernels tiled16`, step through it: `tilescope trace`.
#pragma once
#include "sync.cuh"

template <int TILE, SyncKind kFirstSync, SyncKind kSecondSync, bool kGuarded, bool kCeilTiles, bool kBsTransposed>
__global__ void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  const int num_tiles = kCeilTiles ? (K + TILE - 1) / TILE : K / TILE;
  for (int t = 0; t < num_tiles; ++t) {
    const int a_col = t * TILE + tx;
    const int b_row = t * TILE + ty;
    // Zero padding past the edges keeps the tail tile's products harmless.
    const float a = (!kGuarded || (row < M && a_col < K)) ? A[row * K + a_col] : 0.0f;  // model: load_a
    As[ty][tx] = a;  // model: store_as
    const float b = (!kGuarded || (b_row < K && col < N)) ? B[b_row * N + col] : 0.0f;  // model: load_b
    if constexpr (kBsTransposed) Bs[tx][ty] = b; else Bs[ty][tx] = b;  // model: store_bs
    // 1st barrier: no thread may read As/Bs before every thread of the block stored its element.
    Sync<kFirstSync>();  // model: barrier1
    for (int k = 0; k < TILE; ++k) {
      sum = fmaf(As[ty][k], kBsTransposed ? Bs[tx][k] : Bs[k][tx], sum);  // model: fma
    }
    // 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
    Sync<kSecondSync>();  // model: barrier2
  }
  if (!kGuarded || (row < M && col < N)) C[row * N + col] = sum;  // model: store_c
}
