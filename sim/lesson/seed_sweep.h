// seed_sweep.h — the race lab's "run 100 seeds": the same lesson under many scheduler
// seeds, counting how often C came out wrong and how many elements were wrong, so a
// student sees that a race is about chance, not certainty. Runs on the caller's thread;
// reports progress and stops early when `cancel` becomes true.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>

#include "sim/model/kernel_config.h"

namespace sim {

struct SeedSweepResult {
  int runs = 0;                      // completed
  int runs_wrong = 0;                // C differed from the reference
  int runs_with_hazards = 0;
  int runs_witnessed_coincided = 0;  // raced the wrong way, yet C was right
  std::map<std::uint64_t, int> wrong_elements_histogram;  // wrong elements → runs
  std::uint64_t min_wrong = 0;
  std::uint64_t max_wrong = 0;
  double mean_wrong = 0.0;
  bool cancelled = false;
};

using SweepProgress = std::function<void(int done, int total)>;

SeedSweepResult RunSeeds(const KernelConfig& config, int seeds, std::uint64_t first_seed,
                         const SweepProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace sim
