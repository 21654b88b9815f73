#include "app/panels/kernel_source_panel.h"

#include <imgui.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/palette.h"
#include "app/gui/panel_window.h"
#include "app/gui/text_item.h"
#include "app/panels/source_excerpt.h"
#include "app/panels/source_focus.h"
#include "sim/model/kernel_source.h"
#include "sim/lesson/kernel_lesson.h"
#include "sim/lesson/numba_source.h"

namespace gui {
namespace {

constexpr const char* kGlyphJustRan = "\u25CF";  // ● the last step ran this line

const char* SyncText(sim::SyncKind kind) {
  switch (kind) {
    case sim::SyncKind::kSyncthreads:
      return "= __syncthreads(): waits for every thread of the block";
    case sim::SyncKind::kSyncwarp:
      return "= __syncwarp(): waits for the lanes of one warp only";
    case sim::SyncKind::kNone:
      return "= nothing: barrier removed";
  }
  return "";
}

std::string BarrierNote(sim::SyncKind kind) {
  return std::string(kind == sim::SyncKind::kNone ? palette::kGlyphCross : "\u2016") + " " + SyncText(kind);
}

void SetupColumns(ImGuiTableColumnFlags code, float code_width = 0.0f) {
  ImGui::TableSetupColumn("switch", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("marks", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("code", code, code_width);
}

}  // namespace

struct KernelSourcePanel::LineMarks {
  std::set<int> focus_next;    // lines the followed thread(s) run next
  std::set<int> just_ran;      // lines the last step ran
  std::map<int, int> waiting;  // line → threads that run it next
  std::string focus;           // "thread (1,0) of block (0,1) (warp 0)"
  int scroll_to = 0;           // the followed thread's line, or the tour's first starred one
};

std::set<int> KernelSourcePanel::TourLineNumbers(sim::KernelKind kernel) const {
  const sim::KernelSource& source = sim::SourceFor(kernel);
  std::set<int> lines;
  for (const sim::Op op : tour_lines) {
    const std::size_t index = static_cast<std::size_t>(op);
    if (index < source.op_lines.size() && source.op_lines[index] > 0) lines.insert(source.op_lines[index]);
  }
  return lines;
}

nlohmann::json KernelSourcePanel::DescribeTourLines(const sim::Snapshot& snapshot) const {
  const std::set<int> starred = TourLineNumbers(snapshot.config().kernel);
  std::vector<int> starred_in_view;
  for (int line : lines_in_view_) {
    if (starred.count(line) > 0) starred_in_view.push_back(line);
  }
  return {{"tour_lines", starred},
          {"tour_lines_in_view", starred_in_view},
          {"lines_in_view", lines_in_view_},
          {"pinned_lines", pinned_lines_}};
}

bool KernelSourcePanel::HasPythonTwin(const sim::Snapshot& snapshot) {
  return snapshot.config().kernel == sim::KernelKind::kTiled && sim::TiledNumbaTwins().error.empty();
}

void KernelSourcePanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const sim::Thread* picked,
                             bool side_by_side) {
  const sim::KernelKind kernel = snapshot.config().kernel;
  // A switch flipped changes a line or two in place: the view stays where it is.
  plain_ = sim::PlainSourceFor(snapshot.config());
  if (kernel != shown_kernel_) {
    shown_kernel_ = kernel;
    scrolled_for_ = {};
  }
  if (python_lines_.empty()) python_lines_ = sim::SourceLines(std::string(sim::TiledNumbaTwins().text));
  LineMarks marks;
  const std::vector<int> threads = FocusThreads(snapshot, picked);
  for (int index : threads) {
    const int line = snapshot.NextLine(snapshot.threads()[static_cast<std::size_t>(index)]);
    if (line > 0) marks.focus_next.insert(line);
  }
  for (const sim::TraceEvent& event : snapshot.last_step_events()) {
    if (event.line > 0) marks.just_ran.insert(event.line);
  }
  marks.waiting = snapshot.ThreadsByNextLine();
  marks.focus = FocusName(snapshot, threads);
  // Done threads run nothing: keep the kernel's first instruction in view, not the header comment.
  marks.scroll_to = marks.focus_next.empty() ? sim::LineOf(kernel, sim::Op::kLoadA) : *marks.focus_next.begin();
  // A tour's stop points at its lines: they are what the stop is about, so they come into view
  // when the followed thread stands elsewhere.
  const std::set<int> starred = TourLineNumbers(kernel);
  if (!starred.empty() && starred.count(marks.scroll_to) == 0) marks.scroll_to = *starred.begin();
  const std::vector<int> shown_before = std::move(lines_in_view_);
  lines_in_view_.clear();

  const std::string file(sim::SourceFor(kernel).file_name);
  gui::TextWrapped("%s \u2014 following %s%s", file.c_str(), marks.focus.c_str(),
                   picked != nullptr ? " (selected)" : ", the unit that ran last");
  // The marks' legend on hover, as the other panels keep theirs: the lines get the room.
  SameLineIfFits("(legend)");
  gui::TextDisabled("(legend)");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s runs next\n%s just ran\n\u25B7N: N threads run the line next\n\u2610: switch the line "
                      "(a barrier or the bounds guard)",
                      palette::kGlyphNext, kGlyphJustRan);
  }
  // The presentation excerpt is the CUDA alone, wrapped to the panel: no room for a twin column.
  if (frame.presentation) {
    DrawExcerpt(frame, snapshot, marks);
  } else {
    DrawLanguageSwitch(frame, snapshot, side_by_side);
    DrawPinnedBarriers(frame, snapshot, marks, shown_before);
    DrawLines(frame, snapshot, marks, side_by_side && HasPythonTwin(snapshot));
  }
}

void KernelSourcePanel::DrawLanguageSwitch(const FrameContext& frame, const sim::Snapshot& snapshot, bool side_by_side) {
  const bool available = HasPythonTwin(snapshot);
  bool on = side_by_side && available;
  SameLineIfFits("Numba beside it (L)", ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  if (!available) ImGui::BeginDisabled();
  if (gui::Checkbox("Numba beside it (L)", &on)) frame.actions.Push("toggle-numba");
  if (!available) ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s", available ? "The tiling notebook's Python half: the same kernel in Numba, each "
                                        "statement beside its CUDA twin, the run markers on both"
                                      : "Only the square tiled kernel (02_tiled.cu) has a Numba transcription");
  }
}

void KernelSourcePanel::DrawPythonTwin(const FrameContext& frame, int cuda_line) {
  const std::vector<int>& twin = sim::TiledNumbaTwins().PythonLinesOf(cuda_line);
  std::string numbers;
  std::string text;
  for (int line : twin) {
    if (line < 1 || line > static_cast<int>(python_lines_.size())) continue;
    numbers += (numbers.empty() ? "" : "\n") + std::to_string(line);
    // The kernel's body one level in, as the CUDA column's: the narrow column keeps its room for code.
    std::string_view code = python_lines_[static_cast<std::size_t>(line - 1)];
    if (code.substr(0, 4) == "    ") code.remove_prefix(4);
    text += (text.empty() ? "" : "\n") + std::string(code);
  }
  ImGui::TableNextColumn();
  gui::TextDisabled("%s", numbers.c_str());
  ImGui::TableNextColumn();
  ImGui::PushFont(frame.fonts.mono);
  gui::TextUnformatted(text.c_str());
  ImGui::PopFont();
}

void KernelSourcePanel::DrawLines(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks,
                                  bool python) {
  // Long lines scroll sideways rather than being cut at the panel's edge.
  const ImGuiTableFlags flags =
      ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  // Side by side, the CUDA column takes less than half the panel, so each statement's Python
  // twin is in view; both scroll sideways together for the long lines.
  const float cuda_width = python ? 0.45f * ImGui::GetContentRegionAvail().x : 0.0f;
  if (!gui::BeginTable("##source", python ? 6 : 4, flags)) return;
  SetupColumns(ImGuiTableColumnFlags_WidthFixed, cuda_width);
  if (python) {
    ImGui::TableSetupColumn("python line", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("python", ImGuiTableColumnFlags_WidthFixed);
  }
  const ScrollFor wanted{marks.scroll_to, tour_lines, ImGui::GetWindowHeight()};
  const bool follow = !(wanted == scrolled_for_);
  for (int line = plain_.first_line; line <= plain_.last_line(); ++line) {
    if (DrawLine(frame, snapshot, marks, line, false)) lines_in_view_.push_back(line);
    if (python) DrawPythonTwin(frame, line);
    if (follow && line == marks.scroll_to) {
      ImGui::SetScrollHereY(0.4f);
      scrolled_for_ = wanted;
    }
  }
  gui::EndTable();
}

void KernelSourcePanel::DrawExcerpt(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // The code column gets what the switch, number and marks columns leave at their widest: a
  // tour's star before the number, and every thread of the block waiting at one line.
  const std::string widest_marks = "\u25B6\u25B6\u25B7" + std::to_string(snapshot.geometry().block_threads);
  const float fixed = ImGui::GetFrameHeight() + ImGui::CalcTextSize("\u2605000").x +
                      ImGui::CalcTextSize(widest_marks.c_str()).x + 8.0f * style.CellPadding.x;
  const float wrap = std::max(ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x - fixed);
  ImGui::PushFont(frame.fonts.mono);
  const sim::KernelSource& source = sim::SourceFor(snapshot.config().kernel);
  const int barrier1 = source.op_lines[static_cast<int>(sim::Op::kBarrier1)];
  const int barrier2 = source.op_lines[static_cast<int>(sim::Op::kBarrier2)];
  // Measured in the mono font, wider than the text font: the annotation never needs more.
  const auto height = [&](int line) {
    const std::string& text = plain_.Line(line);
    float code = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
    if (line == barrier1 || line == barrier2) {
      const std::string note = BarrierNote(line == barrier1 ? snapshot.config().barrier1 : snapshot.config().barrier2);
      code += ImGui::CalcTextSize(note.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
    }
    const bool has_switch = line == barrier1 || line == barrier2 ||
                            std::find(source.guard_lines.begin(), source.guard_lines.end(), line) != source.guard_lines.end();
    return std::max(code, has_switch ? ImGui::GetFrameHeight() : ImGui::GetTextLineHeight()) + 2.0f * style.CellPadding.y;
  };
  const int count = plain_.last_line();
  std::vector<float> heights(static_cast<std::size_t>(count) + 1, 0.0f);
  for (int line = plain_.first_line; line <= count; ++line) heights[static_cast<std::size_t>(line)] = height(line);
  // A tour's starred lines are what its stop is about: they come first, whatever lies between.
  const std::set<int> starred = TourLineNumbers(snapshot.config().kernel);
  std::vector<int> must(starred.begin(), starred.end());
  if (must.empty()) must.push_back(std::clamp(marks.scroll_to, plain_.first_line, count));
  // A switched-off barrier is what a race lesson is about: in view whatever the thread runs.
  for (const auto& [line, kind] : {std::pair<int, sim::SyncKind>{barrier1, snapshot.config().barrier1},
                                   {barrier2, snapshot.config().barrier2}}) {
    if (line > 0 && kind == sim::SyncKind::kNone && starred.count(line) == 0) must.push_back(line);
  }
  const float gap_row = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
  const std::set<int> shown =
      ExcerptLines(heights, plain_.first_line, must, ImGui::GetContentRegionAvail().y, gap_row);
  ImGui::PopFont();
  // The indentation all shown lines share takes room a narrow column needs for code.
  std::size_t dedent = std::string::npos;
  for (int line : shown) {
    const std::string& text = plain_.Line(line);
    const std::size_t indent = text.find_first_not_of(' ');
    if (indent != std::string::npos) dedent = std::min(dedent, indent);
  }
  if (dedent == std::string::npos) dedent = 0;
  if (!gui::BeginTable("##excerpt", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  SetupColumns(ImGuiTableColumnFlags_WidthStretch);
  int previous = 0;
  for (int line : shown) {
    if (previous > 0 && line != previous + 1) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TableNextColumn();
      gui::TextDisabled("\u22EE");  // lines left out between two the excerpt shows
    }
    if (DrawLine(frame, snapshot, marks, line, true, dedent)) lines_in_view_.push_back(line);
    previous = line;
  }
  gui::EndTable();
}

void KernelSourcePanel::DrawPinnedBarriers(const FrameContext& frame, const sim::Snapshot& snapshot,
                                           const LineMarks& marks, const std::vector<int>& shown_before) {
  const sim::KernelSource& source = sim::SourceFor(snapshot.config().kernel);
  std::vector<int> pinned;
  for (const auto& [op, kind] : {std::pair<sim::Op, sim::SyncKind>{sim::Op::kBarrier1, snapshot.config().barrier1},
                                 {sim::Op::kBarrier2, snapshot.config().barrier2}}) {
    const int line = source.op_lines[static_cast<int>(op)];
    if (line > 0 && kind == sim::SyncKind::kNone &&
        std::find(shown_before.begin(), shown_before.end(), line) == shown_before.end()) {
      pinned.push_back(line);
    }
  }
  pinned_lines_ = pinned;
  if (pinned.empty() || !gui::BeginTable("##pinned", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersOuter)) {
    return;
  }
  SetupColumns(ImGuiTableColumnFlags_WidthStretch);
  for (int line : pinned) DrawLine(frame, snapshot, marks, line, false);
  gui::EndTable();
}

bool KernelSourcePanel::DrawLine(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks,
                                 int line, bool wrap, std::size_t dedent) {
  const sim::KernelSource& source = sim::SourceFor(snapshot.config().kernel);
  const int barrier1 = source.op_lines[static_cast<int>(sim::Op::kBarrier1)];
  const int barrier2 = source.op_lines[static_cast<int>(sim::Op::kBarrier2)];
  ImGui::TableNextRow();
  ImGui::PushID(line);
  const bool is_barrier = line == barrier1 || line == barrier2;
  const bool is_guard =
      std::find(source.guard_lines.begin(), source.guard_lines.end(), line) != source.guard_lines.end();
  if (marks.focus_next.count(line)) {
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, (palette::kSkyBlue & 0x00FFFFFF) | 0x70000000);
  } else if (marks.just_ran.count(line)) {
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, (palette::kYellow & 0x00FFFFFF) | 0x38000000);
  } else if (is_barrier) {
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, (palette::kReddishPurple & 0x00FFFFFF) | 0x30000000);
  }
  ImGui::TableNextColumn();
  if (is_barrier || is_guard) DrawSwitch(frame, snapshot, line);
  ImGui::TableNextColumn();
  const bool tour_line = TourLineNumbers(snapshot.config().kernel).count(line) > 0;
  if (tour_line) {
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kReddishPurple), "\u2605%d", line);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The tour's stop points at this line");
  } else {
    gui::TextDisabled("%3d", line);
  }
  const bool visible = ImGui::IsItemVisible();
  ImGui::TableNextColumn();
  const auto waiting = marks.waiting.find(line);
  gui::Text("%s%s%s", marks.focus_next.count(line) ? palette::kGlyphNext : " ", marks.just_ran.count(line) ? kGlyphJustRan : " ",
            waiting != marks.waiting.end() ? ("\u25B7" + std::to_string(waiting->second)).c_str() : "");
  if (waiting != marks.waiting.end() && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%d threads run line %d next", waiting->second, line);
  }
  ImGui::TableNextColumn();
  ImGui::PushFont(frame.fonts.mono);
  if (wrap) ImGui::PushTextWrapPos(0.0f);
  const std::string& text = plain_.Line(line);
  gui::TextUnformatted(text.c_str() + std::min(dedent, text.size()));
  if (wrap) ImGui::PopTextWrapPos();
  ImGui::PopFont();
  if (is_barrier) {
    // What stands at the barrier: beside the line, or under it where lines wrap.
    const sim::SyncKind kind = line == barrier1 ? snapshot.config().barrier1 : snapshot.config().barrier2;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kind == sim::SyncKind::kNone
                                                                            ? palette::kVermillion
                                                                            : palette::kReddishPurple));
    const std::string note = BarrierNote(kind);
    if (wrap) {
      gui::TextWrapped("%s", note.c_str());
    } else {
      ImGui::SameLine();
      gui::TextUnformatted(note.c_str());
    }
    ImGui::PopStyleColor();
  }
  ImGui::PopID();
  return visible;
}

void KernelSourcePanel::DrawSwitch(const FrameContext& frame, const sim::Snapshot& snapshot, int line) {
  const sim::KernelSource& source = sim::SourceFor(snapshot.config().kernel);
  const sim::KernelConfig& config = snapshot.config();
  const bool first = line == source.op_lines[static_cast<int>(sim::Op::kBarrier1)];
  const bool second = line == source.op_lines[static_cast<int>(sim::Op::kBarrier2)];
  bool on = first ? config.barrier1 != sim::SyncKind::kNone
                  : (second ? config.barrier2 != sim::SyncKind::kNone : config.guard);
  const char* action = first ? "toggle-barrier1" : (second ? "toggle-barrier2" : "toggle-guard");
  if (gui::Checkbox("##on", &on)) frame.actions.Push(action);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", first    ? "1st barrier on/off (key 1): keeps reads of As/Bs after every thread's store"
                            : second ? "2nd barrier on/off (key 2): keeps the next phase's stores after every read"
                                     : "Bounds guard on/off (key 3): without it edge threads read outside A and B");
  }
}

nlohmann::json KernelSourcePanel::Describe(const sim::Snapshot& snapshot, const sim::Thread* picked,
                                          bool side_by_side) {
  const sim::KernelSource& source = sim::SourceFor(snapshot.config().kernel);
  const sim::KernelConfig& config = snapshot.config();
  nlohmann::json out;
  out["file"] = std::string(source.file_name);
  const std::vector<int> threads = FocusThreads(snapshot, picked);
  out["following"] = FocusName(snapshot, threads);
  std::set<int> next;
  for (int index : threads) next.insert(snapshot.NextLine(snapshot.threads()[static_cast<std::size_t>(index)]));
  next.erase(0);
  out["next_lines"] = next;
  const bool python = side_by_side && HasPythonTwin(snapshot);
  out["languages"] = python ? "cuda+numba" : "cuda";
  if (python) {
    out["python_file"] = std::string(sim::TiledNumbaTwins().file_name);
    std::set<int> python_next;
    for (int line : next) {
      for (int twin : sim::TiledNumbaTwins().PythonLinesOf(line)) python_next.insert(twin);
    }
    out["python_next_lines"] = python_next;
  }
  std::set<int> ran;
  for (const sim::TraceEvent& event : snapshot.last_step_events()) ran.insert(event.line);
  ran.erase(0);
  out["just_ran_lines"] = ran;
  const int barrier1 = source.op_lines[static_cast<int>(sim::Op::kBarrier1)];
  const int barrier2 = source.op_lines[static_cast<int>(sim::Op::kBarrier2)];
  const sim::PlainSource plain = sim::PlainSourceFor(config);
  out["shown_lines"] = {plain.first_line, plain.last_line()};
  out["switches"] = nlohmann::json::array();
  if (barrier1 > 0)
    out["switches"].push_back({{"line", barrier1},
                               {"what", "barrier1"},
                               {"text", plain.Line(barrier1)},
                               {"on", config.barrier1 != sim::SyncKind::kNone},
                               {"kind", sim::Name(config.barrier1)}});
  if (barrier2 > 0)
    out["switches"].push_back({{"line", barrier2},
                               {"what", "barrier2"},
                               {"text", plain.Line(barrier2)},
                               {"on", config.barrier2 != sim::SyncKind::kNone},
                               {"kind", sim::Name(config.barrier2)}});
  for (int line : source.guard_lines)
    out["switches"].push_back({{"line", line}, {"what", "guard"}, {"on", config.guard}, {"text", plain.Line(line)}});
  return out;
}

}  // namespace gui
