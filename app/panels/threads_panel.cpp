#include "app/panels/threads_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/lesson/glossary.h"
#include "sim/model/kernel_source.h"
#include "sim/lesson/narration.h"
#include "sim/lesson/teaching.h"

namespace gui {
namespace {

using sim::ThreadState;

constexpr float kMaxThreadCellInFonts = 3.0f;
constexpr float kMaxBlockCellInFonts = 2.2f;
constexpr float kMinCellInFonts = 1.2f;
constexpr float kBlockGridShare = 0.35f;  // Of the panel's height, at most, for the grid of blocks.

struct StateStyle {
  ImU32 colour;
  const char* words;
};

StateStyle StyleOf(ThreadState state) {
  switch (state) {
    case ThreadState::kRunning: return {palette::kSkyBlue, "running"};
    case ThreadState::kWaitingBarrier1: return {palette::kOrange, "waiting at the 1st barrier"};
    case ThreadState::kWaitingBarrier2: return {palette::kReddishPurple, "waiting at the 2nd barrier"};
    case ThreadState::kDone: return {palette::kBluishGreen, "done"};
  }
  return {palette::kGrey, ""};
}

// State by shape as well as colour: ▶ running, one bar = 1st barrier, two bars = 2nd, ✓ done.
void DrawStateMark(ImDrawList* draw, ImVec2 min, float size, ThreadState state) {
  const ImU32 colour = StyleOf(state).colour;
  const float s = size;
  const float w = std::max(1.0f, s * 0.16f);
  switch (state) {
    case ThreadState::kRunning:
      draw->AddTriangleFilled(ImVec2(min.x + s * 0.25f, min.y + s * 0.15f), ImVec2(min.x + s * 0.85f, min.y + s * 0.5f),
                              ImVec2(min.x + s * 0.25f, min.y + s * 0.85f), colour);
      break;
    case ThreadState::kWaitingBarrier1:
      draw->AddRectFilled(ImVec2(min.x + s * 0.5f - w, min.y + s * 0.15f), ImVec2(min.x + s * 0.5f + w, min.y + s * 0.85f),
                          colour);
      break;
    case ThreadState::kWaitingBarrier2:
      draw->AddRectFilled(ImVec2(min.x + s * 0.33f - w, min.y + s * 0.15f), ImVec2(min.x + s * 0.33f + w, min.y + s * 0.85f),
                          colour);
      draw->AddRectFilled(ImVec2(min.x + s * 0.67f - w, min.y + s * 0.15f), ImVec2(min.x + s * 0.67f + w, min.y + s * 0.85f),
                          colour);
      break;
    case ThreadState::kDone: {
      const ImVec2 points[3] = {ImVec2(min.x + s * 0.18f, min.y + s * 0.55f), ImVec2(min.x + s * 0.42f, min.y + s * 0.8f),
                                ImVec2(min.x + s * 0.85f, min.y + s * 0.2f)};
      draw->AddPolyline(points, 3, colour, 0, std::max(1.5f, s * 0.14f));
      break;
    }
  }
}

// The four marks with short names, wrapping onto a new line where the panel is narrow.
void DrawThreadStateLegend() {
  static constexpr const char* kShortWords[] = {"running", "at 1st barrier", "at 2nd barrier", "done"};
  const float size = ImGui::GetFontSize();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool first = true;
  for (ThreadState state : {ThreadState::kRunning, ThreadState::kWaitingBarrier1, ThreadState::kWaitingBarrier2,
                            ThreadState::kDone}) {
    const char* words = kShortWords[static_cast<int>(state)];
    const float width = size * 1.5f + ImGui::CalcTextSize(words).x;
    if (!first) {
      ImGui::SameLine(0.0f, size);
      if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
    }
    first = false;
    DrawStateMark(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), size, state);
    ImGui::Dummy(ImVec2(size, size));
    ImGui::SameLine();
    gui::TextUnformatted(words);
  }
}

std::string ThreadTooltip(const sim::Snapshot& snapshot, const sim::Thread& t) {
  const sim::Block& b = snapshot.blocks()[static_cast<std::size_t>(t.block)];
  const sim::Warp& w = snapshot.warps()[static_cast<std::size_t>(t.warp)];
  std::ostringstream out;
  out << "thread " << sim::Coordinates(t.tx, t.ty) << " of block " << sim::Coordinates(b.bx, b.by) << ", warp "
      << w.index_in_block << " lane " << t.lane << "\n"
      << StyleOf(t.state).words << "\n"
      << "row = " << t.regs.row << ", col = " << t.regs.col << ", sum = " << sim::FormatValue(t.regs.sum) << "\n";
  if (snapshot.geometry().naive) {
    out << "k = " << t.regs.k;
  } else {
    out << "t = " << t.regs.t << ", k = " << t.regs.k;
  }
  if (t.state != ThreadState::kDone) {
    out << "\nnext: line " << snapshot.NextLine(t) << " (" << sim::MarkerName(t.pc.op) << ")";
  }
  out << "\ninstructions run: " << t.instructions << "\nclick to follow this thread";
  return out.str();
}

}  // namespace

std::optional<std::string> ThreadSelection::Pick(const std::string& argument, const sim::Snapshot& snapshot) {
  if (argument.find_first_not_of(" \t") == std::string::npos) {
    picked.reset();
    return std::nullopt;
  }
  std::istringstream in(argument);
  long long block = -1;
  long long thread = -1;
  if (!(in >> block >> thread)) return "select-thread wants \"BLOCK THREAD\" (linear indices), got \"" + argument + "\"";
  const long long blocks = static_cast<long long>(snapshot.blocks().size());
  const long long threads = snapshot.geometry().block_threads;
  if (block < 0 || block >= blocks || thread < 0 || thread >= threads) {
    return "select-thread: block " + std::to_string(block) + ", thread " + std::to_string(thread) +
           " does not exist (this lesson has " + std::to_string(blocks) + " blocks of " + std::to_string(threads) +
           " threads)";
  }
  picked = ThreadRef{static_cast<int>(block), static_cast<int>(thread)};
  return std::nullopt;
}

void ThreadsPanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const ThreadSelection& selection) {
  shown_ = selection.Resolve(snapshot);
  const sim::Geometry& g = snapshot.geometry();
  const sim::Block& b = snapshot.blocks()[static_cast<std::size_t>(shown_.block)];
  gui::TextWrapped("Block %s: %d\u00D7%d threads in %d warp%s", sim::Coordinates(b.bx, b.by).c_str(), g.tn, g.tm,
              g.warps_per_block, g.warps_per_block == 1 ? "" : "s");
  // The grid of blocks is for picking one, with the mouse: a room sees the block the stop shows.
  if (snapshot.blocks().size() > 1 && !frame.presentation) DrawBlockGrid(frame, snapshot, shown_);
  DrawThreadGrid(frame, snapshot, shown_);
  DrawThreadStateLegend();
  DrawNotes(frame, snapshot, selection, shown_);
}

// Under the grid: the partly filled warp, and whose thread is shown.
void ThreadsPanel::DrawNotes(const FrameContext& frame, const sim::Snapshot& snapshot, const ThreadSelection& selection,
                             ThreadRef shown) {
  const sim::Geometry& g = snapshot.geometry();
  one_partial_warp_ = g.warps_per_block == 1 && g.block_threads < sim::kWarpSize;
  if (one_partial_warp_) {
    // The race note where there is a race: a barrier off.
    const sim::KernelConfig& config = snapshot.config();
    const bool barrier_off = config.barrier1 == sim::SyncKind::kNone || config.barrier2 == sim::SyncKind::kNone;
    gui::TextWrapped("Each block is %s.%s%s", sim::WarpsOfBlock(g).c_str(), barrier_off ? " " : "",
                     barrier_off ? sim::OneWarpRaceNote(config.scheduler) : "");
  }
  const sim::Thread& t = snapshot.thread(shown.block, shown.thread);
  if (selection.picked) {
    gui::Text("Following thread %s (picked).", sim::Coordinates(t.tx, t.ty).c_str());
    SameLineIfFits("Follow the scheduler", 2.0f * ImGui::GetStyle().FramePadding.x);
    if (gui::SmallButton("Follow the scheduler")) frame.actions.Push("select-thread");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show whichever thread ran last again.");
  } else {
    gui::TextWrapped("Following the thread that ran last: %s. Click a thread to pick one.",
                     sim::Coordinates(t.tx, t.ty).c_str());
  }
}

// One cell per block: filled as far as its threads are done, its phase written in it, the
// block that ran last framed in orange, the one shown below in yellow.
void ThreadsPanel::DrawBlockGrid(const FrameContext& frame, const sim::Snapshot& snapshot, ThreadRef shown) {
  const sim::Geometry& g = snapshot.geometry();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  gui::TextWrapped("Grid: %d\u00D7%d blocks (click one to show its threads)", g.grid_x, g.grid_y);
  ImGui::PopStyleColor();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float by_height = std::max(avail.y * kBlockGridShare / static_cast<float>(g.grid_y),
                                   kMinCellInFonts * ImGui::GetFontSize());
  const float cell = std::max(3.0f, std::floor(std::min({avail.x / static_cast<float>(g.grid_x), by_height,
                                                         kMaxBlockCellInFonts * ImGui::GetFontSize()})));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int current = snapshot.step() > 0 ? snapshot.current_block() : -1;
  const bool text_fits = cell >= ImGui::GetFontSize() * 1.6f;
  int hovered = -1;
  for (int by = 0; by < g.grid_y; ++by) {
    for (int bx = 0; bx < g.grid_x; ++bx) {
      const int index = snapshot.BlockIndex(bx, by);
      const sim::Block& b = snapshot.blocks()[static_cast<std::size_t>(index)];
      const ImVec2 min(origin.x + static_cast<float>(bx) * cell, origin.y + static_cast<float>(by) * cell);
      const ImVec2 max(min.x + cell - 1.0f, min.y + cell - 1.0f);
      const float done = static_cast<float>(b.exited_threads) / static_cast<float>(std::max(1, b.thread_count));
      draw->AddRectFilled(min, max, ImGui::GetColorU32(ImGuiCol_FrameBg));
      draw->AddRectFilled(ImVec2(min.x, max.y - (max.y - min.y) * done), max, palette::kBluishGreen);
      if (text_fits) {
        const int phase = snapshot.BlockPhase(index);
        const std::string label = phase < 0 ? palette::kGlyphCheck : "p" + std::to_string(phase + 1);
        gui::DrawText(draw, ImVec2(min.x + 3.0f, min.y + 2.0f), ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
      }
      if (index == current) draw->AddRect(min, max, palette::kOrange, 0.0f, 0, 2.0f);
      if (index == shown.block) draw->AddRect(ImVec2(min.x + 2, min.y + 2), ImVec2(max.x - 2, max.y - 2), palette::kYellow, 0.0f, 0, 2.0f);
      if (ImGui::IsMouseHoveringRect(min, max) && ImGui::IsWindowHovered()) hovered = index;
    }
  }
  ImGui::Dummy(ImVec2(cell * static_cast<float>(g.grid_x), cell * static_cast<float>(g.grid_y)));
  if (hovered < 0) return;
  const sim::Block& b = snapshot.blocks()[static_cast<std::size_t>(hovered)];
  const int phase = snapshot.BlockPhase(hovered);
  ImGui::SetTooltip("block %s: %s; %d of %d threads done%s\nclick to show its threads\n\n%s",
                    sim::Coordinates(b.bx, b.by).c_str(),
                    phase < 0 ? "finished" : ("phase " + std::to_string(phase + 1) + " of " + std::to_string(g.phases)).c_str(),
                    b.exited_threads, b.thread_count, hovered == current ? "; ran last" : "",
                    sim::Meaning("phase badge (p1, p2, ...)"));
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    frame.actions.Push("select-thread", std::to_string(hovered) + " " + std::to_string(shown.thread));
  }
}

void ThreadsPanel::DrawThreadGrid(const FrameContext& frame, const sim::Snapshot& snapshot, ThreadRef shown) {
  const sim::Geometry& g = snapshot.geometry();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Keep the legend and the notes below in view: in presentation, large type wraps them onto
  // two lines more.
  const float notes = (frame.presentation ? 5.0f : 3.0f) * ImGui::GetTextLineHeightWithSpacing();
  // Height shrinks cells only down to a readable size; past that the panel scrolls. A room
  // cannot scroll: there the cells shrink further, each a mark of its state still.
  const float readable = frame.presentation ? 0.0f : kMinCellInFonts * ImGui::GetFontSize();
  const float by_height = std::max((avail.y - notes) / static_cast<float>(g.tm), readable);
  const float cell = std::max(4.0f, std::floor(std::min({avail.x / static_cast<float>(g.tn), by_height,
                                                         kMaxThreadCellInFonts * ImGui::GetFontSize()})));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  std::vector<bool> ran(static_cast<std::size_t>(g.block_threads), false);
  for (const sim::TraceEvent& event : snapshot.last_step_events()) {
    if (event.block == shown.block && event.thread >= 0) ran[static_cast<std::size_t>(event.thread)] = true;
  }
  states_.fill(0);
  const bool label_fits = cell >= ImGui::GetFontSize() * 2.6f;
  const float small = ImGui::GetFontSize() * 0.6f;
  int hovered = -1;
  auto warp_of = [&](int tx, int ty) { return (ty * g.tn + tx) / sim::kWarpSize; };
  for (int ty = 0; ty < g.tm; ++ty) {
    for (int tx = 0; tx < g.tn; ++tx) {
      const int index = ty * g.tn + tx;
      const sim::Thread& t = snapshot.thread(shown.block, index);
      ++states_[static_cast<std::size_t>(t.state)];
      const ImVec2 min(origin.x + static_cast<float>(tx) * cell, origin.y + static_cast<float>(ty) * cell);
      const ImVec2 max(min.x + cell, min.y + cell);
      draw->AddRectFilled(min, ImVec2(max.x - 1.0f, max.y - 1.0f), ImGui::GetColorU32(ImGuiCol_FrameBg));
      const float mark = label_fits ? cell * 0.6f : cell;
      DrawStateMark(draw, ImVec2(min.x + (cell - mark) * 0.5f, min.y + (label_fits ? 1.0f : 0.0f)), mark, t.state);
      if (label_fits) {
        const std::string label = sim::Coordinates(tx, ty);
        const float width = ImGui::CalcTextSize(label.c_str()).x * 0.6f;
        gui::DrawText(draw, ImGui::GetFont(), small, ImVec2(min.x + (cell - width) * 0.5f, max.y - small - 2.0f),
                      ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
      }
      if (ran[static_cast<std::size_t>(index)]) draw->AddRect(min, max, ImGui::GetColorU32(ImGuiCol_Text), 0.0f, 0, 1.0f);
      if (index == shown.thread) draw->AddRect(ImVec2(min.x + 2, min.y + 2), ImVec2(max.x - 2, max.y - 2), palette::kYellow, 0.0f, 0, 2.0f);
      // A thick line where a warp's cells meet another warp's, or the grid's edge.
      const ImU32 edge = ImGui::GetColorU32(ImGuiCol_TextDisabled);
      const int w = warp_of(tx, ty);
      if (ty == 0 || warp_of(tx, ty - 1) != w) draw->AddLine(min, ImVec2(max.x, min.y), edge, 2.0f);
      if (ty == g.tm - 1 || warp_of(tx, ty + 1) != w) draw->AddLine(ImVec2(min.x, max.y), max, edge, 2.0f);
      if (tx == 0 || warp_of(tx - 1, ty) != w) draw->AddLine(min, ImVec2(min.x, max.y), edge, 2.0f);
      if (tx == g.tn - 1 || warp_of(tx + 1, ty) != w) draw->AddLine(ImVec2(max.x, min.y), max, edge, 2.0f);
      if (ImGui::IsMouseHoveringRect(min, max) && ImGui::IsWindowHovered()) hovered = index;
    }
  }
  ImGui::Dummy(ImVec2(cell * static_cast<float>(g.tn), cell * static_cast<float>(g.tm)));
  if (hovered < 0) return;
  ImGui::SetTooltip("%s", ThreadTooltip(snapshot, snapshot.thread(shown.block, hovered)).c_str());
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    frame.actions.Push("select-thread", std::to_string(shown.block) + " " + std::to_string(hovered));
  }
}

void ThreadsPanel::DumpState(nlohmann::json& state) const {
  nlohmann::json& out = state["threads"];
  out["block"] = shown_.block;
  out["thread"] = shown_.thread;
  out["running"] = states_[0];
  out["waiting_barrier1"] = states_[1];
  out["waiting_barrier2"] = states_[2];
  out["done"] = states_[3];
  out["one_partly_filled_warp"] = one_partial_warp_;
}

}  // namespace gui
