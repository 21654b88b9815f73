// B read as if it were stored column by column (B[col * K + k] for B[k * N + col]): the
// indices stay inside B at every size, so nothing is out of bounds, yet almost every element
// of C sums the wrong products.
// expect: C wrong
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  int k = 0;
  while (k < K) {
    sum += A[row * K + k] * B[col * K + k];
    k++;
  }
  C[row * N + col] = sum;
}

int main() {
  const int n = 512;
  dim3 block(16, 16);
  dim3 grid((n + 15) / 16, (n + 15) / 16);
  matmul<<<grid, block>>>(0, 0, 0, n, n, n);
}
