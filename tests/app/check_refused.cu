// A kernel with a double: `tilescope check` refuses it at its line and column, status 2.
__global__ void k(const float* A, float* C) {
  double x = A[0];
  C[0] = x;
}
