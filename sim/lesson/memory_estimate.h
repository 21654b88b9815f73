// memory_estimate.h — how much memory the model takes for a lesson, before it starts, so a
// lesson that cannot fit is refused with the size named (Validate) rather than running the
// machine out of memory. Sized for the most the GUI holds for one lesson at once: the
// lesson's Simulation run to its end with its step-back history, the whole-run pass's
// machine, and the comparison kernel's machine (sim/lesson/comparison.h), all on workers together.
// `model_memory` (sim/bench) measures each beside this estimate.
#pragma once
#include <cstdint>

#include "sim/model/kernel_config.h"

namespace sim {

struct MemoryEstimate {
  std::uint64_t lesson = 0;      // Simulation: state, logs, A and B, reference C, history
  std::uint64_t whole_run = 0;   // the whole-run pass: a second machine, no history
  std::uint64_t comparison = 0;  // the comparison kernel's bare machine
  // The lesson's Simulation held at step 0 (its history only the initial state) while its
  // whole run is counted: a lesson too big for step back (sim/lesson/validation.h).
  std::uint64_t lesson_without_history = 0;
  std::uint64_t total() const { return lesson + whole_run + comparison; }
  std::uint64_t without_step_back() const { return lesson_without_history + whole_run + comparison; }
};

// For sizes Validate's other checks accept (dimensions and tiles within their limits).
MemoryEstimate EstimateModelMemory(const KernelConfig& config);

}  // namespace sim
