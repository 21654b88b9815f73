// A kernel with an int parameter that is not a size: `tilescope check` must name it and say how to bind it.
__global__ void scaled(const float* A, const float* B, float* C, int M, int N, int K, int extra) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) C[row * N + col] = extra;
}
int main() { scaled<<<dim3(1, 1), dim3(8, 8)>>>(0, 0, 0, 8, 8, 8, 1); }
