// race_lab.h — the race lab's work and results: how this run compares with the correct
// product, "run 100 seeds" on a worker thread, and the barrier-removed kernels on the GPU
// (the kernels runner's race run) beside the model's count for the same variants.
//
// The GUI thread only starts, polls and cancels; the model runs in a BackgroundJob and the
// GPU in kernels::Runner's worker. Without a device the GPU side says why (ProbeGpu) and
// the model side works alone.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/background_job.h"
#include "app/gui/lesson_editor.h"
#include "kernels/runner.h"
#include "sim/seed_sweep.h"
#include "sim/simulation.h"

namespace gui {

// C of the running lesson against the correct product: only stored elements count, so a
// run stopped half-way says "2 of 6 stored elements wrong", not "10 wrong".
struct CCheck {
  std::uint64_t elements = 0;
  std::uint64_t stored = 0;
  std::uint64_t wrong = 0;
  std::vector<std::int32_t> wrong_indices;  // row-major
};

// A sweep's result with the lesson it ran on, which may since have changed.
struct SweepOutcome {
  sim::SeedSweepResult result;
  std::string lesson;  // "TILE 2, 1st barrier off, scheduler race"
  std::uint64_t elements = 0;
  std::uint64_t first_seed = 0;
};

// One barrier-removed variant: the model at the lesson's size, the GPU at each size asked.
struct RaceVariantRow {
  std::string kernel;  // registry name, "tiled2_nosync1"
  std::string label;   // "tiled 2, no 1st barrier"
  sim::SyncKind barrier1 = sim::SyncKind::kSyncthreads;
  sim::SyncKind barrier2 = sim::SyncKind::kSyncthreads;
  std::vector<kernels::RaceResult> gpu;  // in the order the runner reports them
};

struct ModelVariantRuns {
  std::map<std::string, sim::SeedSweepResult> by_label;
  std::string scheduler;
  std::uint64_t elements = 0;
};

class RaceLab {
 public:
  RaceLab(LessonEditor& editor, std::function<const sim::Simulation&()> simulation);

  // race-scheduler (S), seeds-run, seeds-cancel, race-gpu-run, race-gpu-cancel,
  // race-gpu-size, race-trials.
  void RegisterActions(ActionRegistry& registry);
  // Once a frame: takes the GPU results that arrived.
  void Poll();
  bool Busy() const;

  CCheck CheckC() const;
  const BackgroundJob<SweepOutcome>& seeds() const { return seeds_; }
  int seed_count() const { return seed_count_; }
  const std::vector<RaceVariantRow>& variants() const { return variants_; }
  const BackgroundJob<ModelVariantRuns>& model_runs() const { return model_runs_; }
  bool gpu_running() const { return runner_.Running(); }
  kernels::Progress gpu_progress() const { return runner_.LastProgress(); }
  // Why the GPU side cannot run for this lesson (no device, no compiled variants), or "".
  std::string GpuUnavailableReason() const;
  const std::string& gpu_status() const { return gpu_status_; }
  std::int64_t large_size() const { return large_size_; }
  int trials() const { return trials_; }

  void DumpState(nlohmann::json& state) const;

 private:
  std::optional<std::string> ToggleRaceScheduler();
  std::optional<std::string> RunSeeds();
  std::optional<std::string> RunGpu();
  std::optional<std::string> SetLargeSize(const std::string& text);
  std::optional<std::string> SetTrials(const std::string& text);
  void StartModelRuns(const sim::LessonConfig& lesson);
  const std::vector<float>& Reference() const;

  LessonEditor& editor_;
  std::function<const sim::Simulation&()> simulation_;
  int seed_count_ = 100;
  BackgroundJob<SweepOutcome> seeds_;
  std::int64_t large_size_ = 1024;
  int trials_ = 3;
  kernels::Runner runner_;
  std::vector<RaceVariantRow> variants_;
  BackgroundJob<ModelVariantRuns> model_runs_;
  std::string gpu_status_;
  // True from a frame that saw work running until the next one: the frame after the work
  // ends draws its result before an automated run (--screenshot) counts the lab idle.
  bool settling_ = false;
  // The correct product of the A and B it was computed for (recomputed when they change).
  mutable std::vector<float> reference_;
  mutable std::vector<float> reference_a_;
  mutable std::vector<float> reference_b_;
};

// "TILE 2, 1st barrier off, 2nd __syncthreads(), scheduler race": what a lesson races with.
std::string DescribeRaceSetup(const sim::LessonConfig& lesson);

}  // namespace gui
