// validation.h — whether a lesson can run here: the model's own checks (ValidateKernel) and
// whether everything the app holds for it at once fits in memory (sim/lesson/memory_estimate.h).
#pragma once
#include <cstdint>
#include <optional>

#include "sim/model/kernel_config.h"

namespace sim {

// The model keeps per-thread, per-element and per-cell state, logs and a step-back history;
// a lesson whose estimate (sim/lesson/memory_estimate.h) is above this is refused.
constexpr std::uint64_t kMaxModelBytes = 1ull << 30;

// What the model is asked for, which decides the memory it may take: a lesson as the GUI
// holds it (its step-back history beside two more machines), or one bare machine run to
// the end for its C (ComputeC: the runner's model check, verify, the race runs), which keeps
// no history and so fits lessons the GUI must refuse.
enum class ModelUse { kLesson, kBareRun };

// nullopt when the lesson can run; otherwise the first problem found.
std::optional<ValidationError> Validate(const KernelConfig& config, ModelUse use = ModelUse::kLesson);

}  // namespace sim
