// live_sweep_view.h — what the live GPU panel and its parts draw, all owned by the live page:
// this machine's GPU, the sweep's results, the progress of a sweep in flight and the model
// link (the model's global reads beside the measured times).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/device.h"
#include "kernels/global_reads.h"
#include "kernels/sweep_results.h"

namespace panels {

struct SweepProgress {
  bool running = false;
  bool cancelling = false;  // Cancel was pressed; the launch in flight finishes first.
  int done = 0;             // (kernel, size) pairs finished.
  int total = 0;
  std::string text;         // "kernel 3 of 7, n = 4096 (tiled16)".
};

// One kernel's line of the model link at the chosen size.
struct ModelLinkRow {
  std::string label;
  std::optional<kernels::GlobalReads> reads;      // Nothing while the model is still counting.
  std::optional<kernels::BenchResult> result;  // Its measurement at that size, if any.
};

struct ModelLink {
  std::vector<kernels::Shape> sizes;  // Sizes with results, the choices.
  std::optional<kernels::Shape> size;  // The chosen one.
  std::vector<ModelLinkRow> rows;      // Naive and tiled kernels measured at that size.
};

// What the panel draws; the page owns all of it.
struct LiveSweepView {
  const kernels::GpuStatus& gpu;  // This machine's GPU.
  const kernels::SweepResults& sweep;
  const SweepProgress& progress;
  const ModelLink& model_link;
};

}  // namespace panels
