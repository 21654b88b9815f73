// tour_runs.h — the whole runs a tour's queries read (the tour's lesson and the edited
// variants its queries ask about), each run once and kept, all within one budget of work so a
// lesson file (data) cannot hang the app; and the tour's cancel flag, which stops a run where
// it is. Used by TourModel and the query evaluators, not outside the lesson layer.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/tour.h"
#include "sim/lesson/walkthrough.h"
#include "sim/model/reference.h"
#include "sim/model/simulation.h"

namespace sim::queries {

// Thrown where a run would pass the tour's budget; TourModel turns it into the error.
struct OverBudget {
  std::string message;
};
// Thrown from within a run once the tour's cancel flag is set; TourModel turns it into
// kTourCancelled, so a worker stops mid-run instead of at the next stop.
struct Cancelled {};

// How many steps a cancellable run takes between looks at the flag: small enough that
// Cancel answers within a few milliseconds, large enough that the look costs nothing.
constexpr std::int64_t kStepsBetweenCancelChecks = 4096;

void RunToEndUnless(Simulation& simulation, const std::atomic<bool>* cancel);

// One lesson (the tour's, or an edited variant a query asks about) run to its end once.
struct WholeRun {
  Geometry geometry;
  Counters counters;
  RunOutcome outcome;
  std::vector<float> c;
  std::int64_t steps = 0;
  bool recorded = false;  // products and walkthrough kept
  std::vector<TraceEvent> products;
  std::unique_ptr<WalkthroughRecorder> walkthrough;
};

// Whole runs, each made once, within the tour's budget.
class Runs {
 public:
  Runs(const std::atomic<bool>* cancel, TourBudget& budget) : cancel_(cancel), budget_(budget) {}
  const std::atomic<bool>* cancel() const { return cancel_; }
  // Counts a run of `lesson` that keeps `kept_bytes` once it ends against the budget; throws
  // OverBudget past it.
  void Charge(const LessonConfig& lesson, std::uint64_t kept_bytes = 0);
  const WholeRun& Of(const LessonConfig& lesson);

 private:
  std::map<std::string, std::unique_ptr<WholeRun>> runs_;  // by the lesson's JSON
  const std::atomic<bool>* cancel_;  // may be null
  TourBudget& budget_;
};

}  // namespace sim::queries
