#include "sim/lesson/tour_runs.h"

#include "sim/lesson/formulas.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/memory_estimate.h"
#include "sim/model/checked_math.h"
#include "sim/model/run_check.h"

namespace sim::queries {
namespace {

// Runs whose per-event records a query keeps (products and stores): beyond this many thread
// instructions a query that needs them says the lesson is too large for it.
constexpr std::uint64_t kMaxRecordedInstructions = std::uint64_t{1} << 22;

// The events a whole run leaves that queries read: every product, and (through the
// walkthrough) what each phase stored into the tiles.
class RecordingSink : public TraceSink {
 public:
  explicit RecordingSink(WalkthroughRecorder* walkthrough) : walkthrough_(walkthrough) {}
  void OnEvent(const TraceEvent& event) override {
    walkthrough_->OnEvent(event);
    if (event.kind == EventKind::kFma) products.push_back(event);
  }
  std::vector<TraceEvent> products;

 private:
  WalkthroughRecorder* walkthrough_;
};

std::unique_ptr<WholeRun> RunWhole(const LessonConfig& lesson, const std::atomic<bool>* cancel) {
  auto run = std::make_unique<WholeRun>();
  run->geometry = MakeGeometry(lesson);
  run->recorded = Expected(lesson).thread_instructions <= kMaxRecordedInstructions;
  run->walkthrough = std::make_unique<WalkthroughRecorder>(run->geometry, run->recorded ? run->geometry.blocks : 0);
  RecordingSink sink(run->walkthrough.get());
  Simulation simulation(lesson);
  if (run->recorded) simulation.SetSink(&sink);
  RunToEndUnless(simulation, cancel);
  run->counters = simulation.counters();
  run->outcome = Assess(simulation);
  run->c = simulation.c();
  run->steps = simulation.step();
  run->products = std::move(sink.products);
  return run;
}

// An upper bound of what a kept WholeRun holds: C, and when recorded its products and the
// walkthrough's tile stores (counted as events, the larger of the two records).
std::uint64_t KeptBytes(const LessonConfig& lesson) {
  const ClosedForms expected = Expected(lesson);
  const std::uint64_t c = SaturatingMul(SaturatingMul(std::uint64_t(lesson.m), std::uint64_t(lesson.n)), sizeof(float));
  if (expected.thread_instructions > kMaxRecordedInstructions) return c;
  return SaturatingAdd(c, SaturatingMul(SaturatingAdd(expected.fma, expected.shared_writes), sizeof(TraceEvent)));
}

}  // namespace

void RunToEndUnless(Simulation& simulation, const std::atomic<bool>* cancel) {
  if (cancel == nullptr) {
    simulation.RunToEnd();
    return;
  }
  std::int64_t steps = 0;
  simulation.RunWhile([&](const Simulation&) { return ++steps % kStepsBetweenCancelChecks != 0 || !cancel->load(); });
  if (!simulation.Finished()) throw Cancelled{};
}

void Runs::Charge(const LessonConfig& lesson, std::uint64_t kept_bytes) {
  if (auto over = budget_.Charge(Expected(lesson).thread_instructions, kept_bytes,
                                 EstimateModelMemory(lesson).whole_run)) {
    throw OverBudget{*over};
  }
}

const WholeRun& Runs::Of(const LessonConfig& lesson) {
  std::unique_ptr<WholeRun>& run = runs_[LessonToJson(lesson)];
  if (!run) {
    Charge(lesson, KeptBytes(lesson));
    run = RunWhole(lesson, cancel_);
  }
  return *run;
}

}  // namespace sim::queries
