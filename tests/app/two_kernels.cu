// Two kernels in one file, as a handout's exercise file has them: the window opens the first
// and offers the other (--kernel-name, or the Kernel field in Controls); check asks for --kernel.
__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

#define TILE 8
__global__ void tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = (row < M && t * TILE + tx < K) ? A[row * K + t * TILE + tx] : 0.0f;
    Bs[ty][tx] = (t * TILE + ty < K && col < N) ? B[(t * TILE + ty) * N + col] : 0.0f;
    __syncthreads();  // the tiles are complete before any thread reads them
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();  // every thread is done with the tiles before they are refilled
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

int main() {
  naive<<<dim3(2, 2), dim3(16, 16)>>>(nullptr, nullptr, nullptr, 32, 32, 32);
  tiled<<<dim3(4, 4), dim3(TILE, TILE)>>>(nullptr, nullptr, nullptr, 32, 32, 32);
  return 0;
}
