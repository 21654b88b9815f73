// Register tiling over two columns with a local array the student zeroes only in part: the
// loop that clears acc[] runs `j < 1` where it meant `j < 2`, so acc[1] is read (+=) before
// anything was written to it.
// expect: C right
// expect: uninitialized_read local - @second
// expect warning: bank_conflict shared - @load_b
// check: block=16x16
#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][2 * TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col0 = blockIdx.x * 2 * TILE + tx;
  float acc[2];
  for (int j = 0; j < 1; ++j) acc[j] = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ka = t * TILE + tx, kb = t * TILE + ty;
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    for (int j = 0; j < 2; ++j) {
      int c = col0 + j * TILE;
      Bs[ty][tx + j * TILE] = (kb < K && c < N) ? B[kb * N + c] : 0.0f;  // @load_b
    }
    __syncthreads();  // the tiles are whole before anyone reads them
    for (int k = 0; k < TILE; ++k) {
      float a = As[ty][k];
      for (int j = 0; j < 2; ++j) acc[j] += a * Bs[k][tx + j * TILE];  // @second
    }
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  for (int j = 0; j < 2; ++j) {
    int c = col0 + j * TILE;
    if (row < M && c < N) C[row * N + c] = acc[j];
  }
}

int main() {
  dim3 block(TILE, TILE);
  dim3 grid((1024 + 2 * TILE - 1) / (2 * TILE), (1024 + TILE - 1) / TILE);
  matmul<<<grid, block>>>(0, 0, 0, 1024, 1024, 1024);
}
