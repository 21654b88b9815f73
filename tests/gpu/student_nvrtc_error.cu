// A kernel the model runs but NVRTC refuses: the model skips __launch_bounds__'s argument,
// NVRTC needs it to be a constant it knows. The check names NVRTC's message at its line.
__global__ __launch_bounds__(THREADS_PER_BLOCK) void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}
int main() { naive<<<dim3(4, 4), dim3(8, 8)>>>(0, 0, 0, 32, 32, 32); }
