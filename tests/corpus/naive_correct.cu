// The naive kernel: one thread per element of C, its row of A times its column of B.
// expect: C right
__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; k++) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

int main() {
  naive<<<dim3(64, 64), dim3(16, 16)>>>(nullptr, nullptr, nullptr, 1024, 1024, 1024);
}
