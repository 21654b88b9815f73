// whole_run_pass.h — the lesson's whole run (total steps, the timeline's marks, the whole-run
// counters) counted on a worker, so a large lesson never freezes the window: the page starts
// it on every new lesson, the timeline shows its progress and a Cancel, and the result goes
// to the Simulation when it is there. Stepping works meanwhile; views that need the whole run
// say it is being counted.
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>

#include "kernels/background_job.h"
#include "sim/model/simulation.h"

namespace gui {

class WholeRunPass {
 public:
  enum class State { kCounting, kDone, kCancelled };
  // What the simulation is handed: the whole run's figures, or the finished run itself (a
  // lesson without step back then stands at its end: its C, counters and reference).
  enum class Keep { kTimeline, kFinishedRun };

  // Counts `simulation`'s lesson, after cancelling a count in flight.
  void Start(const sim::Simulation& simulation, Keep keep);
  // Once a frame (`seconds` since the last): hands the finished count to `simulation` when it
  // was started for it, and notes the frames the window drew meanwhile.
  void Poll(sim::Simulation& simulation, double seconds);
  void Cancel() { job_.Cancel(); }
  State state() const { return state_; }
  // 0..1 of the run counted so far.
  double Fraction() const;
  // Frames drawn, and their seconds, while the last count ran: the window never waits on it.
  long frames_while_counting() const { return frames_; }
  double seconds_counting() const { return seconds_; }

 private:
  struct Counted {
    std::uint64_t generation = 0;
    std::optional<sim::Timeline> timeline;  // nothing when cancelled, or when `finished` holds it
    std::optional<sim::FinishedRun> finished;
  };

  std::uint64_t generation_ = 0;  // of the lesson on show
  State state_ = State::kDone;
  long frames_ = 0;
  double seconds_ = 0.0;
  std::atomic<double> fraction_{0.0};
  kernels::BackgroundJob<Counted> job_;  // last: destroyed first, it stops the worker before the rest goes
};

}  // namespace gui
