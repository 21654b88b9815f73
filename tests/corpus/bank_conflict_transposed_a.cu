// As stored transposed (As[tx][ty]) and read as As[k][ty]: C is right, but the store's lanes
// write words TILE apart, eight of them to one bank.
// expect: C right
// expect warning: bank_conflict shared - @store
#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_row = blockIdx.y * TILE + tx;  // this thread loads A's element (a_row, t·TILE + ty)
    As[tx][ty] = (a_row < M && t * TILE + ty < K) ? A[a_row * K + t * TILE + ty] : 0.0f;  // @store
    Bs[ty][tx] = (t * TILE + ty < K && col < N) ? B[(t * TILE + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

int main() { matmul<<<dim3(64, 64), dim3(TILE, TILE)>>>(0, 0, 0, 1024, 1024, 1024); }
