// Two blocks along x compute the same C columns, each half of K, and store (not add) their
// part: the last store wins, and the two blocks race on every element.
// check: sizes=32 grid=4,2,1 block=16x16
// expect: C wrong
// expect: race global WAW @c @c
__global__ void halves(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = (blockIdx.x / 2) * blockDim.x + threadIdx.x;
  int half = blockIdx.x % 2;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = half * (K / 2); k < (half + 1) * (K / 2) + half * (K % 2); ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;  // @c
  }
}
