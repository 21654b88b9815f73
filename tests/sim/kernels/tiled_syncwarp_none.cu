// The handout's tiled kernel with barrier 1 syncwarp and barrier 2 none: one
// file per variant of the race lab, checked against the built-in lesson's hazards, reads and C.
#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + tx;
    const int b_row = t * TILE + ty;
    As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
    Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
    __syncwarp();  // the tiles stored before any thread reads them
    for (int k = 0; k < TILE; ++k) {
      sum += As[ty][k] * Bs[k][tx];
    }
    // (no barrier here)
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
