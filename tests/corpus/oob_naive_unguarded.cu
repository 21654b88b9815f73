// The naive kernel without its guard: at sizes that are not a multiple of the block, edge
// threads read past A's and B's rows and store past C, onto elements other threads store.
// expect: C wrong
// expect: out_of_bounds global - @a
// expect: out_of_bounds global - @c
// expect: race global WAW @c @c
__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    sum += A[row * K + k] * B[k * N + col];  // @a
  }
  C[row * N + col] = sum;  // @c
}

int main() { naive<<<dim3(32, 32), dim3(32, 32)>>>(0, 0, 0, 1024, 1024, 1024); }
