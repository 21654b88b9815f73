// kernel_findings_view.h — the Hazards panel while a student's kernel is the lesson: what
// `tilescope check` finds over the whole run at the lesson's size, each finding at its line in
// a sentence; a race with both of its lines (the write and the read), each a button that shows
// the line in the Kernel source panel (source-show-lines), and one that shows both at once.
// Below, the hazards the run met up to this step.
#pragma once
#include <nlohmann/json.hpp>

#include "app/gui/frame_context.h"
#include "app/panels/your_kernel_view.h"
#include "sim/model/snapshot.h"

namespace gui {

struct KernelFindingsView {
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const YourKernelView& view);
  static nlohmann::json Describe(const sim::Snapshot& snapshot, const YourKernelView& view);

 private:
  static void DrawFinding(const FrameContext& frame, const sim::CheckFinding& finding, int index);
};

}  // namespace gui
