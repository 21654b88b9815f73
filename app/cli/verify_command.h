// verify_command.h — `tilescope verify FILE`: check seed 003's test vectors on the CPU
// model (always) and on the GPU kernel (when there is a device).
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

#include "kernels/bench.h"
#include "kernels/kernel_table.h"
#include "sim/lesson_config.h"

namespace cli {

// Exit status of a file that is truncated or inconsistent (the cases before it are checked).
constexpr int kExitBadVectorFile = 2;

// The model's lesson that runs exactly `kernel` at `shape` on explicit A and B, with the
// realistic scheduler. cuBLAS rows have no model: the caller must not ask for them.
sim::LessonConfig ModelLessonFor(const kernels::KernelSpec& kernel, const kernels::Shape& shape,
                                 std::vector<float> a, std::vector<float> b);

void AddVerifyCommand(CLI::App& app, std::function<int()>& action);

}  // namespace cli
