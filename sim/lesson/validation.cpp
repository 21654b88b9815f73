#include "sim/lesson/validation.h"

#include <string>

#include "sim/lesson/memory_estimate.h"

namespace sim {

std::optional<ValidationError> Validate(const KernelConfig& config, ModelUse use) {
  if (auto error = ValidateShape(config)) return error;
  const MemoryEstimate estimate = EstimateModelMemory(config);
  if (const std::uint64_t bytes = use == ModelUse::kLesson ? estimate.total() : estimate.whole_run;
      bytes > kMaxModelBytes) {
    return ValidationError{"m", "M = " + std::to_string(config.m) + ", N = " + std::to_string(config.n) +
                                    ", K = " + std::to_string(config.k) + " needs about " +
                                    std::to_string(bytes >> 20) + " MiB of model state: the limit is " +
                                    std::to_string(kMaxModelBytes >> 20) + " MiB"};
  }
  return ValidateInputs(config);
}

}  // namespace sim
