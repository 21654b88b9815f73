// kernel_source_panel.h — the CUDA source the lesson runs (sim/kernel_source.h: the very
// file in kernels/), with where the run stands on it: the line the selected thread (or,
// until one is picked, every lane of the warp that ran last) runs next, the line just run, how many threads wait at
// each line, the barrier lines, and checkboxes beside the switchable lines (each barrier, the bounds guard) that queue
// the same actions as keys 1, 2 and 3.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "sim/snapshot.h"

namespace gui {

struct KernelSourcePanel {
  // `picked`: the thread the user selected, or nullptr to follow the unit that ran last.
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const sim::Thread* picked);
  // What the panel marks, for --dump-state.
  static nlohmann::json Describe(const sim::Snapshot& snapshot, const sim::Thread* picked);

 private:
  struct LineMarks;
  void DrawLines(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks);
  // Presentation: the lines around the followed one that fit the panel, wrapped, no scrolling.
  void DrawExcerpt(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks);
  void DrawLine(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks, int line, bool wrap);
  void DrawSwitch(const FrameContext& frame, const sim::Snapshot& snapshot, int line);

  sim::KernelKind shown_kernel_ = sim::KernelKind::kTiled;
  std::vector<std::string> lines_;  // the source without its `// model:` markers
  int scrolled_to_ = -1;            // the focus line last scrolled into view
};

}  // namespace gui
