#include "sim/lesson/seed_sweep.h"

#include <algorithm>

#include "sim/model/machine.h"
#include "sim/model/reference.h"

namespace sim {

SeedSweepResult RunSeeds(const KernelConfig& config, int seeds, std::uint64_t first_seed,
                         const SweepProgress& progress, const std::atomic<bool>* cancel) {
  SeedSweepResult result;
  const std::vector<float> a = FillMatrix(config.fill_a, config.m, config.k);
  const std::vector<float> b = FillMatrix(config.fill_b, config.k, config.n);
  const std::vector<float> reference = ReferenceProduct(config.m, config.n, config.k, a, b);
  std::uint64_t total_wrong = 0;
  for (int i = 0; i < seeds; ++i) {
    if (cancel != nullptr && cancel->load()) {
      result.cancelled = true;
      break;
    }
    KernelConfig run = config;
    run.seed = first_seed + static_cast<std::uint64_t>(i);
    Machine machine(run, a, b);
    while (machine.Step()) {
    }
    const RunOutcome outcome = Assess(machine.state().c, reference, machine.state().counters);
    ++result.runs;
    result.runs_wrong += outcome.verdict == Verdict::kWrong;
    result.runs_with_hazards += outcome.hazards > 0;
    result.runs_witnessed_coincided += outcome.verdict == Verdict::kWitnessedValuesCoincided;
    ++result.wrong_elements_histogram[outcome.wrong_elements];
    result.min_wrong = result.runs == 1 ? outcome.wrong_elements : std::min(result.min_wrong, outcome.wrong_elements);
    result.max_wrong = std::max(result.max_wrong, outcome.wrong_elements);
    total_wrong += outcome.wrong_elements;
    if (progress) progress(result.runs, seeds);
  }
  if (result.runs > 0) result.mean_wrong = double(total_wrong) / result.runs;
  return result;
}

}  // namespace sim
