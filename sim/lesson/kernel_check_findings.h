// kernel_check_findings.h — the grader's findings: what the model logged and counted over each
// run of a student's kernel, gathered by what it is and where, each with its sentence.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/cuda/front_end.h"
#include "sim/lesson/kernel_check_plan.h"
#include "sim/model/machine.h"

namespace sim {

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


// Findings gathered over every size, by what they are and where.
class CheckFindings {
 public:
  explicit CheckFindings(const cuda::CompiledKernel& kernel);

  // Adds what `machine`, run to its end at `size`, logged and counted.
  void AddRun(const Machine& machine, const CheckSize& size);
  // Errors first, in the order, then warnings.
  std::vector<CheckFinding> Sorted() const;

 private:
  using Key = std::tuple<FindingKind, std::string, std::string, int, int, bool>;

  CheckFinding& At(const CheckFinding& f);
  void Race(const RaceTally& race);
  void Finding(const KernelFindingTally& tally, const CheckSize& size);
  // The local variable or array whose registers include `slot`; null for none.
  const cuda::Variable* VariableAt(std::int64_t slot) const;

  const cuda::CompiledKernel& kernel_;
  bool has_syncwarp_ = false;
  std::map<Key, CheckFinding> found_;
  std::map<int, int> worst_ways_;
};

}  // namespace sim
