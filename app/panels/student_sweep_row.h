// student_sweep_row.h — the live GPU panel's "your kernel" row: a student's kernel file (the
// window's --kernel, or one chosen in its file dialog) added to the sweep, timed at every size
// beside the rungs and cuBLAS (kernels/student_sweep.h). The live page loads the file and keeps
// what this draws; a click queues the same named action a script would (live-student,
// live-student-choose).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "app/gui/frame_context.h"
#include "app/panels/live_sweep_view.h"
#include "sim/io/folder_listing.h"

namespace panels {

// Whether the row's controls work now, and their tooltip: what they do, or why they are disabled.
struct StudentRowState {
  bool enabled = false;
  std::string tooltip;
};
StudentRowState StudentRowFor(const kernels::GpuStatus& gpu, const SweepProgress& progress);

struct StudentSweepRow {
  std::string path;        // the file on offer: --kernel's or the one chosen last; "" none
  std::string label;       // "your kernel: tiled (tiled.cu)", once it compiled
  bool included = false;   // the next sweep times it
  std::string problem;     // why it is not in the sweep (its compile error at file:line:col, ...); "" none
  bool choosing = false;   // the dialog for .cu files is open, showing `choice`
  sim::FolderListing choice;

  // The row, in the sweep's setup.
  void Draw(const gui::FrameContext& frame, const LiveSweepView& sweep) const;
  // The file dialog, when open (outside the setup, so a script's live-student-choose shows it folded too).
  void DrawChooser(const gui::FrameContext& frame) const;
  void DumpState(nlohmann::json& state) const;
};

}  // namespace panels
