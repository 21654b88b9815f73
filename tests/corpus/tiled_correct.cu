// The handout's tiled kernel, guarded, both barriers: correct.
// expect: C right
#define TILE 16
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
    __syncthreads();  // @barrier2
  }
  if (row < M && col < N) C[row * N + col] = sum;  // @store_c
}

int main() {
  dim3 block(TILE, TILE);
  dim3 grid(64, 64);
  matmul<<<grid, block>>>(nullptr, nullptr, nullptr, 1024, 1024, 1024);
  return 0;
}
