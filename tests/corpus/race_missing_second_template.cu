// A template kernel without its 2nd barrier: the same WAR race at TILE 8.
// expect: C right
// expect warning: race shared WAR @load_a @fma
// expect warning: race shared WAR @load_b @fma
// expect: race shared WAR @load_b @fma
template <int TILE>
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = (row < M && t * TILE + tx < K) ? A[row * K + t * TILE + tx] : 0.0f;  // @load_a
    Bs[ty][tx] = (t * TILE + ty < K && col < N) ? B[(t * TILE + ty) * N + col] : 0.0f;  // @load_b
    __syncthreads();  // @barrier1
    for (int k = 0; k < TILE; ++k) {
      sum += As[ty][k] * Bs[k][tx];  // @fma
    }
    // @barrier2 (none)
  }
  if (row < M && col < N) C[row * N + col] = sum;  // @store_c
}

void launch(const float* A, const float* B, float* C, int n) {
  dim3 block(8, 8);
  dim3 grid((n + 7) / 8, (n + 7) / 8);
  matmul<8><<<grid, block>>>(A, B, C, n, n, n);
}
