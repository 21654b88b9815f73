#include "app/pages/whole_run_pass.h"

#include <algorithm>
#include <utility>

namespace gui {

void WholeRunPass::Start(const sim::Simulation& simulation, Keep keep) {
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
  job_.Start([generation = generation_, fresh = simulation.FreshMachine(), keep,
              fraction = &fraction_](const std::atomic<bool>& cancel, kernels::JobProgress&) mutable {
    if (keep == Keep::kFinishedRun) return Counted{generation, std::nullopt, sim::RunWholeRun(std::move(fresh), &cancel, fraction)};
    return Counted{generation, sim::ComputeTimeline(std::move(fresh), &cancel, fraction), std::nullopt};
  });
}

void WholeRunPass::Poll(sim::Simulation& simulation, double seconds) {
  if (state_ != State::kCounting) return;
  ++frames_;
  seconds_ += seconds;
  if (job_.Running()) return;
  std::optional<Counted> counted = job_.TakeResult();
  if (!counted || counted->generation != generation_) return;
  if (counted->finished) {
    simulation.AdoptFinishedRun(std::move(*counted->finished));
  } else if (counted->timeline) {
    simulation.AdoptTimeline(std::move(*counted->timeline));
  } else {
    state_ = State::kCancelled;
    return;
  }
  state_ = State::kDone;
}

double WholeRunPass::Fraction() const {
  if (state_ == State::kDone) return 1.0;
  return std::clamp(fraction_.load(), 0.0, 1.0);
}

}  // namespace gui
