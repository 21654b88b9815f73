// A 1-D register-tiled kernel in the SGEMM_CUDA style: pointers moved along their arrays,
// a template tile, a local accumulator array, each thread computing TM results of a column.
template <int BM, int BN, int BK, int TM>
__global__ void sgemm_1d_blocktiling(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C) {
  const unsigned c_row = blockIdx.y;
  const unsigned c_col = blockIdx.x;
  const int thread_col = threadIdx.x % BN;
  const int thread_row = threadIdx.x / BN;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += c_row * BM * K;
  B += c_col * BN;
  C += c_row * BM * N + c_col * BN;
  const unsigned inner_col_a = threadIdx.x % BK;
  const unsigned inner_row_a = threadIdx.x / BK;
  const unsigned inner_col_b = threadIdx.x % BN;
  const unsigned inner_row_b = threadIdx.x / BN;
  float thread_results[TM] = {0.0f};
  for (unsigned bk = 0; bk < K; bk += BK) {
    As[inner_row_a * BK + inner_col_a] = A[inner_row_a * K + inner_col_a];
    Bs[inner_row_b * BN + inner_col_b] = B[inner_row_b * N + inner_col_b];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (unsigned dot = 0; dot < BK; ++dot) {
      const float b_tmp = Bs[dot * BN + thread_col];
      for (unsigned r = 0; r < TM; ++r) {
        thread_results[r] += As[(thread_row * TM + r) * BK + dot] * b_tmp;
      }
    }
    __syncthreads();
  }
  for (unsigned r = 0; r < TM; ++r) {
    C[(thread_row * TM + r) * N + thread_col] = thread_results[r];
  }
}

int main() {
  const int n = 256;
  dim3 grid(n / 64, n / 64);
  sgemm_1d_blocktiling<64, 64, 8, 8><<<grid, 512>>>(n, n, n, nullptr, nullptr, nullptr);
  return 0;
}
