// 12_all_async.cu — A copied by cp.async too: no global load waits in a register.
//
// What it teaches: 11 still moves A's next slice through registers: loaded at the start of
// a slice, held across the thread's 1,024 FMAs, stored transposed at the end. With 255
// registers in use that load shapes how ptxas schedules the whole slice: in a leaner
// version of 11's loop (the one below, A still through registers) ptxas issued A's loads
// late in the slice, so the stores after them waited for global memory, and it ran no
// faster than 11. Here A's slice, like B's, is copied by cp.async into shared memory as it
// lies (row-major, a staging area); at the end of the slice each thread reads back the
// very chunk it copied (its own copy: its wait is enough, no barrier) and stores it
// transposed into As. No global load holds a register across the FMAs. The loop is leaner
// too: each thread walks one pointer into A and one into B (no index arithmetic per
// copy), and the last slice is peeled off so that the loop body has no branch.
//
// Tile: BM×BN = 128×256, BK = 8, warp tile 64×64, 16×8 per thread, 256 threads, 2 shared
// buffers plus one staging area for A. Global loads per FMA as 11: 1/BM + 1/BN = 3/256
// floats (A's and B's as 16-byte cp.async copies); shared loads per FMA as 11,
// (TM + TN)/(TM·TN) = 3/16 floats in 3/64 LDS.128, plus A's read-back from the staging
// area, BM·BK floats per BM·BN·BK FMAs: 1/BN = 1/256 floats, 1/1024 LDS.128.
// Small grids: 11's path (10's 128×128 tile, K split over a cluster). One block per SM.
// ptxas puts three predicated-off `@!PT LDS` per slice and warp before the cp.async copies:
// never executed, yet Nsight Compute counts them as issued shared loads (11 has them too).
// Measured on the H100, and what was tried and not kept: docs/results/ladder-notes.md#12-all_async
// Run it: `tilescope bench --kernels all_async`.
#pragma once
#include "10_async_copy.cu"

namespace all_async {
// Who copies what. Neighbouring lanes copy neighbouring 16-byte chunks, so a warp's copy
// instruction reads whole 32-byte sectors: for A (BK/4 chunks per row) thread t copies
// chunk t of the slice; for B a warp covers 32 consecutive chunks of one row and each of
// its kCopiesB copies is the next 32. One pointer per matrix and constant offsets then
// address all of a thread's copies.
template <int BM, int BN, int BK, int WM, int WN>
struct Copies {
  using T = async_copy::Tiling<BM, BN, BK, WM, WN>;
  static constexpr int kChunksA = BK / ladder::kVec;  // float4 per row of A's slice
  static constexpr int kCopiesB = BK * BN / ladder::kVec / T::kThreads;
  static constexpr int kThreadsPerRowB = BN / ladder::kVec / kCopiesB;
  static_assert(BM * BK == T::kThreads * ladder::kVec, "A: one float4 per thread");
  static_assert(kThreadsPerRowB == double_buffered::kWarp && T::kThreads / kThreadsPerRowB == BK,
                "B: a warp per row of the slice");
};

// A's slice as it lies in global memory. Unpadded: the read-back's 8 lanes of a phase
// (4 rows, both halves of each) read 128 consecutive bytes, one pass through the banks.
template <int BM, int BK>
struct Staging {
  float a[BM][BK];
};

// 10's double-buffered loop for a block that lies wholly inside the matrices (rows 16-byte
// aligned, K a multiple of BK, at least one slice), with both A and B copied by cp.async.
template <int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void AccumulateInterior(
    async_copy::Buffers<BM, BN, BK>& shared, Staging<BM, BK>& staging, const float* __restrict__ A,
    const float* __restrict__ B, int N, int K, int block_row, int block_col,
    float (&acc)[async_copy::Tiling<BM, BN, BK, WM, WN>::kTM][async_copy::Tiling<BM, BN, BK, WM, WN>::kTN]) {
  using C = Copies<BM, BN, BK, WM, WN>;
  using T = typename C::T;
  using async_copy::kLanesM;
  using async_copy::kLanesN;
  using async_copy::kSub;
  using ladder::kVec;
  const int tid = static_cast<int>(threadIdx.x);
  const int2 origin = double_buffered::ThreadOrigin<BN, WM, WN>();
  const int a_row = tid / C::kChunksA;
  const int a_col = tid % C::kChunksA * kVec;
  const int b_row = tid / C::kThreadsPerRowB;
  const int b_col = tid % C::kThreadsPerRowB * kVec;
  const float* a_next = A + static_cast<long long>(block_row + a_row) * K + a_col;
  const float* b_next = B + static_cast<long long>(b_row) * N + block_col + b_col;
  const long long b_step = static_cast<long long>(BK) * N;
  const auto copy_slice = [&](int buffer) {
    ladder::CopyAsync16(&staging.a[a_row][a_col], a_next, 16);
#pragma unroll
    for (int l = 0; l < C::kCopiesB; ++l) {
      constexpr int kStride = C::kThreadsPerRowB * kVec;  // the floats a warp's copy covers
      ladder::CopyAsync16(&shared.bs[buffer][b_row][b_col + l * kStride], b_next + l * kStride, 16);
    }
    ladder::CommitCopies();
    a_next += BK;
    b_next += b_step;
  };
  const auto transpose_slice = [&](int buffer) {
    ladder::WaitCopies<0>();  // this thread's copies, A's among them: it reads back only its own
    // Lanes 2r and 2r+1 store k 0…3 and 4…7 of row r: 132-word rows put them 16 banks apart.
    const float4 v = *reinterpret_cast<const float4*>(&staging.a[a_row][a_col]);
    shared.as[buffer][a_col + 0][a_row] = v.x;
    shared.as[buffer][a_col + 1][a_row] = v.y;
    shared.as[buffer][a_col + 2][a_row] = v.z;
    shared.as[buffer][a_col + 3][a_row] = v.w;
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
  // Steps 0 … BK-2 of a slice, each loading the next step's fragments first.
  const auto slice_steps = [&](int buffer) {
#pragma unroll
    for (int k = 0; k + 1 < BK; ++k) {
      load_fragments(buffer, k + 1, (k + 1) % 2);
      outer_product(k % 2);
    }
  };
  copy_slice(0);
  transpose_slice(0);
  // Slice 0 must be complete in shared memory before any thread reads it.
  __syncthreads();
  load_fragments(0, 0, 0);
  int buffer = 0;
  for (int t = K / BK - 1; t > 0; --t) {
    // Into the buffers the previous slice used (and the staging area, which only this
    // thread's own read-back touched): every thread finished reading them before the last
    // barrier.
    copy_slice(buffer ^ 1);
    slice_steps(buffer);
    transpose_slice(buffer ^ 1);
    // One barrier per slice, as in 09: the next slice complete, this one no longer read.
    __syncthreads();
    load_fragments(buffer ^ 1, 0, 0);
    outer_product((BK - 1) % 2);
    buffer ^= 1;
  }
  // The last slice, peeled off so that the loop above needs no test for a next slice.
  slice_steps(buffer);
  outer_product((BK - 1) % 2);
}
}  // namespace all_async

// The edge blocks (and unaligned matrices) run 10's guarded loop.
template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(async_copy::Tiling<BM, BN, BK, WM, WN>::kThreads,
                                  async_copy::MinBlocks<BM, BN, BK, WM, WN>())
    all_async_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  using T = async_copy::Tiling<BM, BN, BK, WM, WN>;
  __shared__ __align__(16) async_copy::Buffers<BM, BN, BK> shared;
  __shared__ __align__(16) all_async::Staging<BM, BK> staging;
  const int block_row = static_cast<int>(blockIdx.y) * BM;
  const int block_col = static_cast<int>(blockIdx.x) * BN;
  float acc[T::kTM][T::kTN] = {};
  if (K >= BK && async_copy::Interior<BM, BN, BK>(A, B, C, M, N, K, block_row, block_col, 0, K)) {
    all_async::AccumulateInterior<BM, BN, BK, WM, WN>(shared, staging, A, B, N, K, block_row, block_col, acc);
  } else {
    async_copy::Accumulate<BM, BN, BK, WM, WN, true>(shared, A, B, M, N, K, block_row, block_col, 0, K, acc);
  }
  double_buffered::StoreTile<BM, BN, BK, WM, WN>(C, M, N, block_row, block_col, acc);
}
