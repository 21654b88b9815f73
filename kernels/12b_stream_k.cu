// 12b_stream_k.cu — any shape at 12's speed: zero-filled edge copies, K shared out by stream-K.
//
// What it teaches: 12 is as fast as cuBLAS where the matrices are multiples of its tile, and
// loses a third elsewhere, for two reasons. An edge block (and every block, where a row's
// length is not a multiple of 4 floats) runs 10's guarded loop, which loads A through
// registers and tests each element. And a grid of whole tiles leaves SMs idle: 561 tiles of
// 128×256 at 4097² are 4.25 waves on 132 SMs, so the fifth wave runs with a quarter of them.
//
// Edges without a slow path: cp.async takes the number of bytes to read and fills the rest of
// the copy with zeros. Every copy of A's and B's slices goes through one helper that counts
// how many of its 4 floats lie inside the matrix (all, none, or, for the last slice of K or
// the last tile's columns, some) and copies those, so an edge block runs the very loop an
// interior block runs: rows past M and columns past N multiply zeros, and only the store of
// C tests bounds. Where rows are not 16-byte aligned the same copies go 4 bytes at a time
// (the kernel is instantiated twice and the launcher picks one by the shape; one kernel
// holding both loops spilled registers): 4 copy instructions where 1 did, against the
// thread's 1,024 FMAs per slice.
//
// Stream-K for the waves: a tile's K is a row of slices, and the tiles' slices laid end to
// end are the whole multiplication's work. Where whole tiles would leave a wave part-empty,
// the launcher takes that part wave's count of tiles (with one full wave folded in, so each
// block gets between one and two tiles' worth), the first ones in C, and shares them out to
// one block per SM slot (two per SM with the small tile below), the grid's first blocks.
// Each of those takes an equal run of slices, which may begin in one tile and end in the
// next. A block that does not reach its tile's last slice leaves its partial sums in a global
// slot and raises a flag; the block that reaches the last slice waits for the flags of the
// blocks before it, adds their slots in a fixed order (the same C in every run) and stores the
// tile. A block walks its run from its end backwards, so it leaves its partial first and waits
// last, and it only ever waits for blocks with a lower index, which the GPU started before it.
// The remaining tiles are a block each, as in 12.
//
// Two tiles, chosen by shape: 12's 128×256 tile pads C's edges to multiples of 256 columns;
// at N = 1031 that is 24% more FMAs than C needs (5 tiles of 256 for 1031 columns). Where the
// padding costs more than the large tile saves, the launcher takes 10's 128×128 tile (warp
// tile 32×64, 8×8 per thread, two blocks per SM), which pads to multiples of 128. The choice
// is a cost model written once (SmallTilePays): each tile's padded FMAs over its speed.
//
// Copies: where rows are 16-byte aligned, each copy is one predicated cp.async, with a
// predicated zero store in its place for a chunk outside the matrix (no byte count, no
// stand-in address: fewer instructions per copy in the loop every interior block runs).
//
// Tile: as 12, BM×BN = 128×256, BK = 8, warp tile 64×64, 16×8 per thread, 256 threads, one
// block per SM; global and shared loads per FMA as 12 (the small tile: as 10, 1/64 global
// and 1/4 shared floats per FMA). A split tile adds one slot, the size of the tile, written
// and read once per block that shares it. The slots (20 MiB: 160 large or 320 small tiles)
// and flags are this module's global memory, so one launch of this kernel runs at a time.
// Measured on an H200: docs/results/h200-fp32-shapes-2026-11-28-b.txt
// Run it: `tilescope bench --kernels all_async,stream_k --sizes 4097,1031,1031x8191x2053`.
#pragma once
#include "12_all_async.cu"

namespace stream_k {
// The partial tiles' memory: 160 of 12's 128×256 tiles, one slot the size of the launch's
// tile per sharing block.
constexpr long long kSlotsFloats = 160LL * 128 * 256;
// The most blocks that share tiles (an SM slot each), one flag each: 160 large tiles' slots
// hold 320 small ones.
constexpr int kMaxBlocks = 320;
// The most blocks that may share tiles of `tile_floats` floats: a slot and a flag each.
constexpr int MaxSharingBlocks(int tile_floats) {
  return kSlotsFloats / tile_floats < kMaxBlocks ? static_cast<int>(kSlotsFloats / tile_floats) : kMaxBlocks;
}
// A grid of whole tiles that keeps at least this share of its waves' SM slots busy runs as
// such (powers of two: 128 tiles at 2048² on 132 SMs, 97%); below it, stream-K.
constexpr int kMinWavePercent = 95;
// Fewer slices than this per block would spend more on the hand-over than on the FMAs.
constexpr int kMinSlicesPerBlock = 8;

// The first `tiles` tiles (row-major over C's tiles) are shared by the first `blocks` blocks;
// each block after those computes one whole tile. No sharing: tiles = blocks = 0.
struct Plan {
  int tiles;
  int blocks;
};

// The plan for a grid of `tiles` tiles of `slices` slices each, `resident` blocks at a time,
// at most `max_blocks` of them sharing.
constexpr Plan PlanFor(long long tiles, long long slices, int resident, int max_blocks) {
  if (tiles <= 0 || slices <= 0 || resident <= 1) return {0, 0};
  const long long waves = (tiles + resident - 1) / resident;
  if (tiles * 100 >= waves * resident * kMinWavePercent) return {0, 0};
  const long long shared = tiles % resident + (tiles >= resident ? resident : 0);
  long long blocks = shared * slices / kMinSlicesPerBlock;
  if (blocks > resident) blocks = resident;
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks < 1) blocks = 1;
  return {static_cast<int>(shared), static_cast<int>(blocks)};
}

// The small tile's FMAs run at this share of the large tile's speed: it loads a third more
// from shared memory per FMA (1/4 against 3/16 floats). The median of small/large over the 16
// shapes of the results' grid where both tiles compute the same padded C, each tile forced, on
// an H200 (docs/results/h200-fp32-shapes-2026-11-28-b.txt).
constexpr int kSmallTileSpeedPercent = 93;

// C's elements a grid of bm×bn tiles computes, padding included.
constexpr long long PaddedElements(long long m, long long n, int bm, int bn) {
  return (m + bm - 1) / bm * bm * ((n + bn - 1) / bn * bn);
}

// True where the small tile's padded FMAs, at its lower speed, take less time than the large
// tile's (a tie keeps the large one): K is the same for both, so only C's padded area counts.
constexpr bool SmallTilePays(long long m, long long n, int large_bm, int large_bn, int small_bm, int small_bn) {
  return PaddedElements(m, n, small_bm, small_bn) * 100 <
         PaddedElements(m, n, large_bm, large_bn) * kSmallTileSpeedPercent;
}

// A block's partial tile, each thread's accumulators as float4 at a stride of the block's
// threads (coalesced), and the flag that says it is complete.
__device__ float4 g_partial_slots[kSlotsFloats / ladder::kVec];
__device__ int g_partial_ready[kMaxBlocks];

// How many of the 4 floats from column `col` of a row lie before `cols`: 0 to 4.
__device__ __forceinline__ int FloatsInside(int cols, int col) { return max(0, min(ladder::kVec, cols - col)); }

// Copies the 16 bytes at `source` to `target` where `inside`, else stores zeros there: one
// instruction or the other runs, by predicate, and `source` is not read when outside.
__device__ __forceinline__ void CopyOrZero16(float* target, const float* source, bool inside) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  *reinterpret_cast<float4*>(target) =
      inside ? *reinterpret_cast<const float4*>(source) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#else
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %2, 0;\n"
      "  @p cp.async.cg.shared.global [%0], [%1], 16;\n"
      "  @!p st.shared.v4.b32 [%0], {%3, %3, %3, %3};\n"
      "}\n" ::"r"(ladder::SharedAddress(target)),
      "l"(source), "r"(static_cast<int>(inside)), "r"(0)
      : "memory");
#endif
}

// Copies the first `count` of the 4 floats at `source` to `target` and zeros the rest; with
// `count` 0 nothing is read and `any` (a valid address) stands in for `source`. kVector: the
// chunk is 16-byte aligned and wholly inside or outside (count 0 or 4), one predicated copy.
template <bool kVector>
__device__ __forceinline__ void CopyChunk(float* target, const float* source, const float* any, int count) {
  if (kVector) {
    CopyOrZero16(target, source, count > 0);
  } else {
#pragma unroll
    for (int i = 0; i < ladder::kVec; ++i) {
      ladder::CopyAsync4(target + i, i < count ? source + i : any, i < count ? 4 : 0);
    }
  }
}

template <int BM, int BN, int BK, int WM, int WN>
using Accumulators = float[async_copy::Tiling<BM, BN, BK, WM, WN>::kTM][async_copy::Tiling<BM, BN, BK, WM, WN>::kTN];

// 12's loop over slices slice_begin … slice_end-1 of the tile at (block_row, block_col), for
// any block: each copy brings what lies inside the matrices and zeros for the rest.
template <int BM, int BN, int BK, int WM, int WN, bool kVector>
__device__ __forceinline__ void AccumulateSlices(async_copy::Buffers<BM, BN, BK>& shared,
                                                 all_async::Staging<BM, BK>& staging, const float* __restrict__ A,
                                                 const float* __restrict__ B, int M, int N, int K, int block_row,
                                                 int block_col, int slice_begin, int slice_end,
                                                 Accumulators<BM, BN, BK, WM, WN>& acc) {
  using C = all_async::Copies<BM, BN, BK, WM, WN>;
  using T = typename C::T;
  using async_copy::kLanesM;
  using async_copy::kLanesN;
  using async_copy::kSub;
  using ladder::kVec;
  constexpr int kStrideB = C::kThreadsPerRowB * kVec;  // the floats a warp's copy of B covers
  const int tid = static_cast<int>(threadIdx.x);
  const int2 origin = double_buffered::ThreadOrigin<BN, WM, WN>();
  const int a_row = tid / C::kChunksA;
  const int a_col = tid % C::kChunksA * kVec;
  const int b_row = tid / C::kThreadsPerRowB;
  const int b_col = tid % C::kThreadsPerRowB * kVec;
  const bool a_row_inside = block_row + a_row < M;
  // K left after this thread's chunk of A's slice begins, and N after each of its B chunks.
  int a_k_left = K - slice_begin * BK - a_col;
  int b_k_left = K - slice_begin * BK - b_row;
  const int b_cols_left = N - block_col - b_col;
  const float* a_next = A + static_cast<long long>(a_row_inside ? block_row + a_row : 0) * K + slice_begin * BK + a_col;
  const float* b_next = B + static_cast<long long>(slice_begin * BK + b_row) * N + block_col + b_col;
  const long long b_step = static_cast<long long>(BK) * N;
  const auto copy_slice = [&](int buffer) {
    CopyChunk<kVector>(&staging.a[a_row][a_col], a_next, A, a_row_inside ? FloatsInside(a_k_left, 0) : 0);
#pragma unroll
    for (int l = 0; l < C::kCopiesB; ++l) {
      CopyChunk<kVector>(&shared.bs[buffer][b_row][b_col + l * kStrideB], b_next + l * kStrideB, B,
                         b_k_left > 0 ? FloatsInside(b_cols_left, l * kStrideB) : 0);
    }
    ladder::CommitCopies();
    a_next += BK;
    b_next += b_step;
    a_k_left -= BK;
    b_k_left -= BK;
  };
  const auto transpose_slice = [&](int buffer) {
    ladder::WaitCopies<0>();  // this thread's copies, A's among them: it reads back only its own
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
  for (int t = slice_end - slice_begin - 1; t > 0; --t) {
    // Into the buffers the previous slice used: every thread finished reading them before the
    // last barrier.
    copy_slice(buffer ^ 1);
    slice_steps(buffer);
    transpose_slice(buffer ^ 1);
    // One barrier per slice, as in 09: the next slice complete, this one no longer read.
    __syncthreads();
    load_fragments(buffer ^ 1, 0, 0);
    outer_product((BK - 1) % 2);
    buffer ^= 1;
  }
  slice_steps(buffer);
  outer_product((BK - 1) % 2);
}

// Where a block's work lies in the shared tiles' slices laid end to end: [begin, end).
struct Run {
  long long begin;
  long long end;
};
__device__ __forceinline__ Run RunOf(int block, Plan plan, long long slices) {
  if (block < plan.blocks) {
    const long long work = plan.tiles * slices;
    return {block * work / plan.blocks, (block + 1) * work / plan.blocks};
  }
  const long long tile = plan.tiles + (block - plan.blocks);
  return {tile * slices, (tile + 1) * slices};
}

// Leaves the thread's accumulators in `block`'s slot, then (after every thread's) the flag.
template <int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void LeavePartial(const Accumulators<BM, BN, BK, WM, WN>& acc, int block) {
  using T = async_copy::Tiling<BM, BN, BK, WM, WN>;
  float4* slot = g_partial_slots + static_cast<long long>(block) * (BM * BN / ladder::kVec) + threadIdx.x;
#pragma unroll
  for (int i = 0; i < T::kTM; ++i) {
#pragma unroll
    for (int j = 0; j < T::kTN; j += ladder::kVec) {
      __stcg(slot + (i * T::kTN + j) / ladder::kVec * T::kThreads,
             make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
    }
  }
  // Every thread's part of the slot written before the flag says it is there; the release
  // makes what the barrier ordered visible to the GPU before the flag.
  __syncthreads();
  if (threadIdx.x == 0) asm volatile("st.release.gpu.global.s32 [%0], 1;\n" ::"l"(&g_partial_ready[block]) : "memory");
}

// Adds `block`'s slot to the thread's accumulators once its flag is up, and lowers the flag
// for the next launch.
template <int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void AddPartial(Accumulators<BM, BN, BK, WM, WN>& acc, int block) {
  using T = async_copy::Tiling<BM, BN, BK, WM, WN>;
  if (threadIdx.x == 0) {
    int ready = 0;
    do {
      asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n" : "=r"(ready) : "l"(&g_partial_ready[block]) : "memory");
    } while (ready == 0);
    g_partial_ready[block] = 0;
  }
  // No thread reads the slot before thread 0 has seen the flag.
  __syncthreads();
  const float4* slot = g_partial_slots + static_cast<long long>(block) * (BM * BN / ladder::kVec) + threadIdx.x;
#pragma unroll
  for (int i = 0; i < T::kTM; ++i) {
#pragma unroll
    for (int j = 0; j < T::kTN; j += ladder::kVec) {
      const float4 v = __ldcg(slot + (i * T::kTN + j) / ladder::kVec * T::kThreads);
      acc[i][j] += v.x;
      acc[i][j + 1] += v.y;
      acc[i][j + 2] += v.z;
      acc[i][j + 3] += v.w;
    }
  }
}
}  // namespace stream_k

// Grid: plan.blocks blocks sharing the first plan.tiles tiles, then a block per remaining tile.
// kVector: every row of A and B starts 16-byte aligned (the launcher's choice).
template <int BM, int BN, int BK, int WM, int WN, bool kVector>
__global__ void __launch_bounds__(async_copy::Tiling<BM, BN, BK, WM, WN>::kThreads,
                                  async_copy::MinBlocks<BM, BN, BK, WM, WN>())
    stream_k_matmul(const float* A, const float* B, float* C, int M, int N, int K, int shared_tiles,
                    int sharing_blocks) {
  __shared__ __align__(16) async_copy::Buffers<BM, BN, BK> shared;
  __shared__ __align__(16) all_async::Staging<BM, BK> staging;
  const stream_k::Plan plan{shared_tiles, sharing_blocks};
  const int block = static_cast<int>(blockIdx.x);
  const int tiles_n = (N + BN - 1) / BN;
  const long long slices = (K + BK - 1) / BK;
  const stream_k::Run run = stream_k::RunOf(block, plan, slices);
  // From the run's end backwards: the part that leaves a partial (if any) comes first.
  for (long long stop = run.end; stop > run.begin;) {
    const int tile = static_cast<int>((stop - 1) / slices);
    const long long tile_begin = tile * slices;
    const long long start = max(run.begin, tile_begin);
    const int block_row = tile / tiles_n * BM;
    const int block_col = tile % tiles_n * BN;
    stream_k::Accumulators<BM, BN, BK, WM, WN> acc = {};
    const int first = static_cast<int>(start - tile_begin), last = static_cast<int>(stop - tile_begin);
    stream_k::AccumulateSlices<BM, BN, BK, WM, WN, kVector>(shared, staging, A, B, M, N, K, block_row, block_col,
                                                            first, last, acc);
    if (stop < tile_begin + slices) {
      stream_k::LeavePartial<BM, BN, BK, WM, WN>(acc, block);
    } else {
      // The blocks before this one whose runs end inside this tile hold its first slices.
      for (int other = block - 1; other >= 0 && stream_k::RunOf(other, plan, slices).end > tile_begin; --other) {
        const stream_k::Run other_run = stream_k::RunOf(other, plan, slices);
        if (other_run.begin < other_run.end) stream_k::AddPartial<BM, BN, BK, WM, WN>(acc, other);
      }
      double_buffered::StoreTile<BM, BN, BK, WM, WN>(C, M, N, block_row, block_col, acc);
    }
    stop = start;
    // The next part refills the buffers this one's last slice was read from.
    if (stop > run.begin) __syncthreads();
  }
}
