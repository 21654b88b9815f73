// comparison_counter.h — the kernel the lesson is compared with (the naive kernel for a
// tiled lesson, the textbook tiled kernel for a student's), counted on the model on a worker thread, so that a large lesson's count
// never stalls a frame. The Counters panel shows it beside the closed form.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>

#include "kernels/background_job.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/comparison.h"
#include "sim/model/simulation.h"

namespace gui {

class ComparisonCounter {
 public:
  // The lesson on show changed: count its comparison (after the count in flight, if any).
  void Request(const sim::Simulation& simulation);
  // Once a frame: starts the waiting count when the worker is free.
  void Poll();
  // Stops the count in flight: the comparison then reads "not counted" (Current()'s reads empty).
  void Cancel() {
    waiting_.reset();
    job_.Cancel();
  }
  // The count for the lesson on show; nothing while it is being counted.
  std::optional<sim::ComparisonCount> Current() const;
  bool Busy() const { return job_.Running() || waiting_.has_value(); }

 private:
  struct Lesson {
    std::uint64_t generation = 0;
    sim::KernelConfig kernel;  // the comparison kernel itself
    std::vector<float> a;
    std::vector<float> b;
  };
  using Counted = std::pair<std::uint64_t, sim::ComparisonCount>;  // the lesson's generation, its count

  std::uint64_t generation_ = 0;  // grows with every Request
  std::optional<Lesson> waiting_;
  kernels::BackgroundJob<Counted> job_;
};

}  // namespace gui
