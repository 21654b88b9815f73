// registry.h — questions about the kernel table (kernel_table.h) that the CLI, the GUI
// and the tests ask: find by name, the default sweep, which compiled kernel runs a lesson.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_table.h"

namespace kernels {

// Every row of the table, in table order.
std::vector<const KernelSpec*> AllKernels();
// The rows marked in_default_sweep, in table order.
std::vector<const KernelSpec*> DefaultKernels();
const KernelSpec* FindKernel(std::string_view name);
// The row's position in kKernelTable: how the GPU module names a kernel.
int KernelIndex(const KernelSpec& spec);

bool IsCublas(const KernelSpec& spec);
// Whether TileScope's model runs the row (naive, tiled, rect); the ladder and cuBLAS run
// on the GPU only.
bool HasModel(const KernelSpec& spec);
// The arithmetic the row computes with: "FP32 FFMA (CUDA cores)", "TF32 tensor cores", …
const char* MathName(const KernelSpec& spec);
// The cuBLAS row of the same precision: what a row's "% of cuBLAS" divides by (cuBLAS
// SGEMM for FP32, cuBLAS TF32 for TF32, cuBLAS BF16 for BF16). A cuBLAS row is its own.
const KernelSpec& ReferenceFor(Precision precision);
// How tables name a reference row: "cuBLAS FP32", "cuBLAS TF32", "cuBLAS BF16".
std::string ReferenceLabel(const std::string& reference);
// "TILE 16 · barriers syncthreads/none · guarded · ceil(K/T) phases", for tables and tooltips.
std::string DescribeParameters(const KernelSpec& spec);
const char* ToString(sim::SyncKind barrier);

// Phases a tiled kernel walks for inner dimension k (ceil or floor of k / tile_k).
long long PhaseCount(const KernelSpec& spec, long long k);

// What a lesson runs: the kernel source, its tile and its switches.
struct KernelQuery {
  KernelFamily family = KernelFamily::kTiled;
  int tile_m = 2;
  int tile_n = 2;
  int tile_k = 2;
  sim::SyncKind first_barrier = sim::SyncKind::kSyncthreads;
  sim::SyncKind second_barrier = sim::SyncKind::kSyncthreads;
  bool guarded = true;
  bool ceil_tiles = true;
  bool bs_transposed = false;  // kTiled: lesson 6's transposed Bs
};

// The compiled kernel that runs exactly this query, or none with the reason in words
// ("no compiled kernel for TILE 6: compiled tiles are 2, 4, 8, 16, 32"). The GUI offers a
// GPU run only when `kernel` is set, so it never silently runs a different tile.
struct KernelLookup {
  const KernelSpec* kernel = nullptr;
  std::string reason;
};
KernelLookup FindCompiledKernel(const KernelQuery& query);

// The race lab's kernels for one square tile: the both-barriers baseline and every variant
// with a barrier removed or replaced by __syncwarp(). Empty variants when the tile has none.
struct RaceSet {
  const KernelSpec* baseline = nullptr;
  std::vector<const KernelSpec*> variants;
};
RaceSet RaceSetForTile(int tile);
// Tiles that have race variants, ascending.
std::vector<int> RaceTiles();

}  // namespace kernels
