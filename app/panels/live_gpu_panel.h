// live_gpu_panel.h — the live GPU panel, alone on its page: this machine's GPU (or why there
// is none), the sweep's form (kernels from the registry and the student's own, sizes, repetitions), Run / Cancel
// with progress, GFLOPS against size as a plot or % of cuBLAS as bars, and under it the
// results table and the model link (global reads beside the measured time).
//
// It draws a sweep it does not own (LiveSweepView, filled by the live page, which owns
// the runner and the model counts); every button queues the same named action a key or a
// script would.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "app/panels/ladder_view.h"
#include "app/panels/live_sweep_view.h"
#include "app/panels/student_sweep_row.h"
#include "app/plot/primitives.h"
#include "sim/io/folder_listing.h"
#include "kernels/device.h"

namespace panels {

// "NVIDIA H100 80GB HBM3 · CC 9.0 · 132 SMs · 1980 MHz · 79.1 GiB · 3352 GB/s · FP32 peak 66.9 TFLOPS ·
// TF32 tensor peak 535.2 TFLOPS · BF16 tensor peak 1070.5 TFLOPS", and L2's bandwidth where measured.
std::string DescribeDevice(const kernels::DeviceInfo& device);

// GFLOPS against size, % of cuBLAS by size, the ladder at one size (each kernel's idea,
// GFLOPS as a step towards cuBLAS, intensity, occupancy) and the roofline at that size.
enum class LiveView { kPlot, kBars, kLadder, kRoofline };
// The names `live-view` takes and --dump-state reports, in LiveView's order.
inline constexpr const char* kLiveViewNames[] = {"plot", "bars", "ladder", "roofline"};

// Whether Run can start a sweep now, and its tooltip: what it does, or why it is disabled.
struct RunButtonState {
  bool enabled = false;
  std::string tooltip;
};
RunButtonState RunButtonFor(const kernels::GpuStatus& gpu, const SweepProgress& progress);

// The sweep's form and the panel's view state: what `live-kernels`, `live-sizes` and the
// checkboxes change, and what `live-run` reads.
struct LiveGpuPanel {
  LiveView view = LiveView::kPlot;
  // Log by default: a default sweep puts 5-TFLOPS kernels beside 400-TFLOPS TF32 tensor cores,
  // and on a linear axis the kernels the lesson is about flatten into the x axis.
  plot::Scale gflops_axis = plot::Scale::kLog;
  std::vector<std::string> kernels;  // Registry names, in registry order.
  StudentSweepRow student;           // The student's kernel, timed beside them when included.
  std::string sizes_text = "256:4096";
  std::string sizes_message;  // Why the sizes cannot run (shown beside the field); "" when fine.
  std::size_t planned_sizes = 0;  // Sizes the text names when they are fine.
  int reps = 10;
  std::string status_message;  // The last run/load/export outcome, shown under the controls.
  bool status_is_error = false;
  std::string file_path;       // The File field: what Load and the exports use.
  bool choosing_file = false;  // The file dialog (Open…) is open, showing `file_choice`.
  sim::FolderListing file_choice;  // The folder the dialog shows, as the page listed it.
  std::string pending_png;     // Set by `live-export-png`: cropped from the next frame.
  std::string model_size;      // The model link's size, as kernels::ToString writes it.
  std::string ladder_size;     // The ladder's and roofline's size; "" follows the largest measured.
  LadderView ladder;           // The ladder view and the rung source open under it.
  plot::PlotState plot_state;  // What the plot drew last frame.
  std::string roofline_note;   // Why kernels lie above the memory roof, and why no L2 roof, as the roofline last said; "" none.
  // The presentation state the setup's fold last followed; starts unlike any frame's, so the
  // first frame sets it.
  std::optional<bool> fold_set_for_presentation;

  LiveGpuPanel();
  void Draw(const gui::FrameContext& frame, const LiveSweepView& sweep);
  // Re-checks the sizes against the device; returns the parsed shapes (empty on error).
  std::vector<kernels::Shape> ValidateSizes(const kernels::GpuStatus& gpu);
  void DumpState(nlohmann::json& state) const;

 private:
  void DrawDevice(const kernels::GpuStatus& gpu) const;
  void DrawRunRow(const gui::FrameContext& frame, const LiveSweepView& sweep) const;
  void DrawKernelChoice(const gui::FrameContext& frame, bool running);
  void DrawSweepForm(const LiveSweepView& sweep);
  void DrawFileRow(const gui::FrameContext& frame);
  void DrawPlot(const gui::FrameContext& frame, const LiveSweepView& sweep, float height);
  void DrawViewChoice(const gui::FrameContext& frame);
  void DrawLadderSizeChoice(const gui::FrameContext& frame, const LiveSweepView& sweep,
                            const kernels::Shape& shape) const;
  void DrawRoofline(const LiveSweepView& sweep, const kernels::Shape& shape, ImVec2 size);
};

}  // namespace panels
