// A student's kernel that writes 4 GiB past the end of C: on the model an out-of-bounds
// store, on the GPU an illegal address, which ends the GPU worker; the check goes on.
__global__ void far_store(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  C[row * N + col + (1 << 30)] = A[row * K] * B[col];
}
int main() { far_store<<<dim3(4, 4), dim3(8, 8)>>>(0, 0, 0, 32, 32, 32); }
