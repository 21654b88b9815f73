#include "app/pages/comparison_counter.h"

namespace gui {

void ComparisonCounter::Request(const sim::Simulation& simulation) {
  waiting_ = Lesson{++generation_, sim::ComparisonKernelOf(simulation), simulation.a(), simulation.b()};
  job_.Cancel();  // a count for an older lesson is no longer wanted
  Poll();
}

void ComparisonCounter::Poll() {
  if (job_.Running() || !waiting_) return;
  Lesson lesson = std::move(*waiting_);
  waiting_.reset();
  job_.Start([lesson = std::move(lesson)](const std::atomic<bool>& cancel, kernels::JobProgress&) {
    return Counted{lesson.generation, sim::CountKernel(lesson.kernel, lesson.a, lesson.b, &cancel)};
  });
}

std::optional<sim::ComparisonCount> ComparisonCounter::Current() const {
  if (Busy()) return std::nullopt;
  std::optional<Counted> done = job_.LastResult();
  if (!done || done->first != generation_) return std::nullopt;
  return std::move(done->second);
}

}  // namespace gui
