// live_gpu_panel.h — the live GPU panel: the device (or why there is none), the sweep's
// form (kernels, sizes, repetitions), Run / Cancel with progress, GFLOPS against size as a
// plot or % of cuBLAS as bars, and the results table.
//
// It draws a sweep it does not own (LiveSweepView, filled by the live workspace, which owns
// the runner); every button queues the same named action a key or a script would.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/gui/workspace.h"
#include "app/plot/primitives.h"
#include "app/plot/sweep_file.h"
#include "kernels/bench.h"

namespace panels {

using LiveDevice = plot::DeviceFacts;

// "NVIDIA H100 80GB HBM3 · CC 9.0 · 132 SMs · 1980 MHz · 79.2 GiB · FP32 peak 66.9 TFLOPS".
std::string DescribeDevice(const LiveDevice& device);

// Where the results on screen come from.
struct ResultsSource {
  bool loaded = false;      // From a file rather than this session's run.
  std::string file;
  std::string device;       // Measured on…
  std::string date;         // …at (ISO 8601, as the file says).
};

struct SweepProgress {
  bool running = false;
  int done = 0;   // Launches of (kernel, size) finished.
  int total = 0;
  std::string text;  // "kernel 3 of 7, n = 4096".
};

// What the panel draws; the workspace owns all of it.
struct LiveSweepView {
  const LiveDevice& device;  // This machine's GPU.
  const std::vector<kernels::BenchResult>& results;
  const ResultsSource& source;
  const SweepProgress& progress;
  double peak_gflops = 0.0;  // Of the GPU the results were measured on (a loaded file's, or this one's).
};

enum class LiveView { kPlot, kBars };

// The sweep's form and the panel's view state: what `live-kernels`, `live-sizes` and the
// checkboxes change, and what `live-run` reads.
struct LiveGpuPanel {
  bool open = true;
  LiveView view = LiveView::kPlot;
  std::vector<std::string> kernels;  // Registry names, in registry order.
  std::string sizes_text = "256:4096";
  std::string sizes_message;  // Why the sizes cannot run (shown beside the field); "" when fine.
  int reps = 10;
  std::string status_message;  // The last load/export/run outcome, shown under the controls.
  bool status_is_error = false;
  std::string file_path;       // The File field: what Load and the exports use.
  std::string pending_png;     // Set by `live-export-png`: cropped from the next frame.
  plot::PlotState plot_state;  // What the plot drew last frame.

  LiveGpuPanel();
  void Draw(const gui::FrameContext& frame, const LiveSweepView& sweep);
  // Re-checks the sizes against the device; returns the parsed shapes (empty on error).
  std::vector<kernels::Shape> ValidateSizes(const LiveDevice& device);
  void DumpState(nlohmann::json& state) const;

 private:
  void PlaceWindow(const gui::FrameContext& frame) const;
  void DrawDevice(const LiveDevice& device) const;
  void DrawKernelChoice(const gui::FrameContext& frame);
  void DrawSweepForm(const gui::FrameContext& frame, const LiveSweepView& sweep);
  void DrawFileRow(const gui::FrameContext& frame);
  void DrawProgress(const SweepProgress& progress) const;
  void DrawResultsArea(const gui::FrameContext& frame, const LiveSweepView& sweep);
  void DrawTable(const LiveSweepView& sweep) const;
  void DrawTableRow(const kernels::BenchResult& result, double peak) const;
};

}  // namespace panels
