#include "app/panels/your_source_view.h"

#include <imgui.h>

#include <algorithm>
#include <set>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "app/panels/source_excerpt.h"
#include "app/panels/source_focus.h"

namespace gui {
namespace {

constexpr const char* kGlyphNext = "\u25B6";    // ▶ the followed thread runs this next
constexpr const char* kGlyphMarked = "\u25C6";  // ◆ a finding picked in the Hazards panel points here

ImU32 Tint(ImU32 colour, unsigned alpha) { return (colour & 0x00FFFFFF) | (alpha << 24); }

// "w0-7", "w0 w2 w5-6": a block's warps at a line, runs of them as ranges, so a line every warp
// stands at takes no more room than one.
std::string WarpList(const std::vector<int>& warps) {
  std::string text;
  for (std::size_t i = 0; i < warps.size();) {
    std::size_t j = i;
    while (j + 1 < warps.size() && warps[j + 1] == warps[j] + 1) ++j;
    text += (text.empty() ? "w" : " w") + std::to_string(warps[i]) + (j > i ? "-" + std::to_string(warps[j]) : "");
    i = j + 1;
  }
  return text;
}

}  // namespace

YourSourceView::Marks YourSourceView::MarksOf(const sim::Snapshot& snapshot, const std::vector<int>& threads) {
  Marks marks;
  for (int index : threads) {
    const int line = snapshot.NextLine(snapshot.threads()[static_cast<std::size_t>(index)]);
    if (line > 0) marks.focus.push_back(line);
  }
  marks.waiting = snapshot.ThreadsByNextLine();
  // Each warp of the followed block at the lines its lanes run next (a diverged warp at several).
  const sim::Thread& first = snapshot.threads()[static_cast<std::size_t>(threads.front())];
  const sim::Block& block = snapshot.blocks()[static_cast<std::size_t>(first.block)];
  std::map<int, std::vector<int>> warps_at;
  for (int w = 0; w < block.warp_count; ++w) {
    const sim::Warp& warp = snapshot.warps()[static_cast<std::size_t>(block.first_warp + w)];
    std::set<int> lines;
    for (int lane = 0; lane < warp.lane_count; ++lane) {
      lines.insert(snapshot.NextLine(snapshot.threads()[static_cast<std::size_t>(warp.first_thread + lane)]));
    }
    for (int line : lines) {
      if (line != 0) warps_at[line].push_back(w);
    }
  }
  for (const auto& [line, warps] : warps_at) marks.warps[line] = WarpList(warps);
  return marks;
}

void YourSourceView::DrawProblem(const YourKernelView& view) {
  if (view.problem == nullptr) return;
  gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(palette::kVermillion), "%s %s", palette::kGlyphCross,
                          view.problem->c_str());
  gui::TextWrapped("The last save does not compile: its text is shown with the line marked; the run on show is the "
                   "last version that compiled. Save again to run the new one.");
}

void YourSourceView::Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const sim::Thread* picked,
                          const YourKernelView& view) {
  const std::vector<int> threads = FocusThreads(snapshot, picked);
  // While a save does not compile its lines are shown, and the run's marks (of another text) are not.
  const bool broken = view.problem_lines != nullptr;
  const std::vector<std::string>& lines = broken ? *view.problem_lines : view.lesson->lines;
  const Marks marks = broken ? Marks{} : MarksOf(snapshot, threads);
  gui::TextWrapped("%s \u2014 your kernel %s, following %s", view.lesson->path.c_str(),
                   view.lesson->file.kernel.name.c_str(), FocusName(snapshot, threads).c_str());
  SameLineIfFits("(legend)");
  gui::TextDisabled("(legend)");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s the followed thread runs next\nw0-3 w5: the warps of its block that run the line next\n"
                      "\u25B7N: N threads of the grid run it next\n%s a line of the finding picked in Hazards",
                      kGlyphNext, kGlyphMarked);
  }
  DrawProblem(view);
  excerpt_lines_.clear();
  if (frame.presentation && !broken) return DrawExcerpt(frame, lines, marks);
  int scroll_to = broken ? view.problem_line : (marks.focus.empty() ? 0 : marks.focus.front());
  if (!marked_lines.empty() && marked_lines != scrolled_marks_) scroll_to = marked_lines.front();
  const bool scroll = scroll_to > 0 && (scroll_to != scrolled_line_ || marked_lines != scrolled_marks_);
  const ImGuiTableFlags flags =
      ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!gui::BeginTable("##your_source", 4, flags)) return;
  ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("marks", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("warps", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("code", ImGuiTableColumnFlags_WidthFixed);
  for (int line = 1; line <= static_cast<int>(lines.size()); ++line) {
    DrawLine(frame, lines, line, marks, broken ? view.problem_line : 0);
    if (scroll && line == scroll_to) {
      ImGui::SetScrollHereY(0.4f);
      scrolled_line_ = scroll_to;
      scrolled_marks_ = marked_lines;
    }
  }
  gui::EndTable();
}

void YourSourceView::DrawExcerpt(const FrameContext& frame, const std::vector<std::string>& lines, const Marks& marks) {
  if (lines.empty()) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  const int count = static_cast<int>(lines.size());
  // The code column gets what the number, marks and warps columns leave as they mostly are (a
  // line's count of waiting threads, a block's eight warps): wider, and the lines measured
  // taller than they are drawn would leave the panel's foot empty.
  const float fixed = ImGui::CalcTextSize("000\u25B6\u25C6\u25B70000w0-7").x + 8.0f * style.CellPadding.x;
  const float wrap = std::max(ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x - fixed);
  ImGui::PushFont(frame.fonts.mono);
  std::vector<float> heights(static_cast<std::size_t>(count) + 1, 0.0f);
  for (int line = 1; line <= count; ++line) {
    const std::string& text = lines[static_cast<std::size_t>(line - 1)];
    const float drawn = std::max(ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y, ImGui::GetTextLineHeight());
    heights[static_cast<std::size_t>(line)] = drawn + 2.0f * style.CellPadding.y;
  }
  ImGui::PopFont();
  std::vector<int> must;
  if (!marks.focus.empty()) must.push_back(marks.focus.front());
  must.insert(must.end(), marked_lines.begin(), marked_lines.end());
  if (must.empty()) must.push_back(1);
  const float gap_row = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
  const std::set<int> shown = ExcerptLines(heights, 1, must, ImGui::GetContentRegionAvail().y, gap_row);
  if (!gui::BeginTable("##your_excerpt", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("marks", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("warps", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("code", ImGuiTableColumnFlags_WidthStretch);
  int previous = 0;
  for (int line : shown) {
    if (previous > 0 && line != previous + 1) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      gui::TextDisabled("\u22EE");  // lines left out between two the excerpt shows
    }
    DrawLine(frame, lines, line, marks, 0, true);
    excerpt_lines_.push_back(line);
    previous = line;
  }
  gui::EndTable();
}

void YourSourceView::DrawLine(const FrameContext& frame, const std::vector<std::string>& lines, int line,
                              const Marks& marks, int problem_line, bool wrap) {
  ImGui::TableNextRow();
  const bool focus = std::find(marks.focus.begin(), marks.focus.end(), line) != marks.focus.end();
  const bool marked = std::find(marked_lines.begin(), marked_lines.end(), line) != marked_lines.end();
  if (line == problem_line) {
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, Tint(palette::kVermillion, 0x60));
  } else if (marked) {
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, Tint(palette::kReddishPurple, 0x50));
  } else if (focus) {
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, Tint(palette::kSkyBlue, 0x70));
  }
  ImGui::TableNextColumn();
  gui::TextDisabled("%3d", line);
  ImGui::TableNextColumn();
  const auto waiting = marks.waiting.find(line);
  gui::Text("%s%s%s", focus ? kGlyphNext : " ", marked ? kGlyphMarked : " ",
            waiting != marks.waiting.end() ? ("\u25B7" + std::to_string(waiting->second)).c_str() : "");
  if (waiting != marks.waiting.end() && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%d threads run line %d next", waiting->second, line);
  }
  ImGui::TableNextColumn();
  const auto warps = marks.warps.find(line);
  if (warps != marks.warps.end()) gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kSkyBlue), "%s", warps->second.c_str());
  ImGui::TableNextColumn();
  ImGui::PushFont(frame.fonts.mono);
  if (wrap) {
    gui::TextWrapped("%s", lines[static_cast<std::size_t>(line - 1)].c_str());
  } else {
    gui::TextUnformatted(lines[static_cast<std::size_t>(line - 1)].c_str());
  }
  ImGui::PopFont();
}

nlohmann::json YourSourceView::Describe(const sim::Snapshot& snapshot, const sim::Thread* picked,
                                        const YourKernelView& view) const {
  const std::vector<int> threads = FocusThreads(snapshot, picked);
  const Marks marks = MarksOf(snapshot, threads);
  nlohmann::json out;
  out["file"] = view.lesson->path;
  out["following"] = FocusName(snapshot, threads);
  out["next_lines"] = std::set<int>(marks.focus.begin(), marks.focus.end());
  out["warp_lines"] = nlohmann::json::object();
  for (const auto& [line, warps] : marks.warps) out["warp_lines"][std::to_string(line)] = warps;
  out["marked_lines"] = marked_lines;
  out["excerpt_lines"] = excerpt_lines_;
  out["problem_line"] = view.problem_lines != nullptr ? nlohmann::json(view.problem_line) : nlohmann::json(nullptr);
  out["shown_lines"] = view.problem_lines != nullptr ? view.problem_lines->size() : view.lesson->lines.size();
  return out;
}

}  // namespace gui
