#include "kernels/ladder.h"

#include <cstdio>

#include "kernels/registry.h"

namespace kernels {
namespace {

constexpr double kBytesPerFloat = 4.0;
constexpr double kBytesPerBf16 = 2.0;

std::uint64_t CeilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

const char* IdeaOf(const KernelSpec& spec) {
  switch (spec.rung) {
    case LadderRung::kBlocktile1d: return "a column of C per thread: one B value feeds TM FMAs";
    case LadderRung::kBlocktile2d: return "a TM×TN micro-tile per thread: outer products from registers";
    case LadderRung::kVectorized: return "128-bit loads; As stored transposed so fragments load as float4";
    case LadderRung::kConflictFree: return "padded As: no two lanes of a warp hit one bank";
    case LadderRung::kWarptile: return "warp tiles: each warp owns a region of C, lanes share fragments";
    case LadderRung::kDoubleBuffered: return "two shared buffers: load the next slice while computing this one";
    case LadderRung::kAsyncCopy: return "cp.async copies B straight into shared memory; no checks inside the matrices";
    case LadderRung::kRegisterTile: return "a 16×8 micro-tile per thread; a small grid splits K so no SM idles";
    case LadderRung::kAllAsync: return "A copied by cp.async too: no global load waits in a register";
    case LadderRung::kStreamK: return "edge blocks run the same loop on zero-filled copies; stream-K shares K so no wave runs part-empty";
    case LadderRung::kMmaTf32: return "tensor cores: each warp issues mma.sync on 16×8×8 tiles rounded to TF32";
    case LadderRung::kWgmmaBf16: return "Hopper: TMA copies swizzled BF16 tiles, a warpgroup's wgmma reads them";
    case LadderRung::kWarpSpecialized: return "a producer warpgroup copies, consumers multiply; persistent blocks overlap stores";
    case LadderRung::kWgmmaTf32: return "15's pipeline on FP32 matrices: wgmma reads them as TF32, 8 of K per step";
    case LadderRung::kStagedEpilogue: return "C written to shared memory first, then stored a whole line at a time";
    case LadderRung::kNone: break;
  }
  switch (spec.family) {
    case KernelFamily::kNaive: return "every FMA loads its A and B values from global memory";
    case KernelFamily::kTiled: return "shared TILE×TILE tiles: a loaded value serves TILE FMAs";
    case KernelFamily::kTiledRect: return "rectangular TM×TN tiles stepping through K by TK";
    case KernelFamily::kCublasFp32: return "NVIDIA's SGEMM: the line to reach";
    case KernelFamily::kCublasTf32: return "tensor cores on 10-bit mantissas: another precision";
    case KernelFamily::kCublasBf16: return "tensor cores on BF16 inputs, FP32 sums: the line for rungs 14 on";
    case KernelFamily::kLadder: break;
  }
  return "";
}

std::optional<std::uint64_t> RequestedLoads(const KernelSpec& spec, const Shape& shape) {
  if (IsCublas(spec) || shape.m <= 0 || shape.n <= 0 || shape.k <= 0) return std::nullopt;
  const auto m = static_cast<std::uint64_t>(shape.m), n = static_cast<std::uint64_t>(shape.n),
             k = static_cast<std::uint64_t>(shape.k);
  if (spec.family == KernelFamily::kNaive) return 2 * m * n * k;
  return CeilDiv(n, static_cast<std::uint64_t>(spec.tile_n)) * m * k +
         CeilDiv(m, static_cast<std::uint64_t>(spec.tile_m)) * k * n;
}

std::optional<double> LoadIntensity(const KernelSpec& spec, const Shape& shape) {
  const std::optional<std::uint64_t> loads = RequestedLoads(spec, shape);
  if (!loads) return std::nullopt;
  const double element_bytes = spec.precision == Precision::kBf16 ? kBytesPerBf16 : kBytesPerFloat;
  return shape.Flop() / (element_bytes * double(*loads) + kBytesPerFloat * double(shape.m) * double(shape.n));
}

std::string AboveMemoryRoofNote(const std::vector<BenchResult>& results, const Shape& shape, double memory_gbs) {
  if (memory_gbs <= 0.0) return "";
  std::string above;
  int kernels_above = 0;
  for (const LadderRow& row : LadderAt(results, shape)) {
    if (!row.intensity || !row.result->ok() || !row.result->verified) continue;
    const double requested_gbs = row.result->gflops / *row.intensity;  // GFLOP/s over FLOP/byte
    if (requested_gbs <= memory_gbs) continue;
    char figure[96];
    std::snprintf(figure, sizeof figure, " asks for %.0f GB/s (%.1f\u00d7)", requested_gbs, requested_gbs / memory_gbs);
    above += (above.empty() ? "" : "; ") + row.result->label + figure;
    ++kernels_above;
  }
  if (above.empty()) return "";
  char bandwidth[64];
  std::snprintf(bandwidth, sizeof bandwidth, "%.0f GB/s", memory_gbs);
  const bool one = kernels_above == 1;
  return "Above the memory roof, more than DRAM's " + std::string(bandwidth) + ": " + above +
         ". The x axis counts bytes requested from global memory; L2 and L1 serve most of " +
         (one ? "that kernel's" : "those kernels'") + " requests, so far fewer bytes come from DRAM, and DRAM's roof " +
         "does not bound " + (one ? "it." : "them.");
}

std::vector<LadderRow> LadderAt(const std::vector<BenchResult>& results, const Shape& shape) {
  std::vector<LadderRow> rows;
  for (const Precision precision : {Precision::kFp32, Precision::kTf32, Precision::kBf16}) {
    const std::size_t first = rows.size();
    const BenchResult* reference = nullptr;
    for (const KernelSpec* spec : AllKernels()) {
      if (spec->precision != precision) continue;
      for (const BenchResult& result : results) {
        if (result.kernel != spec->name || !(result.shape == shape)) continue;
        if (IsCublas(*spec)) {
          reference = &result;
        } else {
          rows.push_back({spec, &result, LoadIntensity(*spec, shape)});
        }
        break;
      }
    }
    // cuBLAS SGEMM is the ladder's line even alone; a tensor precision shows with its kernels.
    if (rows.size() == first && precision != Precision::kFp32) continue;
    if (reference) rows.push_back({FindKernel(reference->kernel), reference, std::nullopt});
    for (std::size_t i = first; i < rows.size(); ++i) rows[i].reference = reference;
  }
  return rows;
}

std::optional<Shape> LadderShape(const std::vector<BenchResult>& results, const std::string& chosen) {
  for (const BenchResult& result : results) {
    if (ToString(result.shape) == chosen) return result.shape;
  }
  std::optional<Shape> best;
  auto volume = [](const Shape& s) { return double(s.m) * double(s.n) * double(s.k); };
  for (const BenchResult& result : results) {
    if (!result.ok()) continue;
    const bool better = !best || (result.shape.IsSquare() && !best->IsSquare()) ||
                        (result.shape.IsSquare() == best->IsSquare() && volume(result.shape) > volume(*best));
    if (better) best = result.shape;
  }
  return best;
}

}  // namespace kernels
