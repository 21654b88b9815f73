// kernel_table.h — every kernel TileScope can run, in one constexpr table.
//
// This is the only list. The plain C++ registry (registry.h) reads it for the CLI, the
// GUI and the tests; the GPU module (gpu/launchers.cu) instantiates one template per row
// from it at compile time, so a row can never exist on one side and not on the other.
// It is constexpr plain C++17 (no CUDA, no std::string) for that reason.
#pragma once
#include <cstddef>

#include "sim/model/sync_kind.h"

namespace kernels {

// Which source the row runs.
enum class KernelFamily {
  kNaive,       // 01_naive.cu: no shared memory; tile_m × tile_n is its thread block.
  kTiled,       // 02_tiled.cu: square tile T = tile_m = tile_n = tile_k.
  kTiledRect,   // 03_tiled_rect.cu: TM × TN tile of C stepping through K by TK.
  kCublasFp32,  // cuBLAS SGEMM, default FP32 math: the reference every kernel is checked against.
  kCublasTf32,  // cuBLAS with TF32 tensor-op math: faster, 10-bit mantissa inputs.
  kCublasBf16,  // cuBLAS GEMM on BF16 copies of A and B, FP32 accumulation: the BF16 rungs race it.
  kLadder,      // 04_… to 16_… (and 12b_…): the kernel ladder from tiled towards cuBLAS; `rung` says which.
};

// The ladder's rungs in teaching order, each one idea more than the last (kernels/NN_*.cu).
enum class LadderRung {
  kNone,            // not a ladder row
  kBlocktile1d,     // 04: a column of thread_m elements of C per thread
  kBlocktile2d,     // 05: a thread_m × thread_n micro-tile per thread
  kVectorized,      // 06: 128-bit loads and stores, As transposed
  kConflictFree,    // 07: padded As, micro-tile in quadrants
  kWarptile,        // 08: warp tiles of warp_m × warp_n
  kDoubleBuffered,  // 09: two shared buffers, register prefetch
  kAsyncCopy,       // 10: B copied by cp.async, no bounds checks inside the matrices
  kRegisterTile,    // 11: a 16×8 micro-tile; 10's tile split along K where the grid is small
  kAllAsync,        // 12: A copied by cp.async too, a lean loop, blocks in groups of tile rows
  kStreamK,         // 12b: 12's loop for edge blocks too (zero-filled copies), waves evened out by stream-K
  kMmaTf32,         // 13: the tensor cores: mma.sync m16n8k8 on TF32-rounded inputs (sm_80 and newer)
  kWgmmaBf16,       // 14: TMA copies into swizzled shared memory, warpgroup wgmma on BF16 (sm_90a)
  kWarpSpecialized, // 15: a producer warpgroup copies, two consumers multiply; one persistent block per SM
  kWgmmaTf32,       // 16: 15's pipeline on FP32 matrices, wgmma in TF32 (sm_90a)
  kStagedEpilogue,  // 17: 15 with C stored through shared memory in whole lines (sm_90a)
};

// The arithmetic the result is computed in; decides the verification tolerance and the
// math a result records (MathName in registry.h) and the cuBLAS row a result's "% of cuBLAS"
// divides by (ReferenceFor in registry.h): FP32 runs as FFMA on the CUDA cores, TF32 and
// BF16 (inputs rounded to 8 significant bits, FP32 accumulation) on the tensor cores.
enum class Precision { kFp32, kTf32, kBf16 };

struct KernelSpec {
  const char* name;   // what `--kernels` takes and the results files store
  const char* label;  // what tables and plots show
  KernelFamily family;
  int tile_m;  // rows of C per block (TM, or T)
  int tile_n;  // columns of C per block (TN, or T)
  int tile_k;  // K-slice per phase (TK, or T); 0 where there is no shared tile
  sim::SyncKind first_barrier;   // kTiled and kTiledRect only; the other families have no barrier
  sim::SyncKind second_barrier;
  bool guarded;     // bounds guard on loads and the store
  bool ceil_tiles;  // ceil(K/TK) phases; false rounds down (the Exercise 05 handout)
  Precision precision;
  bool in_default_sweep;  // run by `tilescope bench` and the live panel unless told otherwise
  // Ladder rows only: the rung, and the C elements per thread and per warp. 1×1 per thread
  // and no warp tile for the teaching kernels (a thread per element of the block tile).
  LadderRung rung = LadderRung::kNone;
  int thread_m = 1;
  int thread_n = 1;
  int warp_m = 0;
  int warp_n = 0;
  // kTiled only: the B tile stored transposed, so a warp's reads of Bs conflict in the
  // banks (lesson 6); the products and C are the same.
  bool bs_transposed = false;
  // The oldest GPU the row runs on, as compute capability major·10 + minor (80: sm_80); 0
  // for every GPU the build targets. On an older one the runner refuses the row and says why.
  int min_compute_capability = 0;
  // Compiled for that one architecture alone (sm_90a: wgmma, TMA), whose code runs on no
  // other compute capability, newer ones included.
  bool only_that_architecture = false;
  // Threads that only copy (a producer warpgroup) and hold no element of C, beside those
  // that thread_m × thread_n counts.
  int producer_threads = 0;
};

constexpr bool IsCublasFamily(KernelFamily family) {
  return family == KernelFamily::kCublasFp32 || family == KernelFamily::kCublasTf32 ||
         family == KernelFamily::kCublasBf16;
}

// Whether the row runs on a GPU of compute capability major.minor.
constexpr bool RunsOn(const KernelSpec& spec, int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  return spec.only_that_architecture ? cc == spec.min_compute_capability : cc >= spec.min_compute_capability;
}

// Threads in one block: each computes thread_m × thread_n elements of the block tile, and
// the producer threads, if any, copy.
constexpr int ThreadsPerBlock(const KernelSpec& spec) {
  return spec.tile_m * spec.tile_n / (spec.thread_m * spec.thread_n) + spec.producer_threads;
}

namespace table_detail {
constexpr sim::SyncKind kSt = sim::SyncKind::kSyncthreads;
constexpr sim::SyncKind kSw = sim::SyncKind::kSyncwarp;
constexpr sim::SyncKind kNo = sim::SyncKind::kNone;
constexpr Precision kF32 = Precision::kFp32;

constexpr KernelSpec Tiled(const char* name, const char* label, int tile, sim::SyncKind first, sim::SyncKind second,
                           bool in_default) {
  return {name, label, KernelFamily::kTiled, tile, tile, tile, first, second, true, true, kF32, in_default};
}

// The tiled kernel with both barriers and Bs stored transposed: lesson 6's bank conflicts.
constexpr KernelSpec TiledBankConflict(const char* name, const char* label, int tile) {
  KernelSpec spec = Tiled(name, label, tile, kSt, kSt, false);
  spec.bs_transposed = true;
  return spec;
}

// A ladder rung: block tile tm × tn stepping through K by tk, thread_m × thread_n per
// thread, warp tiles warp_m × warp_n (0 where the rung has none). Guarded, FP32.
constexpr KernelSpec Rung(const char* name, const char* label, LadderRung rung, int tm, int tn, int tk, int thread_m,
                          int thread_n, int warp_m, int warp_n) {
  return {name, label, KernelFamily::kLadder, tm, tn, tk, kSt, kSt, true, true, kF32, false,
          rung, thread_m, thread_n, warp_m, warp_n};
}

// A ladder rung on the tensor cores: as Rung, in `precision`, running from compute
// capability `min_cc` on.
constexpr KernelSpec TensorRung(const char* name, const char* label, LadderRung rung, int tm, int tn, int tk,
                                int thread_m, int thread_n, int warp_m, int warp_n, Precision precision, int min_cc) {
  KernelSpec spec = Rung(name, label, rung, tm, tn, tk, thread_m, thread_n, warp_m, warp_n);
  spec.precision = precision;
  spec.min_compute_capability = min_cc;
  return spec;
}

// The rung with `threads` more that only copy.
constexpr KernelSpec WithProducer(KernelSpec spec, int threads) {
  spec.producer_threads = threads;
  return spec;
}

// A rung compiled for sm_90a alone: Hopper's wgmma and TMA, inputs in `precision` (BF16 or
// TF32), FP32 accumulation.
constexpr KernelSpec HopperRung(const char* name, const char* label, LadderRung rung, int tm, int tn, int tk,
                                int thread_m, int thread_n, int warp_m, int warp_n,
                                Precision precision = Precision::kBf16) {
  KernelSpec spec = TensorRung(name, label, rung, tm, tn, tk, thread_m, thread_n, warp_m, warp_n, precision, 90);
  spec.only_that_architecture = true;
  return spec;
}
}  // namespace table_detail

// The naive kernel's thread block: 16×16 = 256 threads, as in the handouts.
constexpr int kNaiveBlock = 16;

inline constexpr KernelSpec kKernelTable[] = {
    // clang-format off
    {"naive", "naive (global memory only)", KernelFamily::kNaive, kNaiveBlock, kNaiveBlock, 0,
     table_detail::kSt, table_detail::kSt, true, true, table_detail::kF32, true},
    table_detail::Tiled("tiled2",  "tiled, TILE 2",  2,  table_detail::kSt, table_detail::kSt, false),
    table_detail::Tiled("tiled4",  "tiled, TILE 4",  4,  table_detail::kSt, table_detail::kSt, false),
    table_detail::Tiled("tiled8",  "tiled, TILE 8",  8,  table_detail::kSt, table_detail::kSt, true),
    table_detail::Tiled("tiled16", "tiled, TILE 16", 16, table_detail::kSt, table_detail::kSt, true),
    table_detail::Tiled("tiled32", "tiled, TILE 32", 32, table_detail::kSt, table_detail::kSt, true),
    {"rect32x16x16", "tiled rect, TM 32 TN 16 TK 16", KernelFamily::kTiledRect, 32, 16, 16,
     table_detail::kSt, table_detail::kSt, true, true, table_detail::kF32, true},
    // The race lab: one or both __syncthreads() removed, at one-warp tiles (2, 4) and
    // multi-warp tiles (8, 16, 32).
    table_detail::Tiled("tiled2_nosync1",   "tiled 2, no 1st barrier",   2,  table_detail::kNo, table_detail::kSt, false),
    table_detail::Tiled("tiled2_nosync2",   "tiled 2, no 2nd barrier",   2,  table_detail::kSt, table_detail::kNo, false),
    table_detail::Tiled("tiled2_nosync12",  "tiled 2, no barriers",      2,  table_detail::kNo, table_detail::kNo, false),
    table_detail::Tiled("tiled4_nosync1",   "tiled 4, no 1st barrier",   4,  table_detail::kNo, table_detail::kSt, false),
    table_detail::Tiled("tiled4_nosync2",   "tiled 4, no 2nd barrier",   4,  table_detail::kSt, table_detail::kNo, false),
    table_detail::Tiled("tiled4_nosync12",  "tiled 4, no barriers",      4,  table_detail::kNo, table_detail::kNo, false),
    table_detail::Tiled("tiled8_nosync1",   "tiled 8, no 1st barrier",   8,  table_detail::kNo, table_detail::kSt, false),
    table_detail::Tiled("tiled8_nosync2",   "tiled 8, no 2nd barrier",   8,  table_detail::kSt, table_detail::kNo, false),
    table_detail::Tiled("tiled8_nosync12",  "tiled 8, no barriers",      8,  table_detail::kNo, table_detail::kNo, false),
    table_detail::Tiled("tiled16_nosync1",  "tiled 16, no 1st barrier",  16, table_detail::kNo, table_detail::kSt, false),
    table_detail::Tiled("tiled16_nosync2",  "tiled 16, no 2nd barrier",  16, table_detail::kSt, table_detail::kNo, false),
    table_detail::Tiled("tiled16_nosync12", "tiled 16, no barriers",     16, table_detail::kNo, table_detail::kNo, false),
    table_detail::Tiled("tiled32_nosync1",  "tiled 32, no 1st barrier",  32, table_detail::kNo, table_detail::kSt, false),
    table_detail::Tiled("tiled32_nosync2",  "tiled 32, no 2nd barrier",  32, table_detail::kSt, table_detail::kNo, false),
    table_detail::Tiled("tiled32_nosync12", "tiled 32, no barriers",     32, table_detail::kNo, table_detail::kNo, false),
    // __syncwarp() in place of both barriers: enough for a one-warp block (2, 4), not for 8 or 16.
    table_detail::Tiled("tiled2_syncwarp",  "tiled 2, __syncwarp",       2,  table_detail::kSw, table_detail::kSw, false),
    table_detail::Tiled("tiled4_syncwarp",  "tiled 4, __syncwarp",       4,  table_detail::kSw, table_detail::kSw, false),
    table_detail::Tiled("tiled8_syncwarp",  "tiled 8, __syncwarp",       8,  table_detail::kSw, table_detail::kSw, false),
    table_detail::Tiled("tiled16_syncwarp", "tiled 16, __syncwarp",      16, table_detail::kSw, table_detail::kSw, false),
    // The Exercise 05 handout: no bounds guard and floor(K/T) phases; wrong whenever a size is not a multiple of 16.
    {"tiled16_unguarded", "tiled 16, unguarded, K/T rounded down", KernelFamily::kTiled, 16, 16, 16,
     table_detail::kSt, table_detail::kSt, false, false, table_detail::kF32, false},
    // Lesson 6: Bs stored transposed, so a warp's reads of it conflict in the shared banks.
    table_detail::TiledBankConflict("tiled8_bank_conflict",  "tiled 8, Bs transposed (bank conflicts)",  8),
    table_detail::TiledBankConflict("tiled16_bank_conflict", "tiled 16, Bs transposed (bank conflicts)", 16),
    table_detail::TiledBankConflict("tiled32_bank_conflict", "tiled 32, Bs transposed (bank conflicts)", 32),
    // The ladder (kernels/04_… to 12_…), each rung one idea more than the last.
    table_detail::Rung("blocktile_1d",    "04 1D register blocking",       LadderRung::kBlocktile1d,    64,  64,  8, 8, 1, 0,  0),
    table_detail::Rung("blocktile_2d",    "05 2D register blocking",       LadderRung::kBlocktile2d,    128, 128, 8, 8, 8, 0,  0),
    table_detail::Rung("vectorized",      "06 128-bit loads, As transposed", LadderRung::kVectorized,   128, 128, 8, 8, 8, 0,  0),
    table_detail::Rung("conflict_free",   "07 no bank conflicts",          LadderRung::kConflictFree,   128, 128, 8, 8, 8, 0,  0),
    table_detail::Rung("warptile",        "08 warp tiling",                LadderRung::kWarptile,       128, 128, 8, 8, 8, 32, 64),
    table_detail::Rung("double_buffered", "09 double buffering",           LadderRung::kDoubleBuffered, 128, 128, 8, 8, 8, 32, 64),
    table_detail::Rung("async_copy",      "10 cp.async for B, no checks inside", LadderRung::kAsyncCopy,  128, 128, 8, 8, 8, 32, 64),
    table_detail::Rung("register_tile",   "11 16×8 micro-tile, split-K if small", LadderRung::kRegisterTile, 128, 256, 8, 16, 8, 64, 64),
    table_detail::Rung("all_async",       "12 cp.async for A too, lean loop", LadderRung::kAllAsync,  128, 256, 8, 16, 8, 64, 64),
    table_detail::Rung("stream_k",        "12b any shape: zero-filled edges, stream-K", LadderRung::kStreamK, 128, 256, 8, 16, 8, 64, 64),
    // 13 computes in TF32 on the tensor cores: another precision, checked with TF32's tolerance.
    table_detail::TensorRung("mma_tf32",  "13 TF32 mma.sync (tensor cores)", LadderRung::kMmaTf32, 256, 128, 32, 8, 16, 64, 64,
                             Precision::kTf32, 80),
    // 14 on: BF16 inputs on Hopper (sm_90a only); a thread holds 2 rows × 64 columns of its
    // warpgroup's 64×256 accumulators, a warp 16 rows × 256.
    table_detail::HopperRung("wgmma_bf16", "14 BF16 wgmma, TMA (sm_90)", LadderRung::kWgmmaBf16, 128, 256, 64, 2, 64, 16, 256),
    table_detail::WithProducer(table_detail::HopperRung("warp_specialized", "15 producer/consumer warps, persistent (sm_90)",
                                                        LadderRung::kWarpSpecialized, 128, 256, 64, 2, 64, 16, 256), 128),
    // 16: 15's tiles and threads on FP32 operands as TF32: 32 of K per 128-byte stage row.
    table_detail::WithProducer(table_detail::HopperRung("wgmma_tf32", "16 TF32 wgmma, producer/consumer (sm_90)",
                                                        LadderRung::kWgmmaTf32, 128, 256, 32, 2, 64, 16, 256,
                                                        Precision::kTf32), 128),
    // 17: 15's tiles and threads, C stored through shared memory.
    table_detail::WithProducer(table_detail::HopperRung("staged_epilogue", "17 C through shared memory, whole lines (sm_90)",
                                                        LadderRung::kStagedEpilogue, 128, 256, 64, 2, 64, 16, 256), 128),
    {"cublas_fp32", "cuBLAS SGEMM (FP32)", KernelFamily::kCublasFp32, 0, 0, 0,
     table_detail::kSt, table_detail::kSt, true, true, Precision::kFp32, true},
    {"cublas_tf32", "cuBLAS TF32 (lower precision)", KernelFamily::kCublasTf32, 0, 0, 0,
     table_detail::kSt, table_detail::kSt, true, true, Precision::kTf32, true},
    // Timed wherever a BF16 rung is; BF16 GEMM needs sm_80.
    {"cublas_bf16", "cuBLAS BF16 (FP32 accumulate)", KernelFamily::kCublasBf16, 0, 0, 0,
     table_detail::kSt, table_detail::kSt, true, true, Precision::kBf16, false, LadderRung::kNone, 1, 1, 0, 0, false, 80},
    // clang-format on
};

inline constexpr std::size_t kKernelCount = sizeof(kKernelTable) / sizeof(kKernelTable[0]);

// The largest tile edge of the teaching kernels: the runner pads its buffers by it so an
// unguarded kernel's out-of-range accesses stay inside the allocation. The ladder's rungs
// are all guarded: they never touch memory outside the matrices.
constexpr int MaxTileEdge() {
  int edge = 0;
  for (const KernelSpec& spec : kKernelTable) {
    if (spec.family == KernelFamily::kLadder) continue;
    if (spec.tile_m > edge) edge = spec.tile_m;
    if (spec.tile_n > edge) edge = spec.tile_n;
    if (spec.tile_k > edge) edge = spec.tile_k;
  }
  return edge;
}
inline constexpr int kMaxTileEdge = MaxTileEdge();

// The device buffers a run at M×N×K allocates, in floats: A, B, C and cuBLAS's reference C.
// Padding for the unguarded kernel (the Exercise 05 handout): with no bounds guard, a block at the bottom
// or right edge reads rows of A up to the next multiple of its tile, columns of B up to a
// tile past N, and writes C likewise. Rounding M up to the largest tile edge and adding one
// tile edge past the end keeps every such access inside memory the runner owns, so the
// kernel computes a wrong C (the lesson) instead of faulting and killing the context.
// The runner allocates these; the live panel checks a size against the device with them.
struct DeviceBuffers {
  long long a = 0;
  long long b = 0;
  long long c = 0;  // each of C and the reference C
  constexpr double Bytes() const { return 4.0 * (double(a) + double(b) + 2.0 * double(c)); }
};
constexpr DeviceBuffers BuffersFor(long long m, long long n, long long k) {
  const long long padded_m = (m + kMaxTileEdge - 1) / kMaxTileEdge * kMaxTileEdge;
  return {padded_m * k, k * n + kMaxTileEdge, padded_m * n + kMaxTileEdge};
}

// The K-major copies of A (M×K) and Bᵀ (N×K) some rows read, made once per session beside
// the buffers above: BF16 copies for the BF16 rows (cuBLAS BF16 too), FP32 ones for the other
// rows that read tensor maps (the sm_90a rungs in TF32). Each row holds K rounded up to 16
// bytes, what a tensor map's row stride must be a multiple of.
constexpr long long kKMajorRowAlignBytes = 16;
constexpr long long KMajorRowElements(long long k, long long element_bytes) {
  const long long align = kKMajorRowAlignBytes / element_bytes;
  return (k + align - 1) / align * align;
}
constexpr bool ReadsBf16Copies(const KernelSpec& spec) { return spec.precision == Precision::kBf16; }
constexpr bool ReadsFp32KMajorCopies(const KernelSpec& spec) {
  return spec.only_that_architecture && spec.precision != Precision::kBf16;
}
// Bytes of one element type's copies (`element_bytes` 2 for BF16, 4 for FP32).
constexpr double KMajorCopyBytes(long long m, long long n, long long k, long long element_bytes) {
  return double(element_bytes) * double(m + n) * double(KMajorRowElements(k, element_bytes));
}

}  // namespace kernels
