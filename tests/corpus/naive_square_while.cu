// A square-only naive kernel with one size, a while loop and fmaf written out: correct.
// expect: C right
#define BLOCK 8
__global__ void square_matmul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int width) {
  unsigned r = blockIdx.y * BLOCK + threadIdx.y;
  unsigned q = blockIdx.x * BLOCK + threadIdx.x;
  if (r < width && q < width) {
    float acc = 0;
    int i = 0;
    while (i < width) {
      acc = fmaf(a[r * width + i], b[i * width + q], acc);
      ++i;
    }
    c[r * width + q] = acc;
  }
}

int main() {
  dim3 threads(BLOCK, BLOCK);
  square_matmul<<<dim3(128, 128), threads>>>(0, 0, 0, 1024);
}
