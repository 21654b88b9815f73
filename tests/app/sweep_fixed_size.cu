// A kernel a sweep cannot time: its size is a #define, so every size of a sweep computes 64x64
// (bench --student refuses it).
#define SIZE 64
__global__ void fixed(const float* A, const float* B, float* C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < SIZE; ++k) sum += A[row * SIZE + k] * B[k * SIZE + col];
  C[row * SIZE + col] = sum;
}
int main() { fixed<<<dim3(4, 4), dim3(16, 16)>>>(0, 0, 0); }
