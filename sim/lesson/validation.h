// validation.h — whether a lesson can run here: the model's own checks (ValidateKernel) and
// whether everything the app holds for it at once fits in memory (sim/lesson/memory_estimate.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "sim/model/kernel_config.h"

namespace sim {

// The model keeps per-thread, per-element and per-cell state, logs and a step-back history;
// a lesson whose estimate (sim/lesson/memory_estimate.h) is above this is refused.
constexpr std::uint64_t kMaxModelBytes = 1ull << 30;

// What the model is asked for, which decides the memory it may take: a lesson as the GUI
// holds it (its step-back history beside two more machines); a lesson too big for that, held
// without step back while its whole run is counted once (MemoryEstimate::without_step_back);
// or one bare machine run to the end for its C (ComputeC: the runner's model check, verify,
// the race runs), which keeps no history and so fits lessons the GUI must refuse.
enum class ModelUse { kLesson, kLessonWithoutStepBack, kBareRun };

// nullopt when the lesson can run; otherwise the first problem found.
std::optional<ValidationError> Validate(const KernelConfig& config, ModelUse use = ModelUse::kLesson);

// How a lesson opens in the window: stepped with step back where that fits, else shown
// without step back (its whole run counted once on a worker: the counts, the timeline and C
// at its end; no stepping).
enum class LessonMode { kStepping, kWithoutStepBack };

// For a lesson Validate(config, ModelUse::kLessonWithoutStepBack) accepts.
LessonMode OpeningMode(const KernelConfig& config);

// Why stepping and step back are off for a kWithoutStepBack lesson, with the memory each way
// and the limit: the sentence the window shows wherever stepping would be.
std::string SteppingOffReason(const KernelConfig& config);

}  // namespace sim
