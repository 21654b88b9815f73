// your_kernel_views.h — the lesson page's views of a student's kernel: what the Kernel source,
// Shared tiles, Hazards and Counters panels draw while one is the lesson (their file, their
// __shared__ arrays, their findings, their counts beside the textbook kernel's), File → Open
// kernel, and the actions that open a file and show a finding's lines. The page asks it to
// draw a panel's contents when OpenLesson has a student's kernel open.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/gui/actions.h"
#include "app/gui/frame_context.h"
#include "app/pages/open_lesson.h"
#include "app/panels/kernel_counters_view.h"
#include "app/panels/kernel_findings_view.h"
#include "app/panels/open_kernel_popup.h"
#include "app/panels/shared_arrays_view.h"
#include "app/panels/thread_selection.h"
#include "app/panels/your_source_view.h"

namespace gui {

class YourKernelViews {
 public:
  explicit YourKernelViews(OpenLesson& lesson) : lesson_(lesson) {}

  // kernel-open, kernel-open-dialog and source-show-lines.
  void RegisterActions(ActionRegistry& registry);

  // Each panel's contents (`student` is the lesson's open kernel).
  void DrawSource(const FrameContext& frame, const sim::Thread* picked, const StudentKernel& student);
  void DrawSharedArrays(ThreadRef selected);
  void DrawFindings(const FrameContext& frame, const StudentKernel& student);
  void DrawCounters();
  // A panel about the built-in kernel says so, rather than show figures of a kernel not running.
  static void DrawOnlyForLessons(const char* what);
  // The popup, over the page, when File → Open kernel opened it.
  void DrawPopup(const FrameContext& frame) { open_kernel_.Draw(frame); }

  void DumpState(nlohmann::json& state, const sim::Thread* picked, const StudentKernel& student) const;

 private:
  std::optional<std::string> ShowLines(const std::string& argument);

  OpenLesson& lesson_;
  YourSourceView source_;
  SharedArraysView shared_arrays_;
  KernelFindingsView findings_;
  KernelCountersView counters_;
  OpenKernelPopup open_kernel_;
};

}  // namespace gui
