#include "app/panels/kernel_source_panel.h"

#include <imgui.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "app/gui/palette.h"
#include "app/gui/panel_window.h"
#include "app/gui/text_item.h"
#include "sim/kernel_source.h"
#include "sim/numba_source.h"

namespace gui {
namespace {

constexpr const char* kGlyphNext = "\u25B6";     // ▶ the followed thread runs this next
constexpr const char* kGlyphJustRan = "\u25CF";  // ● the last step ran this line

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Global indices of the threads the view follows.
std::vector<int> FocusThreads(const sim::Snapshot& snapshot, const sim::Thread* picked) {
  if (picked != nullptr) return {picked->block * snapshot.geometry().block_threads + picked->index_in_block};
  const sim::Unit unit = snapshot.last_unit();
  if (!unit.is_warp) return {unit.index};
  const sim::Warp& warp = snapshot.warps()[static_cast<std::size_t>(unit.index)];
  std::vector<int> lanes(static_cast<std::size_t>(warp.lane_count));
  for (int lane = 0; lane < warp.lane_count; ++lane) lanes[static_cast<std::size_t>(lane)] = warp.first_thread + lane;
  return lanes;
}

std::string FocusName(const sim::Snapshot& snapshot, const std::vector<int>& threads) {
  const sim::Thread& first = snapshot.threads()[static_cast<std::size_t>(threads.front())];
  const sim::Block& block = snapshot.blocks()[static_cast<std::size_t>(first.block)];
  const std::string where = " of block " + sim::Coordinates(block.bx, block.by);
  if (threads.size() == 1) {
    return "thread " + sim::Coordinates(first.tx, first.ty) + where + " (warp " +
           std::to_string(first.warp - block.first_warp) + ")";
  }
  return "warp " + std::to_string(first.warp - block.first_warp) + where + " (" + std::to_string(threads.size()) +
         " lanes)";
}

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
  int scroll_to = 0;           // the followed thread's line
};

bool KernelSourcePanel::HasPythonTwin(const sim::Snapshot& snapshot) {
  return snapshot.config().kernel == sim::KernelKind::kTiled && sim::TiledNumbaTwins().error.empty();
}

void KernelSourcePanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const sim::Thread* picked,
                             bool side_by_side) {
  const sim::KernelKind kernel = snapshot.config().kernel;
  if (lines_.empty() || kernel != shown_kernel_) {
    lines_ = SplitLines(sim::StripModelMarkers(sim::SourceFor(kernel).text));
    shown_kernel_ = kernel;
    scrolled_to_ = -1;
  }
  if (python_lines_.empty()) python_lines_ = SplitLines(std::string(sim::TiledNumbaTwins().text));
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

  const std::string file(sim::SourceFor(kernel).file_name);
  gui::TextWrapped("%s \u2014 following %s%s", file.c_str(), marks.focus.c_str(),
                   picked != nullptr ? " (selected)" : ", the unit that ran last");
  // The marks' legend on hover, as the other panels keep theirs: the lines get the room.
  SameLineIfFits("(legend)");
  gui::TextDisabled("(legend)");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s runs next\n%s just ran\n\u25B7N: N threads run the line next\n\u2610: switch the line "
                      "(a barrier or the bounds guard)",
                      kGlyphNext, kGlyphJustRan);
  }
  // The presentation excerpt is the CUDA alone, wrapped to the panel: no room for a twin column.
  if (frame.presentation) {
    DrawExcerpt(frame, snapshot, marks);
  } else {
    DrawLanguageSwitch(frame, snapshot, side_by_side);
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
    ImGui::SetTooltip("%s", available ? "Seed 000's Python half: the same kernel in Numba, each statement beside its "
                                        "CUDA twin, the run markers on both"
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
  const bool follow = marks.scroll_to != scrolled_to_;
  for (int line = 1; line <= static_cast<int>(lines_.size()); ++line) {
    DrawLine(frame, snapshot, marks, line, false);
    if (python) DrawPythonTwin(frame, line);
    if (follow && line == marks.scroll_to) {
      ImGui::SetScrollHereY(0.4f);
      scrolled_to_ = line;
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
    const std::string& text = lines_[static_cast<std::size_t>(line - 1)];
    float code = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
    if (line == barrier1 || line == barrier2) {
      const std::string note = BarrierNote(line == barrier1 ? snapshot.config().barrier1 : snapshot.config().barrier2);
      code += ImGui::CalcTextSize(note.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
    }
    const bool has_switch = line == barrier1 || line == barrier2 ||
                            std::find(source.guard_lines.begin(), source.guard_lines.end(), line) != source.guard_lines.end();
    return std::max(code, has_switch ? ImGui::GetFrameHeight() : ImGui::GetTextLineHeight()) + 2.0f * style.CellPadding.y;
  };
  // Grow the excerpt from the followed line, a line after then a line before, while it fits.
  const int count = static_cast<int>(lines_.size());
  int first = std::clamp(marks.scroll_to, 1, count);
  int last = first;
  float used = height(first);
  const float room = ImGui::GetContentRegionAvail().y;
  for (bool grew = true; grew;) {
    grew = false;
    if (last < count && used + height(last + 1) <= room) used += height(++last), grew = true;
    if (first > 1 && used + height(first - 1) <= room) used += height(--first), grew = true;
  }
  ImGui::PopFont();
  if (!gui::BeginTable("##excerpt", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  SetupColumns(ImGuiTableColumnFlags_WidthStretch);
  for (int line = first; line <= last; ++line) DrawLine(frame, snapshot, marks, line, true);
  gui::EndTable();
}

void KernelSourcePanel::DrawLine(const FrameContext& frame, const sim::Snapshot& snapshot, const LineMarks& marks,
                                 int line, bool wrap) {
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
  const bool tour_line = std::any_of(tour_lines.begin(), tour_lines.end(), [&](sim::Op op) {
    return static_cast<std::size_t>(op) < source.op_lines.size() && source.op_lines[static_cast<std::size_t>(op)] == line;
  });
  if (tour_line) {
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kReddishPurple), "\u2605%d", line);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The tour's stop points at this line");
  } else {
    gui::TextDisabled("%3d", line);
  }
  ImGui::TableNextColumn();
  const auto waiting = marks.waiting.find(line);
  gui::Text("%s%s%s", marks.focus_next.count(line) ? kGlyphNext : " ", marks.just_ran.count(line) ? kGlyphJustRan : " ",
            waiting != marks.waiting.end() ? ("\u25B7" + std::to_string(waiting->second)).c_str() : "");
  if (waiting != marks.waiting.end() && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%d threads run line %d next", waiting->second, line);
  }
  ImGui::TableNextColumn();
  ImGui::PushFont(frame.fonts.mono);
  if (wrap) ImGui::PushTextWrapPos(0.0f);
  gui::TextUnformatted(lines_[static_cast<std::size_t>(line - 1)].c_str());
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
}

void KernelSourcePanel::DrawSwitch(const FrameContext& frame, const sim::Snapshot& snapshot, int line) {
  const sim::KernelSource& source = sim::SourceFor(snapshot.config().kernel);
  const sim::LessonConfig& config = snapshot.config();
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
  const sim::LessonConfig& config = snapshot.config();
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
  out["switches"] = nlohmann::json::array();
  if (barrier1 > 0)
    out["switches"].push_back({{"line", barrier1},
                               {"what", "barrier1"},
                               {"on", config.barrier1 != sim::SyncKind::kNone},
                               {"kind", sim::Name(config.barrier1)}});
  if (barrier2 > 0)
    out["switches"].push_back({{"line", barrier2},
                               {"what", "barrier2"},
                               {"on", config.barrier2 != sim::SyncKind::kNone},
                               {"kind", sim::Name(config.barrier2)}});
  for (int line : source.guard_lines)
    out["switches"].push_back({{"line", line}, {"what", "guard"}, {"on", config.guard}});
  return out;
}

}  // namespace gui
