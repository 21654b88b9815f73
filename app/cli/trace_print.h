// trace_print.h — the text `tilescope trace` prints: the lesson, the phase-by-phase
// walkthrough the 4×4 walkthrough exercise asks for (tiles loaded per phase and block,
// As/Bs, partial sums, C), the global reads of the tiled and the naive kernel with the saving, the other
// counters, hazards, out-of-bounds accesses and the verdict. Every number comes from the
// model's counters and events; nothing here computes a figure of its own.
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/model/reference.h"
#include "sim/model/simulation.h"
#include "sim/lesson/walkthrough.h"

namespace cli {

// The kernel the lesson is compared with, run on the model with the same sizes and inputs:
// the naive kernel for a tiled lesson, the tiled kernel for a naive one.
struct CountedComparison {
  sim::KernelConfig kernel;
  std::uint64_t global_reads = 0;
};

struct TraceReport {
  const sim::LessonConfig* lesson = nullptr;    // what ran
  const sim::Simulation* simulation = nullptr;  // run to the end
  const sim::WalkthroughRecorder* walkthrough = nullptr;
  sim::RunOutcome outcome;
  std::optional<CountedComparison> comparison;  // nullopt: the comparison could not run
  std::string comparison_error;
  std::string source;             // where the lesson came from
  std::vector<float> expected_c;  // a test-vector file's C, or empty
};

void PrintTrace(std::FILE* out, const TraceReport& report);

// With --fill file:PATH, C against the file's expected C, as `verify` checks it.
struct FileCheck {
  double worst = 0.0;  // the largest |error|, NaN when an element is NaN
  double tolerance = 0.0;
  bool passed() const { return worst <= tolerance; }  // false for NaN
};
std::optional<FileCheck> CheckAgainstFile(const TraceReport& report);  // nullopt: no file given

}  // namespace cli
