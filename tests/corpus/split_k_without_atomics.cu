// Split-K by hand: blockIdx.z takes a slice of K and adds its part into C, with no atomics.
// Blocks of different slices read and write the same element of C with nothing ordering them.
// expect: C wrong
// expect: race global RAW @c @c
// expect: race global WAW @c @c
// check: grid=auto,auto,2
#define SPLITS 2
__global__ void split_k(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int part = (K + SPLITS - 1) / SPLITS;
  int begin = blockIdx.z * part;
  int end = min(K, begin + part);
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = begin; k < end; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] += sum;  // @c
  }
}

int main() { split_k<<<dim3(64, 64, SPLITS), dim3(16, 16)>>>(0, 0, 0, 1024, 1024, 1024); }
