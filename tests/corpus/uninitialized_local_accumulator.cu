// The accumulator is declared but never set to zero (`float sum;`): the first product is
// added to whatever the register held. The model's registers start at zero, so C may even
// come out right here; on the GPU the register holds what it held before. The check names
// the read of the never-written local, at its line.
// expect: C right
// expect: uninitialized_read local - @acc
#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = (row < M && t * TILE + tx < K) ? A[row * K + t * TILE + tx] : 0.0f;
    Bs[ty][tx] = (t * TILE + ty < K && col < N) ? B[(t * TILE + ty) * N + col] : 0.0f;
    __syncthreads();  // the tiles are whole before anyone reads them
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];  // @acc
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

int main() { matmul<<<dim3(64, 64), dim3(TILE, TILE)>>>(0, 0, 0, 1024, 1024, 1024); }
