// Threads outside C return before the tile loop: they never store their tile cells nor reach
// the barriers the others wait at.
// expect: C wrong
// expect: divergent_barrier - - @barrier1
// expect: divergent_barrier - - @barrier2
// expect: uninitialized_read shared - @fma
#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int t = 0; t * TILE < K; ++t) {
    As[threadIdx.y][threadIdx.x] = t * TILE + threadIdx.x < K ? A[row * K + t * TILE + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = t * TILE + threadIdx.y < K ? B[(t * TILE + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();  // @barrier1
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];  // @fma
    __syncthreads();  // @barrier2
  }
  C[row * N + col] = sum;
}

int main() { matmul<<<dim3(64, 64), dim3(TILE, TILE)>>>(0, 0, 0, 1024, 1024, 1024); }
