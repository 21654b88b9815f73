// 10_async_copy.cu — B's slice copied straight into shared memory, and no guards inside.
//
// What it teaches: in 09 every global load of the next slice lands in registers that the
// compiler must keep alive across the slice's FMAs, and then a shared store moves it on.
// B needs no rearranging, so here cp.async copies it from global to shared memory
// directly (LDGSTS: no staging registers, no store; the copy completes on its own while the
// FMAs run, and a wait before the slice's barrier makes it visible). A still passes through
// registers, because it is stored transposed. And a block whose tiles lie wholly inside
// the matrices (all but the edge blocks) runs a copy of the loop without bounds checks:
// the guarded loop stays for the edges, so any M, N, K is still right.
//
// Tile: BM×BN = 128×128, BK = 8, warp tile 32×64, 8×8 per thread, 256 threads, 2 shared
// buffers. Global loads per FMA as 09: 1/BM + 1/BN = 1/64 floats (B's as 16-byte cp.async
// copies); shared loads per FMA as 09: (TM + TN)/(TM·TN) = 1/4 floats, 1/16 LDS.128.
// Global sectors: B's copies count under Nsight's ldgsts sectors, not its ld sectors
// (scripts/ladder-counters.sh adds the two).
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#10-async_copy
// Run it: `tilescope bench --kernels async_copy`.
#pragma once
#include "09_double_buffered.cu"

namespace async_copy {
using double_buffered::kBuffers;
using double_buffered::kLanesM;
using double_buffered::kLanesN;
using double_buffered::kPad;
using double_buffered::kSub;

template <int BM, int BN, int BK, int WM, int WN>
using Tiling = double_buffered::Tiling<BM, BN, BK, WM, WN>;

// Twice the accumulators in registers: room for the fragments and addresses without
// spilling (an 8×8 micro-tile: 128, so two 256-thread blocks fit an SM).
template <int BM, int BN, int BK, int WM, int WN>
constexpr int MinBlocks() {
  using T = Tiling<BM, BN, BK, WM, WN>;
  return ladder::BlocksWithin(T::kThreads, 2 * T::kTM * T::kTN);
}

// The block's two shared buffers, declared once in the kernel: each of Accumulate's two
// instantiations (guarded or not) declaring its own would double the block's shared memory.
template <int BM, int BN, int BK>
struct Buffers {
  float as[kBuffers][BK][BM + kPad];  // transposed and padded (07)
  float bs[kBuffers][BK][BN];
};

// True when the block's tiles of A, B and C lie wholly inside their matrices and their
// rows are 16-byte aligned: then no load or store needs a bounds check.
template <int BM, int BN, int BK>
__device__ __forceinline__ bool Interior(const float* A, const float* B, const float* C, int M, int N, int K,
                                         int block_row, int block_col, int k_begin, int k_end) {
  return block_row + BM <= M && block_col + BN <= N && (k_end - k_begin) % BK == 0 && ladder::VectorAligned(A, K) &&
         ladder::VectorAligned(B, N) && ladder::VectorAligned(C, N);
}

// 09's loop, with B's next slice copied by cp.async into the free buffer (no staging
// registers, no shared store) and, where kGuarded is false, A's and B's loads unchecked.
template <int BM, int BN, int BK, int WM, int WN, bool kGuarded>
__device__ __forceinline__ void Accumulate(
    Buffers<BM, BN, BK>& shared, const float* __restrict__ A, const float* __restrict__ B, int M, int N, int K,
    int block_row, int block_col, int k_begin, int k_end,
    float (&acc)[Tiling<BM, BN, BK, WM, WN>::kTM][Tiling<BM, BN, BK, WM, WN>::kTN]) {
  using T = Tiling<BM, BN, BK, WM, WN>;
  using ladder::kVec;
  const int2 origin = double_buffered::ThreadOrigin<BN, WM, WN>();
  const bool a_aligned = ladder::VectorAligned(A, K);
  const bool b_aligned = ladder::VectorAligned(B, N);
  float4 staged_a[T::kLoadsA];  // A must pass through registers: a copy cannot transpose it
  const auto load_slice = [&](int k0, int buffer) {
#pragma unroll
    for (int l = 0; l < T::kLoadsA; ++l) {
      const int c = threadIdx.x + l * T::kThreads;
      const int row = block_row + c / (BK / kVec);
      const int col = k0 + c % (BK / kVec) * kVec;
      staged_a[l] = kGuarded ? ladder::LoadFloat4Guarded(A, M, K, row, col, a_aligned)
                             : *reinterpret_cast<const float4*>(A + row * K + col);
    }
#pragma unroll
    for (int l = 0; l < T::kLoadsB; ++l) {
      const int c = threadIdx.x + l * T::kThreads;
      const int k = c / (BN / kVec);
      const int n = c % (BN / kVec) * kVec;
      float* target = &shared.bs[buffer][k][n];
      if (kGuarded) {
        ladder::CopyFloat4Async(target, B, K, N, k0 + k, block_col + n, b_aligned);
      } else {
        ladder::CopyAsync16(target, B + (k0 + k) * N + block_col + n, 16);
      }
    }
    ladder::CommitCopies();
  };
  const auto store_slice = [&](int buffer) {
#pragma unroll
    for (int l = 0; l < T::kLoadsA; ++l) {
      const int c = threadIdx.x + l * T::kThreads;
      const int m = c / (BK / kVec);
      const int k = c % (BK / kVec) * kVec;
      shared.as[buffer][k + 0][m] = staged_a[l].x;
      shared.as[buffer][k + 1][m] = staged_a[l].y;
      shared.as[buffer][k + 2][m] = staged_a[l].z;
      shared.as[buffer][k + 3][m] = staged_a[l].w;
    }
    ladder::WaitCopies<0>();  // this thread's part of B; the barrier after it makes all of B visible
  };
  alignas(16) float a[2][T::kTM];  // fragments of steps k (in use) and k+1 (arriving)
  alignas(16) float b[2][T::kTN];
  const auto load_fragments = [&](int buffer, int k, int slot) {
#pragma unroll
    for (int q = 0; q < T::kQuadsM; ++q) {
      *reinterpret_cast<float4*>(&a[slot][q * kSub]) =
          *reinterpret_cast<const float4*>(&shared.as[buffer][k][origin.x + q * kLanesM * kSub]);
    }
#pragma unroll
    for (int q = 0; q < T::kQuadsN; ++q) {
      *reinterpret_cast<float4*>(&b[slot][q * kSub]) =
          *reinterpret_cast<const float4*>(&shared.bs[buffer][k][origin.y + q * kLanesN * kSub]);
    }
  };
  const auto outer_product = [&](int slot) {
#pragma unroll
    for (int i = 0; i < T::kTM; ++i) {
#pragma unroll
      for (int j = 0; j < T::kTN; ++j) acc[i][j] = fmaf(a[slot][i], b[slot][j], acc[i][j]);
    }
  };
  const int slices = (k_end - k_begin + BK - 1) / BK;
  load_slice(k_begin, 0);
  store_slice(0);
  // Slice 0 must be complete in shared memory before any thread reads it.
  __syncthreads();
  load_fragments(0, 0, 0);
  for (int t = 0; t < slices; ++t) {
    const int buffer = t % kBuffers;
    const bool more = t + 1 < slices;
    // Into the buffer slice t-1 used: every thread finished reading it before the last barrier.
    if (more) load_slice(k_begin + (t + 1) * BK, 1 - buffer);
#pragma unroll
    for (int k = 0; k + 1 < BK; ++k) {
      load_fragments(buffer, k + 1, (k + 1) % 2);
      outer_product(k % 2);
    }
    if (more) store_slice(1 - buffer);
    // One barrier per slice, as in 09.
    __syncthreads();
    if (more) load_fragments(1 - buffer, 0, 0);
    outer_product((BK - 1) % 2);
  }
}

// The block's part of C from A(block rows, k_begin…k_end) · B(k_begin…k_end, block columns):
// the unchecked loop where the block lies inside, the guarded one at the edges.
template <int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void AccumulateBlock(
    Buffers<BM, BN, BK>& shared, const float* A, const float* B, const float* C, int M, int N, int K, int block_row,
    int block_col, int k_begin, int k_end,
    float (&acc)[Tiling<BM, BN, BK, WM, WN>::kTM][Tiling<BM, BN, BK, WM, WN>::kTN]) {
  if (Interior<BM, BN, BK>(A, B, C, M, N, K, block_row, block_col, k_begin, k_end)) {
    Accumulate<BM, BN, BK, WM, WN, false>(shared, A, B, M, N, K, block_row, block_col, k_begin, k_end, acc);
  } else {
    Accumulate<BM, BN, BK, WM, WN, true>(shared, A, B, M, N, K, block_row, block_col, k_begin, k_end, acc);
  }
}
}  // namespace async_copy

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(async_copy::Tiling<BM, BN, BK, WM, WN>::kThreads,
                                  async_copy::MinBlocks<BM, BN, BK, WM, WN>())
    async_copy_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  using T = async_copy::Tiling<BM, BN, BK, WM, WN>;
  __shared__ __align__(16) async_copy::Buffers<BM, BN, BK> shared;
  float acc[T::kTM][T::kTN] = {};
  async_copy::AccumulateBlock<BM, BN, BK, WM, WN>(shared, A, B, C, M, N, K, blockIdx.y * BM, blockIdx.x * BN, 0, K,
                                                  acc);
  double_buffered::StoreTile<BM, BN, BK, WM, WN>(C, M, N, blockIdx.y * BM, blockIdx.x * BN, acc);
}
