// The register tile is declared acc[4][2] where the loops index it acc[i][j] with i < 2 and
// j < 4: the extents are swapped. Every flat index (i·2 + j, at most 5) is inside the 8
// registers, but j = 2 and 3 are outside the inner extent 2, and acc[0][2] is acc[1][0]:
// two elements of C share a register and C is wrong. One size and grid, small enough that
// the accumulation's findings leave room in the model's finding log for the store's.
// expect: C wrong
// expect: out_of_bounds local - @accumulate
// expect: out_of_bounds local - @store
// check: sizes=32 grid=1,2,1 block=16x8
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 2;
  int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  float acc[4][2] = {0.0f};
  for (int k = 0; k < K; ++k) {
    for (int i = 0; i < 2; ++i) {
      float a = row0 + i < M ? A[(row0 + i) * K + k] : 0.0f;
      for (int j = 0; j < 4; ++j) {
        float b = col0 + j < N ? B[k * N + col0 + j] : 0.0f;
        acc[i][j] += a * b;  // @accumulate
      }
    }
  }
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (row0 + i < M && col0 + j < N) C[(row0 + i) * N + col0 + j] = acc[i][j];  // @store
    }
  }
}

int main() { matmul<<<dim3(16, 64), dim3(16, 8)>>>(0, 0, 0, 1024, 1024, 1024); }
