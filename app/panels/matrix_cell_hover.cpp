#include "app/panels/matrix_cell_hover.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/lesson/narration.h"
#include "sim/model/bits.h"

namespace gui {
namespace {

using sim::MatrixId;

constexpr int kMaxReadersListed = 8;

const char* MatrixName(MatrixId id) { return id == MatrixId::kA ? "A" : (id == MatrixId::kB ? "B" : "C"); }

std::string ThreadName(const sim::Snapshot& snapshot, int block, int thread) {
  const sim::Thread& t = snapshot.thread(block, thread);
  const sim::Block& b = snapshot.blocks()[static_cast<std::size_t>(block)];
  return "thread " + sim::Coordinates(t.tx, t.ty) + " of block " + sim::Coordinates(b.bx, b.by);
}

}  // namespace

// The tooltip's first line, which names the cell and its value; kept for --dump-state.
template <typename... Args>
void MatrixCellHover::HoverLine(const char* format, Args... args) {
  char line[256];
  std::snprintf(line, sizeof line, format, args...);
  gui::TextUnformatted(line);
  hovered_ = line;
}

void MatrixCellHover::Hover(const MatrixLayout& layout, const sim::Snapshot& snapshot,
                            const std::vector<float>& reference) {
  hovered_.clear();
  if (!ImGui::IsWindowHovered()) return;
  const ImVec2 mouse = ImGui::GetMousePos();
  for (MatrixId id : {MatrixId::kA, MatrixId::kB, MatrixId::kC}) {
    int row = 0;
    int col = 0;
    if (!layout.Hit(mouse, id, row, col)) continue;
    ImGui::BeginTooltip();
    if (!layout.Inside(id, row, col)) {
      HoverLine("Outside %s: zero padding. The bounds guard loads 0.0f here, so the tail tile's products add nothing.",
                MatrixName(id));
    } else if (id == MatrixId::kC) {
      HoverC(snapshot, reference, row, col);
    } else {
      HoverInput(snapshot, id, row, col);
    }
    ImGui::EndTooltip();
    return;
  }
}

void MatrixCellHover::HoverC(const sim::Snapshot& snapshot, const std::vector<float>& reference, int row, int col) {
  const sim::Geometry& g = snapshot.geometry();
  const sim::CElement e = snapshot.c(row, col);
  const float correct = reference[static_cast<std::size_t>(row) * g.n + col];
  switch (e.progress) {
    case sim::CProgress::kNotStarted: HoverLine("C[%d][%d]: not started", row, col); break;
    case sim::CProgress::kPartial:
      if (g.naive) {
        HoverLine("C[%d][%d]: partial sum of %d of %d products = %s", row, col, e.phase + 1, g.k,
                  sim::FormatValue(e.value).c_str());
      } else {
        HoverLine("C[%d][%d]: partial sum after phase %d of %d = %s", row, col, e.phase + 1, g.phases,
                  sim::FormatValue(e.value).c_str());
      }
      break;
    case sim::CProgress::kFinal:
      if (sim::SameBits(e.value, correct)) {
        HoverLine("C[%d][%d] = %s  %s equals the correct product", row, col, sim::FormatValue(e.value).c_str(),
                  palette::kGlyphCheck);
      } else {
        HoverLine("C[%d][%d] = %s  %s wrong: the correct value is %s", row, col, sim::FormatValue(e.value).c_str(),
                  palette::kGlyphCross, sim::FormatValue(correct).c_str());
      }
      break;
  }
  gui::Text("computed by %s", ThreadName(snapshot, e.block, e.thread).c_str());
}

// An element of A or B: its value, who read it, and a click to change it.
void MatrixCellHover::HoverInput(const sim::Snapshot& snapshot, MatrixId id, int row, int col) {
  const float value = id == MatrixId::kA ? snapshot.a(row, col) : snapshot.b(row, col);
  const sim::ReaderSummary readers = snapshot.Readers(id, row, col);
  HoverLine("%s[%d][%d] = %s", MatrixName(id), row, col, sim::FormatValue(value).c_str());
  std::string phases;
  for (std::size_t p = 0; p < readers.reads_by_phase.size(); ++p) {
    phases += (p ? ", " : "") + std::string("phase ") + std::to_string(p + 1) + ": " +
              std::to_string(readers.reads_by_phase[p]);
  }
  gui::Text("read %u time%s from global memory so far (%s)", readers.reads, readers.reads == 1 ? "" : "s",
            phases.c_str());
  const int listed = std::min<int>(kMaxReadersListed, static_cast<int>(readers.readers.size()));
  for (int i = 0; i < listed; ++i) {
    const sim::ReadRecord& r = readers.readers[static_cast<std::size_t>(i)];
    gui::Text("  step %lld: %s, phase %d", static_cast<long long>(r.step), ThreadName(snapshot, r.block, r.thread).c_str(),
              r.phase + 1);
  }
  if (static_cast<int>(readers.readers.size()) > listed) {
    gui::Text("  \u2026 and %d more", static_cast<int>(readers.readers.size()) - listed);
  }
  gui::TextDisabled("Click to change this value (the lesson re-runs to this step).");
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) editor_ = {true, id, row, col, value};
}

void MatrixCellHover::Pick(const FrameContext& frame, const MatrixLayout& layout,
                           const std::optional<sim::CellSpace>& pick_space) {
  if (!pick_space || !ImGui::IsWindowHovered() || !ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return;
  const std::pair<sim::CellSpace, MatrixId> spaces[] = {
      {sim::CellSpace::kA, MatrixId::kA}, {sim::CellSpace::kB, MatrixId::kB}, {sim::CellSpace::kC, MatrixId::kC}};
  for (const auto& [space, id] : spaces) {
    int row = 0;
    int col = 0;
    if (space != *pick_space || !layout.Hit(ImGui::GetMousePos(), id, row, col) || !layout.Inside(id, row, col)) continue;
    frame.actions.Push("guide-pick-cell", sim::CellText({space, row, col}));
    editor_.open_requested = false;  // the click answers the question; it does not edit the value
  }
}

void MatrixCellHover::DrawEditor(const FrameContext& frame) {
  if (editor_.open_requested) {
    ImGui::OpenPopup("Edit element");
    editor_.open_requested = false;
  }
  if (!ImGui::BeginPopup("Edit element")) return;
  gui::Text("%s[%d][%d] =", MatrixName(editor_.matrix), editor_.row, editor_.col);
  ImGui::SameLine();
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  bool apply = gui::Recorded(ImGui::InputFloat("##value", &editor_.value, 0.0f, 0.0f, "%g", ImGuiInputTextFlags_EnterReturnsTrue), "##value");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The new value; Enter applies it.");
  apply |= gui::Button("Apply");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Re-run the lesson with this value, back to the same step.");
  ImGui::SameLine();
  const bool cancel = gui::Button("Cancel");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keep the value as it is.");
  if (apply) {
    char argument[96];
    std::snprintf(argument, sizeof argument, "%s %d %d %.9g", MatrixName(editor_.matrix), editor_.row, editor_.col,
                  static_cast<double>(editor_.value));
    frame.actions.Push("edit-cell", argument);
  }
  if (apply || cancel) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace gui
