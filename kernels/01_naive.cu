// 01_naive.cu — the naive kernel: C(M×N) = A(M×K) · B(K×N), one thread per element of C.
//
// What it teaches: every thread walks a whole row of A and a whole column of B in global
// memory, so the kernel reads 2·M·N·K floats although A and B hold only M·K + K·N. The
// neighbours of a thread read the same values again; shared-memory tiling (02_tiled.cu)
// exists to stop that.
//
// The sum is an explicit fmaf in k order, as nvcc -O3 would contract `sum += a * b`:
// TileScope's model replays exactly this and matches the GPU bit for bit.
// Each `// model:` marker names the model instruction its line performs.
// Run it: `tilescope bench --kernels naive`, step through it: `tilescope trace --kernel naive`.
#pragma once

template <bool kGuarded>
__global__ void naive_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  // Threads past the edge of C have nothing to compute; without the guard they read and
  // write outside the matrices.
  if (kGuarded && (row >= M || col >= N)) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    const float a = A[row * K + k];  // model: load_a
    const float b = B[k * N + col];  // model: load_b
    sum = fmaf(a, b, sum);           // model: fma
  }
  C[row * N + col] = sum;  // model: store_c
}
