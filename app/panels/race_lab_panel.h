// race_lab_panel.h — switch a barrier off and watch C go wrong: which case the lesson is
// in (one warp or several) and why, the barrier kinds (__syncthreads, __syncwarp, off),
// the scheduler that decides whether the race corrupts C (key S: race-exposing), how many
// elements of C are wrong, "run 100 seeds", and the same variants on the GPU beside the
// model. Draws what RaceLab holds and queues actions; it changes nothing itself.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "kernels/background_job.h"
#include "kernels/runner.h"
#include "sim/model/run_check.h"
#include "sim/lesson/lesson_config.h"
#include "sim/model/reference.h"
#include "sim/lesson/seed_sweep.h"
#include "sim/model/simulation.h"

namespace gui {

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
  // Where the realistic scheduler is not calibrated against the H100 for a variant: why, said
  // beside its count (sim::RealisticCalibrationCaveat); absent or "" where it is.
  std::map<std::string, std::string> caveat_by_label;
  std::string scheduler;
  std::uint64_t elements = 0;
};

// What the panel draws of the race lab's work (RaceLab, on the lesson page, owns it).
struct RaceLabView {
  sim::StoredCheck c;  // this run's C against the correct product
  const kernels::BackgroundJob<SweepOutcome>& seeds;
  const std::vector<RaceVariantRow>& variants;
  const kernels::BackgroundJob<ModelVariantRuns>& model_runs;
  bool gpu_running = false;
  kernels::Progress gpu_progress;
  std::string gpu_unavailable;  // why the GPU side cannot run for this lesson, or ""
  const std::string& gpu_status;
  std::int64_t large_size = 0;
  int trials = 0;
  std::string stepping_off;  // why Run to end is off (a lesson without step back: WholeRunView), or ""
};

struct RaceLabPanel {
  void Draw(const FrameContext& frame, const sim::Simulation& simulation, const RaceLabView& lab);

 private:
  void DrawBarriers(const FrameContext& frame, const sim::KernelConfig& lesson);
  void DrawScheduler(const FrameContext& frame, const sim::KernelConfig& lesson);
  void DrawPresentation(const sim::Simulation& simulation, const RaceLabView& lab);
  void DrawThisRun(const sim::Simulation& simulation, const RaceLabView& lab);
  void DrawSeeds(const FrameContext& frame, const RaceLabView& lab);
  void DrawGpu(const FrameContext& frame, const sim::Simulation& simulation, const RaceLabView& lab);
  void DrawGpuTable(const RaceLabView& lab);
  static void DrawGpuResult(const kernels::RaceResult& result);

  int seeds_field_ = 100;
  int large_size_field_ = 0;  // 0: not yet read from the lab
  int trials_field_ = 0;
  bool gpu_was_busy_ = false;  // a GPU race run (or its model runs) was in flight last frame
};

}  // namespace gui
