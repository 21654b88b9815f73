#include "app/panels/kernel_findings_view.h"

#include <imgui.h>

#include <string>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/lesson/kernel_check_json.h"

namespace gui {
namespace {

// "RAW race in shared memory": the finding's kind as a student reads it.
std::string Title(const sim::CheckFinding& f) {
  std::string kind = sim::Name(f.kind);
  for (char& c : kind) c = c == '_' ? ' ' : c;
  std::string title = (f.hazard.empty() ? "" : f.hazard + " ") + kind;
  if (!f.memory.empty()) title += " (" + f.memory + " memory)";
  return title;
}

std::string LinesArgument(const sim::CheckFinding& f) {
  return f.other_line > 0 ? std::to_string(f.line) + " " + std::to_string(f.other_line) : std::to_string(f.line);
}

}  // namespace

void KernelFindingsView::DrawFinding(const FrameContext& frame, const sim::CheckFinding& f, int index) {
  ImGui::PushID(index);
  const ImU32 colour = f.error ? palette::kVermillion : palette::kOrange;
  gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(colour), "%s %s \u00D7%llu",
                          f.error ? palette::kGlyphCross : palette::kGlyphWarning, Title(f).c_str(),
                          static_cast<unsigned long long>(f.count));
  // A race's two accesses: which is the write and which the read follows from its kind.
  const bool race = f.kind == sim::FindingKind::kRace && f.other_line > 0;
  const bool read_second = f.hazard == "RAW";
  const std::string first = race ? (f.hazard == "WAW" ? "write, line " : read_second ? "read, line " : "write, line ")
                                 : "line ";
  if (gui::Button((first + std::to_string(f.line)).c_str())) frame.actions.Push("source-show-lines", std::to_string(f.line));
  if (f.other_line > 0) {
    // The buttons wrap to the next row in a narrow panel rather than run past its edge.
    const float padding = 2.0f * ImGui::GetStyle().FramePadding.x;
    const std::string second =
        (race ? (f.hazard == "WAW" ? "write, line " : read_second ? "write, line " : "read, line ") : "line ") +
        std::to_string(f.other_line);
    SameLineIfFits(second.c_str(), padding);
    if (gui::Button(second.c_str())) frame.actions.Push("source-show-lines", std::to_string(f.other_line));
    SameLineIfFits("both", padding);
    if (gui::Button("both")) frame.actions.Push("source-show-lines", LinesArgument(f));
  }
  gui::TextWrapped("%s", f.sentence.c_str());
  ImGui::Separator();
  ImGui::PopID();
}

void KernelFindingsView::Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const YourKernelView& view) {
  gui::TextWrapped("Hazards met so far: %llu (step %lld)", static_cast<unsigned long long>(snapshot.counters().hazards),
                   static_cast<long long>(snapshot.step()));
  if (view.findings == nullptr) {
    gui::TextWrapped("Checking the whole run for races and other mistakes\u2026");
    return;
  }
  const sim::CheckRun& run = view.findings->runs.front();
  const ImU32 verdict = run.wrong_elements == 0 ? palette::kBluishGreen : palette::kVermillion;
  if (run.wrong_elements == 0) {
    gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(verdict), "%s C right at %dx%dx%d (%llu elements)",
                            palette::kGlyphCheck, run.size.m, run.size.n, run.size.k,
                            static_cast<unsigned long long>(run.elements));
  } else {
    // Wrapped: in a narrow panel (presentation's, or beside Counters) the first wrong element is
    // the figure to read.
    gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(verdict),
                            "%s C wrong at %llu of %llu elements (%dx%dx%d); first C[%d][%d] = %g, expected %g",
                            palette::kGlyphCross, static_cast<unsigned long long>(run.wrong_elements),
                            static_cast<unsigned long long>(run.elements), run.size.m, run.size.n, run.size.k,
                            run.first_wrong->row, run.first_wrong->col, static_cast<double>(run.first_wrong->got),
                            static_cast<double>(run.first_wrong->expected));
  }
  if (view.findings->findings.empty()) {
    gui::TextWrapped("No mistake found over the whole run.");
    return;
  }
  gui::TextWrapped("Found over the whole run (as tilescope check finds them):");
  ImGui::BeginChild("##findings");
  for (std::size_t i = 0; i < view.findings->findings.size(); ++i) DrawFinding(frame, view.findings->findings[i], static_cast<int>(i));
  ImGui::EndChild();
}

nlohmann::json KernelFindingsView::Describe(const sim::Snapshot& snapshot, const YourKernelView& view) {
  nlohmann::json out;
  out["hazards_so_far"] = snapshot.counters().hazards;
  out["checking"] = view.findings == nullptr;
  out["findings"] = nlohmann::json::array();
  if (view.findings != nullptr) {
    for (const sim::CheckFinding& f : view.findings->findings) {
      nlohmann::json one = sim::FindingJson(f);
      one["buttons"] = f.other_line > 0 ? nlohmann::json{f.line, f.other_line} : nlohmann::json{f.line};
      out["findings"].push_back(one);
    }
  }
  return out;
}

}  // namespace gui
