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
#include "kernels/background_job.h"
#include "app/pages/lesson_editor.h"
#include "app/panels/race_lab_panel.h"
#include "kernels/runner.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/seed_sweep.h"
#include "sim/model/simulation.h"

namespace gui {

class RaceLab {
 public:
  // `student_scheduler` runs a student's kernel under another scheduler: what S does while one is on show.
  RaceLab(LessonEditor& editor, std::function<const sim::Simulation&()> simulation,
          std::function<std::optional<std::string>(sim::SchedulerKind)> student_scheduler);

  // race-scheduler (S), seeds-run, seeds-cancel, race-gpu-run, race-gpu-cancel,
  // race-gpu-size, race-trials.
  void RegisterActions(ActionRegistry& registry);
  // Once a frame: takes the GPU results that arrived.
  void Poll();
  bool Busy() const;

  // What the race lab panel draws this frame.
  RaceLabView View() const;

  void DumpState(nlohmann::json& state) const;

 private:
  std::optional<std::string> ToggleRaceScheduler();
  std::optional<std::string> RunSeeds();
  std::optional<std::string> RunGpu();
  std::optional<std::string> SetLargeSize(const std::string& text);
  std::optional<std::string> SetTrials(const std::string& text);
  void StartModelRuns(const sim::KernelConfig& lesson);
  // Why the GPU side cannot run for this lesson (no device, no compiled variants), or "".
  std::string GpuUnavailableReason() const;

  LessonEditor& editor_;
  std::function<const sim::Simulation&()> simulation_;
  std::function<std::optional<std::string>(sim::SchedulerKind)> student_scheduler_;
  int seed_count_ = 100;
  kernels::BackgroundJob<SweepOutcome> seeds_;
  std::int64_t large_size_ = 1024;
  int trials_ = 3;
  kernels::Runner runner_;
  std::vector<RaceVariantRow> variants_;
  kernels::BackgroundJob<ModelVariantRuns> model_runs_;
  std::string gpu_status_;
  // True from a frame that saw work running until the next one: the frame after the work
  // ends draws its result before an automated run (--screenshot) counts the lab idle.
  bool settling_ = false;
};

// "TILE 2, 1st barrier off, 2nd __syncthreads(), scheduler race": what a lesson races with.
std::string DescribeRaceSetup(const sim::KernelConfig& lesson);

}  // namespace gui
