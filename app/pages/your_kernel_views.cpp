#include "app/pages/your_kernel_views.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "app/gui/text_item.h"

namespace gui {

void YourKernelViews::RegisterActions(ActionRegistry& registry) {
  lesson_.RegisterKernelActions(registry);
  registry.Add({"kernel-open-dialog", "Open kernel\u2026",
                "Open a CUDA file of your own as the lesson: its kernel steps on the model and each save is read again.",
                {{GLFW_KEY_K, GLFW_MOD_CONTROL}}, [this](const std::string&) -> std::optional<std::string> {
                  open_kernel_.open = true;
                  return std::nullopt;
                }});
  registry.Add({"source-show-lines", "Show lines of your kernel",
                "Mark lines (\"12 15\": a race's read and write) in the Kernel source panel and scroll to them: what a "
                "finding's line buttons in the Hazards panel do.",
                {}, [this](const std::string& argument) { return ShowLines(argument); }});
}

std::optional<std::string> YourKernelViews::ShowLines(const std::string& argument) {
  const StudentKernel* student = lesson_.Student();
  if (student == nullptr) return std::string(kNoKernelOpen);
  std::vector<int> lines;
  std::istringstream in(argument);
  for (int line = 0; in >> line;) lines.push_back(line);
  const int count = static_cast<int>(student->lesson().lines.size());
  if (!in.eof() || lines.empty() || std::any_of(lines.begin(), lines.end(), [count](int l) { return l < 1 || l > count; })) {
    return "source-show-lines wants line numbers of your file (1 to " + std::to_string(count) + "), got \"" + argument + "\"";
  }
  source_.marked_lines = lines;
  return std::nullopt;
}

void YourKernelViews::DrawSource(const FrameContext& frame, const sim::Thread* picked, const StudentKernel& student) {
  source_.Draw(frame, lesson_.simulation().snapshot(), picked, student.View());
}

void YourKernelViews::DrawSharedArrays(ThreadRef selected) { shared_arrays_.Draw(lesson_.simulation().snapshot(), selected); }

void YourKernelViews::DrawFindings(const FrameContext& frame, const StudentKernel& student) {
  findings_.Draw(frame, lesson_.simulation().snapshot(), student.View());
}

void YourKernelViews::DrawCounters() { counters_.Draw(lesson_.simulation(), lesson_.comparison().Current()); }

void YourKernelViews::DrawOnlyForLessons(const char* what) {
  gui::TextWrapped("This panel %s; your kernel is on show. Open a lesson (File \u2192 Lessons\u2026) to use it.", what);
}

void YourKernelViews::DumpState(nlohmann::json& state, const sim::Thread* picked, const StudentKernel& student) const {
  const sim::Simulation& simulation = lesson_.simulation();
  const sim::Snapshot snapshot = simulation.snapshot();
  state["lesson"]["counters"] = KernelCountersView::Figures(simulation, lesson_.comparison().Current());
  state["kernel_source"] = source_.Describe(snapshot, picked, student.View());
  state["hazards"] = KernelFindingsView::Describe(snapshot, student.View());
  shared_arrays_.DumpState(state["lesson_panels"]);
}

}  // namespace gui
