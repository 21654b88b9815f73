// Only the upper half of the block loads Bs (a `ty < TILE / 2` meant for a 2-rows-per-thread
// load that was never finished): the lower rows of Bs are read without ever being written.
// expect: C wrong
// expect: uninitialized_read shared - @fma
#define TILE 8
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = (row < M && t * TILE + tx < K) ? A[row * K + t * TILE + tx] : 0.0f;
    if (ty < TILE / 2) Bs[ty][tx] = (t * TILE + ty < K && col < N) ? B[(t * TILE + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];  // @fma
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

int main() { matmul<<<dim3(128, 128), dim3(TILE, TILE)>>>(0, 0, 0, 1024, 1024, 1024); }
