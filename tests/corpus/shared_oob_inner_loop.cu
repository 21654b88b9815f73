// The inner loop runs k <= TILE: one step past the tiles, As[ty][TILE] lands on the next row's
// first word (inside shared memory), Bs[TILE][tx] past both arrays. C comes out right only because
// the read past both arrays gives 0 here: the error stands.
// expect: C right
// expect: out_of_bounds shared - @fma
#define TILE 8
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = (row < M && t * TILE + tx < K) ? A[row * K + t * TILE + tx] : 0.0f;
    Bs[ty][tx] = (t * TILE + ty < K && col < N) ? B[(t * TILE + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k <= TILE; ++k) sum += As[ty][k] * Bs[k][tx];  // @fma
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

int main() { matmul<<<dim3(128, 128), dim3(TILE, TILE)>>>(0, 0, 0, 1024, 1024, 1024); }
