// ladder.h — what the ladder view and the roofline say beside each kernel's measurement: its
// idea in one line, and how many bytes of A, B and C it asks global memory for at a size, so
// its arithmetic intensity (FLOP per byte requested) places it under the roofs.
//
// Requested, not DRAM traffic: a block reads its BM×K strip of A and K×BN strip of B once
// (A is requested once per block column, B once per block row) and writes its tile of C;
// L2 serves many of those requests, so the intensity is a lower bound of the DRAM one. The
// block tile is the kernel table's: where a rung picks a smaller tile on a small grid (11
// falls back to 10's tile with K split), its figure is that of its own large tile.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/kernel_table.h"

namespace kernels {

// One line: what the kernel does that the one before it did not.
const char* IdeaOf(const KernelSpec& spec);

// Elements of A and B the kernel requests at `shape`: 2·M·N·K for the naive kernel,
// ceil(N/BN)·M·K + ceil(M/BM)·K·N for a block tile BM×BN. Nothing for cuBLAS, whose tiles
// are not ours to know.
std::optional<std::uint64_t> RequestedLoads(const KernelSpec& spec, const Shape& shape);

// 2·M·N·K flops over the bytes of those loads (4 each, 2 for a BF16 row's) and of C's M·N
// FP32 stores.
std::optional<double> LoadIntensity(const KernelSpec& spec, const Shape& shape);

// Why a kernel's point may lie above the roofline's memory roof, in sentences: the kernels that
// ask global memory for more bytes a second (GFLOPS over FLOP per byte requested) than the
// device's DRAM bandwidth (`memory_gbs`), each with that figure; "" when none does or the
// bandwidth is unknown. Only a kernel whose loads L2 and L1 serve can do that, and the note
// says so: the x axis counts bytes requested, the roof bounds bytes from DRAM.
std::string AboveMemoryRoofNote(const std::vector<BenchResult>& results, const Shape& shape, double memory_gbs);

// One rung of the ladder at one size: the kernel, its measurement, its intensity, and the
// cuBLAS row of its precision measured at that size (null where there is none), which its
// bar runs towards.
struct LadderRow {
  const KernelSpec* spec = nullptr;
  const BenchResult* result = nullptr;  // points into the results it was made from
  std::optional<double> intensity;
  const BenchResult* reference = nullptr;
};

// The kernels measured at `shape` in teaching order (the registry's), one row each: the FP32
// kernels with cuBLAS SGEMM last as the line to reach; then, where a TF32 kernel was
// measured, the TF32 ones with cuBLAS TF32 last; then the BF16 ones with cuBLAS BF16.
std::vector<LadderRow> LadderAt(const std::vector<BenchResult>& results, const Shape& shape);

// The shape `chosen` names (as ToString writes it) when a result has it; else the largest
// square size with a measured result, else the largest shape; nothing when nothing was measured.
std::optional<Shape> LadderShape(const std::vector<BenchResult>& results, const std::string& chosen);

}  // namespace kernels
