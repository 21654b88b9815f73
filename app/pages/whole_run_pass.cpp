#include "app/pages/whole_run_pass.h"

#include <algorithm>
#include <utility>

namespace gui {

void WholeRunPass::Start(const sim::Simulation& simulation) {
  job_.Cancel();
  job_.Wait();
  ++generation_;
  fraction_ = 0.0;
  frames_ = 0;
  seconds_ = 0.0;
  state_ = State::kCounting;
  if (simulation.KnownTimeline()) {
    state_ = State::kDone;
    return;
  }
  job_.Start([generation = generation_, fresh = simulation.FreshMachine(),
              fraction = &fraction_](const std::atomic<bool>& cancel, kernels::JobProgress&) {
    return Counted{generation, sim::ComputeTimeline(fresh, &cancel, fraction)};
  });
}

void WholeRunPass::Poll(sim::Simulation& simulation, double seconds) {
  if (state_ != State::kCounting) return;
  ++frames_;
  seconds_ += seconds;
  if (job_.Running()) return;
  std::optional<Counted> counted = job_.LastResult();
  if (!counted || counted->generation != generation_) return;
  if (!counted->timeline) {
    state_ = State::kCancelled;
    return;
  }
  simulation.AdoptTimeline(std::move(*counted->timeline));
  state_ = State::kDone;
}

double WholeRunPass::Fraction() const {
  if (state_ == State::kDone) return 1.0;
  return std::clamp(fraction_.load(), 0.0, 1.0);
}

}  // namespace gui
