// A kernel a sweep cannot time: it writes its result into B, so it takes no C (bench --student refuses it).
__global__ void square_in_place(const float* A, float* B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * N) B[i] = A[i] * A[i];
}
int main() { square_in_place<<<4, 64>>>(0, 0, 16); }
