// The Exercise 05 handout's hint code: no bounds guard, so edge threads read outside A and B.
// expect: C wrong
// expect: out_of_bounds global - @load_a
// expect: out_of_bounds global - @load_b
// expect: out_of_bounds global - @store_c
// expect: race global WAW @store_c @store_c
#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = A[row * K + t * TILE + tx];  // @load_a
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];  // @load_b
    __syncthreads();  // @barrier1
    for (int k = 0; k < TILE; ++k) {
      sum += As[ty][k] * Bs[k][tx];  // @fma
    }
    __syncthreads();  // @barrier2
  }
  C[row * N + col] = sum;  // @store_c
}

int main() {
  dim3 block(TILE, TILE);
  dim3 grid(64, 64);
  matmul<<<grid, block>>>(nullptr, nullptr, nullptr, 1024, 1024, 1024);
  return 0;
}
