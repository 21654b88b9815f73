// Right, with a little register tiling: each thread keeps two columns of C in a local array
// (acc[2]) and the tile of B it reads them from is twice as wide. Guards on every load and
// the store, both barriers in place. Its one weakness: the two rows of Bs a warp stores are
// 32 floats apart, so they hit the same banks (a 2-way conflict, a warning).
// expect: C right
// expect warning: bank_conflict shared - @load_b
// check: block=16x16
#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][2 * TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col0 = blockIdx.x * 2 * TILE + tx;
  float acc[2] = {0.0f, 0.0f};
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ka = t * TILE + tx, kb = t * TILE + ty;
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      int c = col0 + j * TILE;
      Bs[ty][tx + j * TILE] = (kb < K && c < N) ? B[kb * N + c] : 0.0f;  // @load_b
    }
    __syncthreads();  // the tiles are whole before anyone reads them
    for (int k = 0; k < TILE; ++k) {
      float a = As[ty][k];
      acc[0] += a * Bs[k][tx];
      acc[1] += a * Bs[k][tx + TILE];
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
