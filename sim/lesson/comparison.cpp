#include "sim/lesson/comparison.h"

#include <algorithm>

#include "sim/lesson/formulas.h"
#include "sim/model/simulation.h"

namespace sim {
namespace {

// A naive block of at most 32×32 threads keeps within the 1024-thread limit.
constexpr int kMaxNaiveBlockSide = 32;

}  // namespace

KernelConfig ComparisonKernel(const KernelConfig& config) {
  KernelConfig other = config;
  other.barrier1 = other.barrier2 = SyncKind::kSyncthreads;
  other.guard = true;
  other.tile_count = TileCount::kCeil;
  other.scheduler = SchedulerKind::kRealistic;
  if (config.kernel == KernelKind::kNaive) {
    other.kernel = KernelKind::kTiled;
    return other;
  }
  other.kernel = KernelKind::kNaive;
  const TileShape tiles = config.Tiles();
  other.tile = std::min(std::max(tiles.tm, tiles.tn), kMaxNaiveBlockSide);
  return other;
}

std::uint64_t ExpectedComparisonReads(const KernelConfig& config) {
  return Expected(ComparisonKernel(config)).global_reads();
}

std::optional<double> CountedSaving(const Simulation& simulation, const std::optional<ComparisonCount>& comparison) {
  const Timeline* whole = simulation.KnownTimeline();
  if (!whole || !comparison || !comparison->global_reads) return std::nullopt;
  const std::uint64_t own = whole->counters.GlobalReads();
  const std::uint64_t other = *comparison->global_reads;
  const bool naive = simulation.geometry().naive;
  if ((naive ? other : own) == 0) return std::nullopt;
  return naive ? ReadSaving(own, other) : ReadSaving(other, own);
}

KernelConfig TextbookKernelFor(const KernelLaunch& launch) {
  constexpr int kHandoutTile = 16;
  const bool square = launch.block[0] == launch.block[1] && launch.block[2] == 1;
  KernelConfig naive;
  naive.kernel = KernelKind::kNaive;
  naive.m = launch.m;
  naive.n = launch.n;
  naive.k = launch.k;
  naive.seed = launch.seed;
  naive.tile = square ? launch.block[0] : kHandoutTile;
  return ComparisonKernel(naive);  // a naive lesson's comparison is the square tiled kernel
}

KernelConfig ComparisonKernelOf(const Simulation& simulation) {
  const KernelLaunch* launch = simulation.launch();
  return launch != nullptr ? TextbookKernelFor(*launch) : ComparisonKernel(simulation.config());
}

ComparisonCount CountComparison(const KernelConfig& config, const std::vector<float>& a, const std::vector<float>& b,
                                const std::atomic<bool>* stop, std::atomic<double>* fraction) {
  return CountKernel(ComparisonKernel(config), a, b, stop, fraction);
}

ComparisonCount CountKernel(const KernelConfig& kernel, const std::vector<float>& a, const std::vector<float>& b,
                            const std::atomic<bool>* stop, std::atomic<double>* fraction) {
  ComparisonCount count{kernel, std::nullopt, ""};
  // Its memory is part of the lesson's own estimate (sim/lesson/memory_estimate.h).
  if (auto invalid = ValidateKernel(count.kernel)) {
    count.error = std::string("the ") + Name(count.kernel.kernel) + " kernel cannot run here: " + invalid->message;
    return count;
  }
  // It runs forward once, on a bare machine: a step-back history's checkpoints of a big
  // lesson's state (hundreds of MiB at 1024³) would buy nothing here.
  if (const std::optional<Timeline> run = ComputeTimeline(count.kernel, a, b, stop, fraction)) {
    count.global_reads = run->counters.GlobalReads();
  }
  return count;
}

}  // namespace sim
