// A's row walked with N instead of K: right only where K == N (a square size), wrong elsewhere.
// expect: C wrong
// expect: out_of_bounds global - @a
__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * N + k] * B[k * N + col];  // @a
    C[row * N + col] = sum;
  }
}

int main() { naive<<<dim3(64, 64), dim3(16, 16)>>>(0, 0, 0, 1024, 1024, 1024); }
