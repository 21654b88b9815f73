#include "app/pages/trace_export.h"

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/io/atomic_file.h"
#include "sim/lesson/comparison.h"
#include "sim/model/reference.h"
#include "sim/model/run_check.h"
#include "sim/model/simulation.h"
#include "sim/lesson/trace_summary.h"

namespace gui {
namespace {

// The export runs forward once: no step-back history.
constexpr std::size_t kNoHistory = 0;

// The naive kernel's global reads on the same sizes and inputs: the figure the trace JSON
// sets beside the lesson's own count. A naive lesson is its own comparison.
std::uint64_t NaiveGlobalReads(const sim::Simulation& lesson) {
  if (lesson.config().kernel == sim::KernelKind::kNaive) return lesson.counters().GlobalReads();
  return sim::CountComparison(lesson.config(), lesson.a(), lesson.b()).global_reads.value_or(0);
}

}  // namespace

std::string ExportTraceJson(const sim::LessonConfig& lesson, const std::string& path) {
  if (auto invalid = sim::Validate(lesson)) return invalid->message;
  sim::Simulation simulation(lesson, kNoHistory);
  simulation.RunToEnd();
  const nlohmann::json trace = sim::TraceSummaryJson(lesson, simulation, sim::Assess(simulation), NaiveGlobalReads(simulation));
  return sim::WriteFileAtomically(path, trace.dump(2) + "\n").value_or("");
}

}  // namespace gui
