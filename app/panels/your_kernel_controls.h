// your_kernel_controls.h — the Controls panel's part while a student's kernel is on show: what
// runs (their file, the kernel, the launch, the sizes, the scheduler) in place of the built-in
// lesson's tile and barriers, and the kernel of the file and the scheduler to pick, each
// queuing an action (kernel-name, kernel-scheduler) the page applies between frames.
#pragma once
#include "app/gui/frame_context.h"
#include "app/panels/your_kernel_view.h"

namespace gui {

// The kernel of the file (where it has several) and the scheduler, as fields, then the summary
// (and in the normal view where the sizes and defines come from).
void DrawYourKernelFields(const FrameContext& frame, const YourKernelView& view);

}  // namespace gui
