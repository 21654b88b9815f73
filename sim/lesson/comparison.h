// comparison.h — the kernel a lesson is measured against, run on the model with the same
// sizes and inputs: the naive kernel for a tiled lesson (what tiling saves), the square
// tiled kernel for a naive one. Counted, never taken from a formula: the Counters panel and
// `tilescope trace` show this count beside the closed form.
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/model/kernel_config.h"
#include "sim/model/machine.h"

namespace sim {

class Simulation;

// The comparison kernel with both barriers, the guard and ceil tiles, as 01_naive.cu and
// 02_tiled.cu run them; a naive block of at most 32×32 threads.
KernelConfig ComparisonKernel(const KernelConfig& config);

// The textbook tiled kernel (02_tiled.cu with both barriers, the guard and ceil tiles) a
// student's kernel is measured against, at its sizes: TILE is the block's side where the block
// is square, else 16 (the handouts' tile).
KernelConfig TextbookKernelFor(const KernelLaunch& launch);
// What `simulation` is measured against: ComparisonKernel of its lesson, or for a student's
// kernel the textbook one.
KernelConfig ComparisonKernelOf(const Simulation& simulation);

struct ComparisonCount {
  KernelConfig kernel;                        // what ran
  std::optional<std::uint64_t> global_reads;  // reads of A and B; nothing if it could not run or was stopped
  std::string error;                          // why it could not run ("" when it ran)
};

// Runs the comparison kernel to the end on A (M×K) and B (K×N); `stop` (may be null) is
// checked between steps; `fraction` (may be null) follows its progress from 0 to about 1.
// The comparison kernel's global reads by its closed form (the naive kernel's is 2·M·N·K).
std::uint64_t ExpectedComparisonReads(const KernelConfig& config);

// How many times fewer global reads the tiled kernel makes than the naive one, both counted on
// the model: `simulation`'s whole run and its comparison kernel. Nothing until both are
// counted, nor while the tiled count is 0.
std::optional<double> CountedSaving(const Simulation& simulation, const std::optional<ComparisonCount>& comparison);

// Runs `kernel` itself (a comparison kernel already chosen) to the end on A and B.
ComparisonCount CountKernel(const KernelConfig& kernel, const std::vector<float>& a, const std::vector<float>& b,
                            const std::atomic<bool>* stop = nullptr, std::atomic<double>* fraction = nullptr);
ComparisonCount CountComparison(const KernelConfig& config, const std::vector<float>& a, const std::vector<float>& b,
                                const std::atomic<bool>* stop = nullptr, std::atomic<double>* fraction = nullptr);

}  // namespace sim
