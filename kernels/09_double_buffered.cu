// 09_double_buffered.cu — double buffering in shared memory and in registers.
//
// What it teaches: in 08 a block stops at each barrier until its tile has arrived from
// global memory, and the FMAs wait for their shared loads. Here the loads for slice t+1
// are issued into registers before the FMAs of slice t and stored into the other of two
// shared buffers after them, so one barrier per slice suffices and the memory latency
// hides behind 64·BK FMAs per thread; likewise the fragments for step k+1 come from
// shared memory while the FMAs of step k run, and the last step's FMAs run after the
// barrier, behind the first shared loads of the next slice.
//
// Tile: BM×BN = 128×128, BK = 8, warp tile 32×64, 8×8 per thread, 256 threads, 2 shared
// buffers. Global and shared loads per FMA as in 08 (1/64 and 1/4 floats).
// Measured on the H100, with dates and sources: docs/results/ladder-notes.md#09-double_buffered
// Run it: `tilescope bench --kernels double_buffered`.
#pragma once
#include "ladder_common.cuh"

namespace double_buffered {
constexpr int kWarp = 32;
constexpr int kLanesM = 4;  // a warp's lanes: 4 rows × 8 columns of threads
constexpr int kLanesN = 8;
constexpr int kSub = 4;  // a quadrant's edge: one float4
constexpr int kPad = 4;  // words added to each As row (07)
constexpr int kBuffers = 2;

// The shapes that follow from a block tile BM×BN×BK cut into warp tiles WM×WN.
template <int BM, int BN, int BK, int WM, int WN>
struct Tiling {
  static constexpr int kThreads = BM / WM * BN / WN * kWarp;
  static constexpr int kQuadsM = WM / (kLanesM * kSub);  // quadrants per thread along M and N
  static constexpr int kQuadsN = WN / (kLanesN * kSub);
  static constexpr int kTM = kQuadsM * kSub;  // the thread's micro-tile
  static constexpr int kTN = kQuadsN * kSub;
  static constexpr int kLoadsA = BM * BK / ladder::kVec / kThreads;  // float4 each thread carries per slice
  static constexpr int kLoadsB = BK * BN / ladder::kVec / kThreads;
  static_assert(kLoadsA * kThreads * ladder::kVec == BM * BK && kLoadsB * kThreads * ladder::kVec == BK * BN,
                "the threads must share each tile's float4 evenly");
  static_assert(BK % 2 == 0, "the fragment slots alternate, so slice t+1 starts in slot 0");
};

// Where the thread's micro-tile starts in the block tile: quadrant (qi, qj) at row
// row0 + qi·kLanesM·kSub, column col0 + qj·kLanesN·kSub.
template <int BN, int WM, int WN>
__device__ __forceinline__ int2 ThreadOrigin() {
  const int warp = threadIdx.x / kWarp;
  const int lane = threadIdx.x % kWarp;
  return make_int2(warp / (BN / WN) * WM + lane / kLanesN * kSub, warp % (BN / WN) * WN + lane % kLanesN * kSub);
}

// Accumulates A(block rows, k_begin…k_end) · B(k_begin…k_end, block columns) into the
// thread's micro-tile. k_begin is a multiple of BK; so is k_end unless it is K.
template <int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void Accumulate(
    const float* A, const float* B, int M, int N, int K, int block_row, int block_col, int k_begin, int k_end,
    float (&acc)[Tiling<BM, BN, BK, WM, WN>::kTM][Tiling<BM, BN, BK, WM, WN>::kTN]) {
  using T = Tiling<BM, BN, BK, WM, WN>;
  using ladder::kVec;
  __shared__ __align__(16) float As[kBuffers][BK][BM + kPad];  // transposed and padded (07)
  __shared__ __align__(16) float Bs[kBuffers][BK][BN];
  const int2 origin = ThreadOrigin<BN, WM, WN>();
  const bool a_aligned = ladder::VectorAligned(A, K);
  const bool b_aligned = ladder::VectorAligned(B, N);
  float4 staged_a[T::kLoadsA];  // the next slice, on its way from global to shared memory
  float4 staged_b[T::kLoadsB];
  const auto load_slice = [&](int k0) {
#pragma unroll
    for (int l = 0; l < T::kLoadsA; ++l) {
      const int c = threadIdx.x + l * T::kThreads;
      staged_a[l] =
          ladder::LoadFloat4Guarded(A, M, K, block_row + c / (BK / kVec), k0 + c % (BK / kVec) * kVec, a_aligned);
    }
#pragma unroll
    for (int l = 0; l < T::kLoadsB; ++l) {
      const int c = threadIdx.x + l * T::kThreads;
      staged_b[l] =
          ladder::LoadFloat4Guarded(B, K, N, k0 + c / (BN / kVec), block_col + c % (BN / kVec) * kVec, b_aligned);
    }
  };
  const auto store_slice = [&](int buffer) {
#pragma unroll
    for (int l = 0; l < T::kLoadsA; ++l) {
      const int c = threadIdx.x + l * T::kThreads;
      const int m = c / (BK / kVec);
      const int k = c % (BK / kVec) * kVec;
      As[buffer][k + 0][m] = staged_a[l].x;
      As[buffer][k + 1][m] = staged_a[l].y;
      As[buffer][k + 2][m] = staged_a[l].z;
      As[buffer][k + 3][m] = staged_a[l].w;
    }
#pragma unroll
    for (int l = 0; l < T::kLoadsB; ++l) {
      const int c = threadIdx.x + l * T::kThreads;
      *reinterpret_cast<float4*>(&Bs[buffer][c / (BN / kVec)][c % (BN / kVec) * kVec]) = staged_b[l];
    }
  };
  alignas(16) float a[2][T::kTM];  // fragments of steps k (in use) and k+1 (arriving)
  alignas(16) float b[2][T::kTN];
  const auto load_fragments = [&](int buffer, int k, int slot) {
#pragma unroll
    for (int q = 0; q < T::kQuadsM; ++q) {
      *reinterpret_cast<float4*>(&a[slot][q * kSub]) =
          *reinterpret_cast<const float4*>(&As[buffer][k][origin.x + q * kLanesM * kSub]);
    }
#pragma unroll
    for (int q = 0; q < T::kQuadsN; ++q) {
      *reinterpret_cast<float4*>(&b[slot][q * kSub]) =
          *reinterpret_cast<const float4*>(&Bs[buffer][k][origin.y + q * kLanesN * kSub]);
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
  load_slice(k_begin);
  store_slice(0);
  // Slice 0 must be complete in shared memory before any thread reads it.
  __syncthreads();
  load_fragments(0, 0, 0);
  for (int t = 0; t < slices; ++t) {
    const int buffer = t % kBuffers;
    const bool more = t + 1 < slices;
    if (more) load_slice(k_begin + (t + 1) * BK);  // in flight during the FMAs below
#pragma unroll
    for (int k = 0; k + 1 < BK; ++k) {
      load_fragments(buffer, k + 1, (k + 1) % 2);
      outer_product(k % 2);
    }
    if (more) store_slice(1 - buffer);
    // One barrier per slice: slice t+1 must be complete before anyone reads it, and every
    // thread must be done reading slice t's buffer before the next iteration refills it.
    __syncthreads();
    // The last step's FMAs run after the barrier, behind the first loads of slice t+1.
    if (more) load_fragments(1 - buffer, 0, 0);
    outer_product((BK - 1) % 2);
  }
}

// Stores the thread's micro-tile into C, the elements inside C only.
template <int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void StoreTile(
    float* C, int M, int N, int block_row, int block_col,
    const float (&acc)[Tiling<BM, BN, BK, WM, WN>::kTM][Tiling<BM, BN, BK, WM, WN>::kTN]) {
  using T = Tiling<BM, BN, BK, WM, WN>;
  const int2 origin = ThreadOrigin<BN, WM, WN>();
  const bool c_aligned = ladder::VectorAligned(C, N);
#pragma unroll
  for (int i = 0; i < T::kTM; ++i) {
    const int row = block_row + origin.x + i / kSub * kLanesM * kSub + i % kSub;
#pragma unroll
    for (int j = 0; j < T::kTN; j += kSub) {
      const float4 v = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      ladder::StoreFloat4Guarded(C, M, N, row, block_col + origin.y + j / kSub * kLanesN * kSub, v, c_aligned);
    }
  }
}
}  // namespace double_buffered

// 128 registers per thread keep two 256-thread blocks on an SM (16 warps to hide latency);
// left alone the compiler takes a few more and only one block fits.
template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(double_buffered::Tiling<BM, BN, BK, WM, WN>::kThreads,
                                  ladder::BlocksWithin(double_buffered::Tiling<BM, BN, BK, WM, WN>::kThreads, 128))
    double_buffered_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  using T = double_buffered::Tiling<BM, BN, BK, WM, WN>;
  float acc[T::kTM][T::kTN] = {};
  double_buffered::Accumulate<BM, BN, BK, WM, WN>(A, B, M, N, K, blockIdx.y * BM, blockIdx.x * BN, 0, K, acc);
  double_buffered::StoreTile<BM, BN, BK, WM, WN>(C, M, N, blockIdx.y * BM, blockIdx.x * BN, acc);
}
