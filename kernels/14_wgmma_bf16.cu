// 14_wgmma_bf16.cu — Hopper's own matrix path: TMA copies tiles, a warpgroup multiplies them.
//
// What it teaches: rung 13 feeds the tensor cores one warp and one 16×8×8 product at a
// time, every operand first loaded from shared memory into registers by the warp itself.
// Hopper adds two engines that take that work away from the threads:
// - the tensor memory accelerator (TMA): one thread hands it a tensor map (the matrix's
//   address, sizes, strides, the box to copy and how to swizzle it) and a coordinate, and
//   it copies the whole box into shared memory, zeros where the box hangs over an edge, and
//   counts the bytes that landed on an mbarrier the consumers wait on;
// - wgmma: the four warps of a warpgroup (128 threads) issue one 64×256×16 product that
//   reads A and B straight from shared memory (a 64-bit descriptor says where and in which
//   layout) and accumulates into registers spread over the 128 threads. It runs
//   asynchronously: the warpgroup commits a group of them and waits only when it must.
// BF16 in (8 significant bits), FP32 accumulation: checked against cuBLAS FP32 with BF16's
// tolerance, 8·sqrt(K)·2^-8·max|A|·max|B| (bench.cpp), and timed against cuBLAS BF16 with the
// same operands.
//
// Operands: the runner converts A and B to BF16 once per shape, before any timing, with
// rows padded to a multiple of 8 elements (16 bytes, what a tensor map's stride needs), and
// B transposed (N×K): both operands K-major, the layout wgmma reads without transposing and
// that cuBLAS BF16 is handed too (kernels/gpu/module.cu).
//
// Tiles: block 128×256, K 64 per stage (one 128-byte swizzled row of BF16), 4 stages of
// 48 KiB in flight. Two warpgroups, each 64 rows × 256 columns: per stage four
// m64n256k16 wgmma, 128 FP32 accumulators a thread. Blocks go out in groups of 16 tile rows:
// a wave of 132 blocks then covers about 16 × 8 tiles (2048 rows of A, 2048 columns of B)
// rather than 8 × 16.5 (1024 and 4224), so the slices of A and B one wave reads at a time
// take less room in L2 (docs/results/h200-bf16-2026-11-28.txt: groups of 8, 16, 32 measured).
//
// The pipeline, one thread (thread 0) issuing the copies: stage s has a "full" barrier (the
// copy's bytes landed) and an "empty" one (both warpgroups finished reading it). Each
// warpgroup waits for tile kt's full barrier, issues its four wgmma, commits them and waits
// until only that group runs: tile kt − 1's products are done, so it marks that stage empty.
// Thread 0 then waits for both warpgroups' marks and refills the stage with tile kt − 1 + 4.
// Thread 0 is one of the consumers: while it waits for the other warpgroup to free a stage,
// its own warpgroup issues nothing (rung 15 gives the copies their own warps).
//
// What the hardware does: the 128-byte swizzle (chunk c of row r stored at chunk c ^ (r % 8))
// lets the tensor cores read 8 rows of a core matrix from all 32 banks; the TMA writes it that
// way and the descriptors say so. Needs sm_90a (wgmma, TMA): the module compiles this file for
// that architecture alone (kernels/gpu/hopper_launchers.cu), and the runner refuses the row on
// any other GPU with the reason.
//
// Run it: `tilescope bench --kernels wgmma_bf16,cublas_bf16 --sizes 1024:8192 --reps 20`.
#pragma once
#include "hopper_common.cuh"

namespace wgmma_bf16 {

constexpr int kBM = 128;
constexpr int kBN = 256;
constexpr int kBK = 64;  // BF16 elements in one 128-byte swizzled row
constexpr int kMmaK = 16;
constexpr int kStages = 4;
constexpr int kWarpgroups = kBM / 64;  // each multiplies 64 rows of the tile
constexpr int kThreads = kWarpgroups * hopper::kWarpgroup;
constexpr int kGroupM = 16;
constexpr unsigned kElementBytes = 2;
constexpr unsigned kTileBytesA = kBM * kBK * kElementBytes;
constexpr unsigned kTileBytesB = kBN * kBK * kElementBytes;
constexpr unsigned kStageBytes = kTileBytesA + kTileBytesB;
// The stages, and room to move their start up to the next 1024-byte boundary.
constexpr unsigned kSharedBytes = kStages * kStageBytes + hopper::kSwizzleAtomBytes;
static_assert(kBK * kElementBytes == hopper::kSwizzleRowBytes, "a tile row is one swizzled 128-byte row");
static_assert(kTileBytesA % hopper::kSwizzleAtomBytes == 0, "B's tile starts on a swizzle boundary");

}  // namespace wgmma_bf16

// C = A·B, A (M×K) and B given as Bᵀ (N×K), both BF16 K-major through their tensor maps
// (box kBK × kBM for A, kBK × kBN for B, 128-byte swizzle); C row-major FP32.
__global__ void __launch_bounds__(wgmma_bf16::kThreads, 1)
    wgmma_bf16_matmul(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* C,
                      int M, int N, int K) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  namespace w = wgmma_bf16;
  extern __shared__ unsigned char raw_shared[];
  __shared__ std::uint64_t full[w::kStages], empty[w::kStages];
  unsigned char* const shared = raw_shared + (hopper::kSwizzleAtomBytes -
                                              hopper::SharedAddress(raw_shared) % hopper::kSwizzleAtomBytes) %
                                                 hopper::kSwizzleAtomBytes;
  const int tid = static_cast<int>(threadIdx.x), warpgroup = tid / hopper::kWarpgroup;
  const int2 tile = hopper::GroupedTile(static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x),
                                        static_cast<int>(gridDim.y), static_cast<int>(gridDim.x), w::kGroupM);
  const int block_row = tile.x * w::kBM, block_col = tile.y * w::kBN;
  const int tiles_k = (K + w::kBK - 1) / w::kBK;
  const auto stage_a = [&](int tile_k) { return shared + tile_k % w::kStages * w::kStageBytes; };
  const auto stage_b = [&](int tile_k) { return stage_a(tile_k) + w::kTileBytesA; };
  const auto load = [&](int tile_k) {
    std::uint64_t* landed = &full[tile_k % w::kStages];
    hopper::ArriveExpectingBytes(landed, w::kStageBytes);
    hopper::LoadBox(stage_a(tile_k), &a_map, landed, tile_k * w::kBK, block_row);
    hopper::LoadBox(stage_b(tile_k), &b_map, landed, tile_k * w::kBK, block_col);
  };
  if (tid == 0) {
    for (int s = 0; s < w::kStages; ++s) {
      hopper::InitBarrier(&full[s], 1);
      hopper::InitBarrier(&empty[s], w::kWarpgroups);
    }
    hopper::FenceBarrierInit();
  }
  // The barriers initialised before any thread waits on one.
  __syncthreads();
  if (tid == 0) {
    for (int kt = 0; kt < w::kStages && kt < tiles_k; ++kt) load(kt);
  }
  float acc[hopper::kAccumulators256] = {};
  const unsigned rows_offset = warpgroup * 64 * hopper::kSwizzleRowBytes;  // this warpgroup's 64 rows of A
  for (int kt = 0; kt < tiles_k; ++kt) {
    hopper::WaitPhase(&full[kt % w::kStages], kt / w::kStages % 2);
    const std::uint64_t a = hopper::SwizzledTileDescriptor(stage_a(kt) + rows_offset);
    const std::uint64_t b = hopper::SwizzledTileDescriptor(stage_b(kt));
    hopper::FenceOperands();
#pragma unroll
    for (int k = 0; k < w::kBK / w::kMmaK; ++k) {
      const unsigned step = k * w::kMmaK * w::kElementBytes;
      hopper::MmaBf16M64N256K16(acc, hopper::Advance(a, step), hopper::Advance(b, step));
    }
    hopper::CommitGroup();
    hopper::WaitGroups<1>();  // tile kt − 1's products are done: its stage may be refilled
    if (kt == 0) continue;
    const int done = kt - 1;
    if (tid % hopper::kWarpgroup == 0) hopper::Arrive(&empty[done % w::kStages]);
    if (tid == 0 && done + w::kStages < tiles_k) {
      hopper::WaitPhase(&empty[done % w::kStages], done / w::kStages % 2);
      load(done + w::kStages);
    }
    __syncwarp();
  }
  hopper::WaitGroups<0>();
#pragma unroll
  for (float& value : acc) hopper::Touch(value);
  hopper::StoreAccumulators(acc, C, M, N, block_row + warpgroup * 64, block_col);
#endif
}
