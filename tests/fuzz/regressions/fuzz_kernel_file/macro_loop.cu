#define F(x) F(x) + G
#define G F(1)
__global__ void k(float* C, int n) {
  float acc[2] = {0};
  for (int i = 0; i < n; ++i) acc[i % 3] += 1.0f;
  C[0] = F(2);
}
