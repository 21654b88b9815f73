#include "sim/lesson/validation.h"

#include <string>

#include "sim/lesson/memory_estimate.h"

namespace sim {

namespace {

std::uint64_t BytesFor(const MemoryEstimate& estimate, ModelUse use) {
  switch (use) {
    case ModelUse::kLesson: return estimate.total();
    case ModelUse::kLessonWithoutStepBack: return estimate.without_step_back();
    case ModelUse::kBareRun: return estimate.whole_run;
  }
  return estimate.total();
}

std::string Mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string Sizes(const KernelConfig& config) {
  return "M = " + std::to_string(config.m) + ", N = " + std::to_string(config.n) + ", K = " + std::to_string(config.k);
}

}  // namespace

std::optional<ValidationError> Validate(const KernelConfig& config, ModelUse use) {
  if (auto error = ValidateShape(config)) return error;
  if (const std::uint64_t bytes = BytesFor(EstimateModelMemory(config), use); bytes > kMaxModelBytes) {
    const char* how = use == ModelUse::kLessonWithoutStepBack ? " even without step back" : "";
    return ValidationError{"m", Sizes(config) + " needs about " + Mib(bytes) + " of model state" + how +
                                    ": the limit is " + Mib(kMaxModelBytes)};
  }
  return ValidateInputs(config);
}

LessonMode OpeningMode(const KernelConfig& config) {
  return Validate(config, ModelUse::kLesson) ? LessonMode::kWithoutStepBack : LessonMode::kStepping;
}

std::string SteppingOffReason(const KernelConfig& config) {
  const MemoryEstimate estimate = EstimateModelMemory(config);
  return "Stepping and step back are off for this size: " + Sizes(config) + " with step back needs about " +
         Mib(estimate.total()) + " of model state, over the " + Mib(kMaxModelBytes) +
         " limit. Its whole run is counted once instead (about " + Mib(estimate.without_step_back()) +
         "): the counts, the timeline and C at its end.";
}

}  // namespace sim
