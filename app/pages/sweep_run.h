// sweep_run.h — a sweep on this machine's GPU, from live-run to its end: the runner times the
// kernels on its worker thread; once a frame the page takes the results that arrived and the
// latest progress, so the window keeps drawing at full rate. When the sweep ends it says how
// it went and saves the results where live-run was told to.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>

#include "app/panels/live_sweep_view.h"
#include "kernels/runner.h"
#include "kernels/sweep_results.h"

namespace gui {

class SweepRun {
 public:
  // What the status line says when a sweep ends.
  struct Outcome {
    std::string text;
    bool is_error = false;
  };

  // Starts timing `request` into `sweep` (cleared for the device); why not, if it cannot.
  std::optional<std::string> Start(const kernels::BenchRequest& request, const kernels::DeviceInfo& device,
                                   const std::string& save_to, kernels::SweepResults& sweep);
  // The launch in flight finishes first.
  std::optional<std::string> Cancel();
  // Once a frame: adds what arrived to `sweep`; the outcome on the frame the sweep ended.
  std::optional<Outcome> Collect(double frame_seconds, kernels::SweepResults& sweep);

  bool in_flight() const { return in_flight_; }
  const panels::SweepProgress& progress() const { return progress_; }
  // The progress and the frames the window drew while the last sweep ran.
  void DumpState(nlohmann::json& live) const;

 private:
  Outcome Finish(kernels::SweepResults& sweep);

  kernels::Runner runner_;
  bool in_flight_ = false;  // Started and not yet collected to its end.
  // Frames the window drew while the last sweep ran: the UI never waits on the GPU.
  struct FrameTimes {
    long frames = 0;
    double seconds = 0.0;
    double longest = 0.0;  // seconds
    void Add(double delta) {
      ++frames;
      seconds += delta;
      longest = std::max(longest, delta);
    }
  } frames_;
  std::string save_when_done_;  // live-run's file: written when the sweep ends.
  panels::SweepProgress progress_;
};

}  // namespace gui
