// kernel_check.h — the grader: a student's kernel run on the model at a few sizes, C compared
// with the exact product, and every mistake the model can name, at its line, in a sentence.
//
// `tilescope check` prints and writes what this returns; nothing here prints.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/cuda/front_end.h"
#include "sim/lesson/kernel_check_findings.h"
#include "sim/lesson/kernel_check_plan.h"

namespace sim {

struct KernelCheckReport {
  std::string kernel;
  std::uint64_t seed = 1;  // of A and B (InputsFor)
  std::array<int, 3> block{};
  std::vector<CheckRun> runs;
  std::vector<CheckFinding> findings;  // errors first, in the order, then warnings
  // C right at every size and no finding an error.
  bool Passed() const;
};

struct KernelCheckResult {
  std::optional<KernelCheckReport> report;
  std::string error;  // what makes the check impossible (a parameter it cannot bind, no block...)
};

// `cancel` (may be null) stops it between steps, with the error "stopped".
KernelCheckResult CheckKernel(const cuda::KernelFile& file, const KernelCheckOptions& options,
                              const std::atomic<bool>* cancel = nullptr);

// Elements of `c` whose bits differ from `reference`, and the first of them (row-major, N columns).
struct Difference {
  std::uint64_t count = 0;
  std::optional<CheckRun::Wrong> first;
};
Difference Differ(const std::vector<float>& c, const std::vector<float>& reference, int n);

}  // namespace sim
