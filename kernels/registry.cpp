#include "kernels/registry.h"

#include <algorithm>
#include <sstream>

namespace kernels {
namespace {

bool IsTiledFamily(KernelFamily family) {
  return family == KernelFamily::kTiled || family == KernelFamily::kTiledRect;
}

bool Matches(const KernelSpec& spec, const KernelQuery& query) {
  if (spec.family != query.family) return false;
  if (spec.tile_m != query.tile_m || spec.tile_n != query.tile_n) return false;
  if (query.family == KernelFamily::kNaive) return spec.guarded == query.guarded;
  return spec.tile_k == query.tile_k && spec.first_barrier == query.first_barrier &&
         spec.second_barrier == query.second_barrier && spec.guarded == query.guarded &&
         spec.ceil_tiles == query.ceil_tiles && spec.bs_transposed == query.bs_transposed;
}

std::string JoinTiles(const std::vector<std::string>& tiles) {
  std::string joined;
  for (const std::string& tile : tiles) joined += (joined.empty() ? "" : ", ") + tile;
  return joined;
}

std::string TileText(KernelFamily family, int tile_m, int tile_n, int tile_k) {
  std::ostringstream text;
  if (family == KernelFamily::kLadder) {
    text << "block tile " << tile_m << "×" << tile_n << "×" << tile_k;
  } else if (family == KernelFamily::kTiled) {
    text << "TILE " << tile_m;
  } else if (family == KernelFamily::kTiledRect) {
    text << "TM " << tile_m << " TN " << tile_n << " TK " << tile_k;
  } else {
    text << "block " << tile_m << "×" << tile_n;
  }
  return text.str();
}

}  // namespace

std::vector<const KernelSpec*> AllKernels() {
  std::vector<const KernelSpec*> all;
  for (const KernelSpec& spec : kKernelTable) all.push_back(&spec);
  return all;
}

std::vector<const KernelSpec*> DefaultKernels() {
  std::vector<const KernelSpec*> chosen;
  for (const KernelSpec& spec : kKernelTable) {
    if (spec.in_default_sweep) chosen.push_back(&spec);
  }
  return chosen;
}

const KernelSpec* FindKernel(std::string_view name) {
  for (const KernelSpec& spec : kKernelTable) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

int KernelIndex(const KernelSpec& spec) { return static_cast<int>(&spec - kKernelTable); }

bool IsCublas(const KernelSpec& spec) {
  return IsCublasFamily(spec.family);
}

bool HasModel(const KernelSpec& spec) {
  return spec.family == KernelFamily::kNaive || spec.family == KernelFamily::kTiled ||
         spec.family == KernelFamily::kTiledRect;
}

const char* MathName(const KernelSpec& spec) {
  switch (spec.precision) {
    case Precision::kTf32: return "TF32 tensor cores";
    case Precision::kBf16: return "BF16 tensor cores, FP32 accumulate";
    case Precision::kFp32: break;
  }
  return "FP32 FFMA (CUDA cores)";
}

const KernelSpec& ReferenceFor(Precision precision) {
  switch (precision) {
    case Precision::kTf32: return *FindKernel("cublas_tf32");
    case Precision::kBf16: return *FindKernel("cublas_bf16");
    case Precision::kFp32: break;
  }
  return *FindKernel("cublas_fp32");
}

std::string ReferenceLabel(const std::string& reference) {
  if (reference == "cublas_tf32") return "cuBLAS TF32";
  if (reference == "cublas_bf16") return "cuBLAS BF16";
  return "cuBLAS FP32";
}

const char* ToString(sim::SyncKind barrier) {
  switch (barrier) {
    case sim::SyncKind::kSyncthreads: return "__syncthreads";
    case sim::SyncKind::kSyncwarp: return "__syncwarp";
    case sim::SyncKind::kNone: return "none";
  }
  return "?";
}

std::string DescribeParameters(const KernelSpec& spec) {
  if (IsCublas(spec)) {
    if (spec.precision == Precision::kBf16) return "cuBLAS GEMM, BF16 copies of A and B, FP32 accumulation";
    return spec.precision == Precision::kTf32 ? "cuBLAS, TF32 tensor-op math (inputs rounded to 10-bit mantissa)"
                                              : "cuBLAS, FP32 math: the reference";
  }
  std::ostringstream text;
  text << TileText(spec.family, spec.tile_m, spec.tile_n, spec.tile_k);
  if (spec.family == KernelFamily::kLadder) {
    text << " · " << spec.thread_m << "×" << spec.thread_n << " per thread";
    if (spec.warp_m > 0) text << " · warp tile " << spec.warp_m << "×" << spec.warp_n;
    text << " · " << ThreadsPerBlock(spec) << " threads";
  }
  if (spec.bs_transposed) text << " · Bs transposed (bank conflicts)";
  if (IsTiledFamily(spec.family)) {
    text << " · barriers " << ToString(spec.first_barrier) << " / " << ToString(spec.second_barrier)
         << (spec.ceil_tiles ? " · ceil(K/T) phases" : " · floor(K/T) phases");
  }
  text << (spec.guarded ? " · guarded" : " · unguarded");
  return text.str();
}

long long PhaseCount(const KernelSpec& spec, long long k) {
  if (!IsTiledFamily(spec.family)) return 0;
  return spec.ceil_tiles ? (k + spec.tile_k - 1) / spec.tile_k : k / spec.tile_k;
}

KernelLookup FindCompiledKernel(const KernelQuery& query) {
  for (const KernelSpec& spec : kKernelTable) {
    if (Matches(spec, query)) return {&spec, ""};
  }
  // Name what is compiled for this family so the user can pick a tile that runs.
  std::vector<std::string> tiles;
  for (const KernelSpec& spec : kKernelTable) {
    if (spec.family != query.family) continue;
    const std::string tile = TileText(spec.family, spec.tile_m, spec.tile_n, spec.tile_k);
    if (std::find(tiles.begin(), tiles.end(), tile) == tiles.end()) tiles.push_back(tile);
  }
  std::ostringstream reason;
  reason << "no compiled GPU kernel for " << TileText(query.family, query.tile_m, query.tile_n, query.tile_k);
  if (IsTiledFamily(query.family)) {
    reason << " with barriers " << ToString(query.first_barrier) << " / " << ToString(query.second_barrier);
  }
  if (query.bs_transposed) reason << ", Bs transposed";
  reason << (query.guarded ? ", guarded" : ", unguarded");
  if (IsTiledFamily(query.family)) reason << (query.ceil_tiles ? ", ceil(K/T) phases" : ", floor(K/T) phases");
  reason << "; compiled: " << (tiles.empty() ? std::string("none of this kind") : JoinTiles(tiles));
  return {nullptr, reason.str()};
}

RaceSet RaceSetForTile(int tile) {
  RaceSet set;
  for (const KernelSpec& spec : kKernelTable) {
    if (spec.family != KernelFamily::kTiled || spec.tile_m != tile || !spec.guarded || !spec.ceil_tiles ||
        spec.bs_transposed) {
      continue;
    }
    if (spec.first_barrier == sim::SyncKind::kSyncthreads && spec.second_barrier == sim::SyncKind::kSyncthreads) {
      set.baseline = &spec;
    } else {
      set.variants.push_back(&spec);
    }
  }
  if (set.baseline == nullptr) set.variants.clear();
  return set;
}

std::vector<int> RaceTiles() {
  std::vector<int> tiles;
  for (const KernelSpec& spec : kKernelTable) {
    if (spec.family != KernelFamily::kTiled) continue;
    if (std::find(tiles.begin(), tiles.end(), spec.tile_m) != tiles.end()) continue;
    if (!RaceSetForTile(spec.tile_m).variants.empty()) tiles.push_back(spec.tile_m);
  }
  std::sort(tiles.begin(), tiles.end());
  return tiles;
}

}  // namespace kernels
