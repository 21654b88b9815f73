// One thread per element of C, counted along a flat index: the grid is rounded up to whole
// blocks, and without `if (idx < M * N)` the threads past the end read A and B beyond their
// rows and write C past its last element.
// expect: C right
// expect: out_of_bounds global - @load_a
// expect: out_of_bounds global - @store_c
// check: sizes=30 grid=8,1,1 block=128
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int row = idx / N;
  int col = idx % N;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k];  // @load_a
    sum += a * B[k * N + col];
  }
  C[idx] = sum;  // @store_c
}
