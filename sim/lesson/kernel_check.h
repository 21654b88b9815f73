// kernel_check.h — the grader: a student's kernel run on the model at a few sizes, C compared
// with the exact product, and every mistake the model can name, at its line, in a sentence.
//
// `tilescope check` prints and writes what this returns; nothing here prints.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cuda/front_end.h"
#include "sim/model/kernel_config.h"
#include "sim/model/machine.h"

namespace sim {

struct CheckSize {
  int m = 0, n = 0, k = 0;
};

struct KernelCheckOptions {
  std::vector<CheckSize> sizes;                  // empty: a multiple of the block and a non-multiple
  std::optional<std::array<int, 3>> block;       // else the file's launch
  // Blocks per axis; 0: auto, enough to cover C (x along N, y along M; z: 1).
  std::array<int, 3> grid{0, 0, 0};
  std::map<std::string, long long> int_values;   // --define NAME=VALUE for int parameters that are not sizes
  SchedulerKind scheduler = SchedulerKind::kRealistic;
  std::uint64_t seed = 1;
};

struct CheckRun {
  CheckSize size;
  std::uint64_t elements = 0;
  std::uint64_t wrong_elements = 0;
  struct Wrong {
    int row = 0, col = 0;
    float got = 0.0f, expected = 0.0f;
  };
  std::optional<Wrong> first_wrong;
};

enum class FindingKind : std::uint8_t {
  kRace, kOutOfBounds, kDivergentBarrier, kUninitializedRead, kBankConflict, kNotTerminating, kDeadlock, kInputWritten
};
const char* Name(FindingKind kind);

struct CheckFinding {
  FindingKind kind = FindingKind::kRace;
  std::string memory;   // "shared", "global", "local" or empty
  std::string hazard;   // "RAW", "WAR", "WAW" or empty
  int line = 0;
  int other_line = 0;   // a race's other access; 0 where there is none
  bool error = true;    // else a warning
  std::uint64_t count = 0;
  std::string sentence;
};

struct KernelCheckReport {
  std::string kernel;
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

// The runs the check makes: each size's launch and its seeded A and B, or why it cannot run.
// The window runs a student's kernel as the first of them, so it shows what the check judges.
struct CheckPlan {
  struct Run {
    CheckSize size;
    KernelLaunch launch;
    std::vector<float> a, b;
  };
  std::array<int, 3> block{};
  std::vector<Run> runs;
  std::string error;
};
CheckPlan PlanCheck(const cuda::KernelFile& file, const KernelCheckOptions& options);

// `cancel` (may be null) stops it between steps, with the error "stopped".
KernelCheckResult CheckKernel(const cuda::KernelFile& file, const KernelCheckOptions& options,
                              const std::atomic<bool>* cancel = nullptr);

// A finding as the report's findings[] hold it.
nlohmann::json FindingJson(const CheckFinding& finding);
// The report as `tilescope check --json` writes it: runs[] and findings[].
nlohmann::json CheckJson(const KernelCheckReport& report, const std::string& file);

}  // namespace sim
