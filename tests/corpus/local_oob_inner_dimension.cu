// Each thread keeps a 2×4 tile of C in acc[2][4] and stores it as if the array were flat:
// acc[0][e] for e up to 7. The flat index never leaves the array's 8 registers, so C comes
// out right (acc[0][5] lands on acc[1][1]), yet 4 to 7 are outside the declared extent 4 of
// the inner dimension, which C does not allow: the check names the index at its line.
// expect: C right
// expect: out_of_bounds local - @store
// check: block=16x8
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 2;
  int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  float acc[2][4] = {0.0f};
  for (int k = 0; k < K; ++k) {
    for (int i = 0; i < 2; ++i) {
      float a = row0 + i < M ? A[(row0 + i) * K + k] : 0.0f;
      for (int j = 0; j < 4; ++j) {
        float b = col0 + j < N ? B[k * N + col0 + j] : 0.0f;
        acc[i][j] += a * b;
      }
    }
  }
  for (int e = 0; e < 8; ++e) {
    int row = row0 + e / 4, col = col0 + e % 4;
    if (row < M && col < N) C[row * N + col] = acc[0][e];  // @store
  }
}

int main() { matmul<<<dim3(16, 64), dim3(16, 8)>>>(0, 0, 0, 1024, 1024, 1024); }
