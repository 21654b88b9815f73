// The tiled kernel as a handout writes it: one file, #define TILE, a host main that launches it.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int a_col = t * TILE + tx;
    int b_row = t * TILE + ty;
    As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
    Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
    __syncthreads();  // every element of the tiles stored before any is read
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
      sum += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();  // every thread done reading before the tiles are refilled
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

int main() {
  const int N = 1024;
  float *A, *B, *C;
  cudaMalloc(&A, N * N * sizeof(float));
  cudaMalloc(&B, N * N * sizeof(float));
  cudaMalloc(&C, N * N * sizeof(float));
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(A, B, C, N, N, N);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
