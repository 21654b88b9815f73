#include "app/panels/shared_tiles_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/lesson/narration.h"

namespace gui {
namespace {

using sim::CellFreshness;

ImU32 FreshnessColour(CellFreshness freshness) {
  switch (freshness) {
    case CellFreshness::kFresh: return palette::kBluishGreen;
    case CellFreshness::kStale: return palette::kOrange;
    case CellFreshness::kAhead: return palette::kVermillion;
    case CellFreshness::kNeverWritten: return palette::kGrey;
  }
  return palette::kGrey;
}

// Freshness in words too: colour is never the only carrier of state.
const char* FreshnessMark(CellFreshness freshness) {
  switch (freshness) {
    case CellFreshness::kFresh: return palette::kGlyphCheck;
    case CellFreshness::kStale: return "old";
    case CellFreshness::kAhead: return palette::kGlyphWarning;
    case CellFreshness::kNeverWritten: return "";
  }
  return "";
}

void DrawTileLegend() {
  gui::TextDisabled("(legend)");
  if (!ImGui::IsItemHovered()) return;
  ImGui::SetTooltip("%s: written in this phase (fresh)\nold: written in the previous phase (stale); a slash when "
                    "cells are small\n%s: written by a thread already in a later phase, over values others still read (the race "
                    "the 2nd barrier prevents)\n?: never written (the poison value)\nYellow frame: the row of As and the column "
                    "of Bs the selected thread's inner product reads;\nthick: the pair it reads next.",
                    palette::kGlyphCheck, palette::kGlyphWarning);
}

ImU32 Tint(ImU32 colour) { return (colour & 0x00FFFFFF) | 0x60000000; }

// Cell text at a CellDetail (shared_tiles_panel.h). Without its mark a stale cell gets a
// slash, so freshness is never shown by colour alone.

std::string CellText(const sim::SharedCell& cell, CellFreshness freshness, CellDetail detail) {
  if (detail == CellDetail::kNone) return "";
  if (!cell.written()) return "?";
  const bool short_value = detail == CellDetail::kShortMarked || detail == CellDetail::kShort;
  const std::string value = short_value ? sim::FormatValueShort(cell.value) : sim::FormatValue(cell.value);
  const bool marked = detail == CellDetail::kFullMarked || detail == CellDetail::kShortMarked;
  return marked ? value + " " + FreshnessMark(freshness) : value;
}

bool Marked(CellDetail detail) { return detail == CellDetail::kFullMarked || detail == CellDetail::kShortMarked; }

bool Fits(const sim::Snapshot& snapshot, int block, sim::TileId id, CellDetail detail, float width) {
  const sim::SharedTile tile = snapshot.tile(block, id);
  for (int row = 0; row < tile.rows; ++row) {
    for (int col = 0; col < tile.cols; ++col) {
      const std::string text = CellText(tile.at(row, col), snapshot.Freshness(block, id, row, col), detail);
      if (ImGui::CalcTextSize(text.c_str()).x > width) return false;
    }
  }
  return true;
}

CellDetail FitDetail(const sim::Snapshot& snapshot, int block, float width) {
  if (width < ImGui::GetFontSize()) return CellDetail::kNone;
  for (CellDetail detail : {CellDetail::kFullMarked, CellDetail::kShortMarked, CellDetail::kFull, CellDetail::kShort}) {
    if (Fits(snapshot, block, sim::TileId::kAs, detail, width) && Fits(snapshot, block, sim::TileId::kBs, detail, width)) {
      return detail;
    }
  }
  return CellDetail::kNone;
}

}  // namespace

void SharedTilesPanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot, ThreadRef selected) {
  const bool presentation = frame.presentation;
  if (snapshot.geometry().naive) {
    gui::TextWrapped("The naive kernel uses no shared memory: every product reads A and B from global memory.");
    return;
  }
  block_ = selected.block;
  fresh_ = stale_ = never_written_ = ahead_ = 0;
  tour_framed_.clear();
  cell_centres_.clear();
  const sim::Block& info = snapshot.blocks()[static_cast<std::size_t>(block_)];
  const sim::Thread& thread = snapshot.thread(selected.block, selected.thread);
  const int phase = snapshot.BlockPhase(block_);
  gui::TextWrapped("Block %s, %s; thread %s", sim::Coordinates(info.bx, info.by).c_str(),
                   phase < 0 ? "finished" : ("phase " + std::to_string(phase + 1)).c_str(),
                   sim::Coordinates(thread.tx, thread.ty).c_str());
  SameLineIfFits("(legend)");
  DrawTileLegend();
  std::string tour_names;  // the frame's colour is named in words too
  for (const sim::CellRef& cell : tour_cells) {
    if (cell.space == sim::CellSpace::kAs || cell.space == sim::CellSpace::kBs) {
      tour_names += (tour_names.empty() ? "" : " ") + sim::CellText(cell);
    }
  }
  if (!tour_names.empty()) {
    gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(palette::kReddishPurple), "Framed thick by the tour: %s",
                            tour_names.c_str());
  }
  const sim::Geometry& g = snapshot.geometry();
  const float gap = ImGui::GetFontSize();
  const float wanted = ImGui::CalcTextSize("-0.000000 old").x + 2.0f * ImGui::GetStyle().FramePadding.x;
  const float fit = (ImGui::GetContentRegionAvail().x - gap) / static_cast<float>(g.tk + g.tn);
  const float cell_width = std::max(4.0f, std::floor(std::min(wanted, fit)));
  float cell_height = std::min(cell_width, ImGui::GetFrameHeight() * 1.2f);
  if (presentation) {
    const float room = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing();
    cell_height = std::max(1.0f, std::floor(std::min(cell_height, room / static_cast<float>(std::max(g.tm, g.tk)))));
  }
  const bool text_fits = cell_height >= ImGui::GetFontSize();
  const CellDetail detail =
      text_fits ? FitDetail(snapshot, selected.block, cell_width - ImGui::GetStyle().FramePadding.x) : CellDetail::kNone;
  detail_ = detail;
  DrawTile(frame, "As", snapshot, selected, sim::TileId::kAs, cell_width, cell_height, detail);
  ImGui::SameLine(0.0f, gap);
  DrawTile(frame, "Bs", snapshot, selected, sim::TileId::kBs, cell_width, cell_height, detail);
}

void SharedTilesPanel::DrawTile(const FrameContext& frame, const char* name, const sim::Snapshot& snapshot,
                                ThreadRef selected, sim::TileId id, float cell_width, float cell_height,
                                CellDetail detail) {
  const sim::SharedTile tile = snapshot.tile(selected.block, id);
  const sim::Thread& thread = snapshot.thread(selected.block, selected.thread);
  ImGui::BeginGroup();
  gui::Text("%s[%d][%d]", name, tile.rows, tile.cols);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float padding = ImGui::GetStyle().FramePadding.x;
  int hovered_row = -1;
  int hovered_col = -1;
  for (int row = 0; row < tile.rows; ++row) {
    for (int col = 0; col < tile.cols; ++col) {
      const ImVec2 min(origin.x + static_cast<float>(col) * cell_width, origin.y + static_cast<float>(row) * cell_height);
      const ImVec2 max(min.x + cell_width - 1.0f, min.y + cell_height - 1.0f);
      const sim::SharedCell& cell = tile.at(row, col);
      const CellFreshness freshness = snapshot.Freshness(selected.block, id, row, col);
      fresh_ += freshness == CellFreshness::kFresh;
      stale_ += freshness == CellFreshness::kStale;
      never_written_ += freshness == CellFreshness::kNeverWritten;
      ahead_ += freshness == CellFreshness::kAhead;
      draw->AddRectFilled(min, max, Tint(FreshnessColour(freshness)));
      const std::string text = CellText(cell, freshness, detail);
      if (!text.empty()) {
        gui::DrawText(draw, ImVec2(min.x + padding, min.y + (cell_height - ImGui::GetFontSize()) * 0.5f),
                      ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
      }
      if (!Marked(detail) && freshness != CellFreshness::kFresh && freshness != CellFreshness::kNeverWritten) {
        draw->AddLine(min, max, FreshnessColour(freshness), 1.0f);
      }
      const sim::CellSpace space = id == sim::TileId::kAs ? sim::CellSpace::kAs : sim::CellSpace::kBs;
      cell_centres_[sim::CellText({space, row, col})] = {(min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f};
      if (std::find(tour_cells.begin(), tour_cells.end(), sim::CellRef{space, row, col}) != tour_cells.end()) {
        const float thickness = std::max(3.0f, std::min(cell_width, cell_height) * 0.12f);
        draw->AddRect(ImVec2(min.x + thickness * 0.5f, min.y + thickness * 0.5f),
                      ImVec2(max.x - thickness * 0.5f, max.y - thickness * 0.5f), palette::kReddishPurple, 0.0f, 0,
                      thickness);
        tour_framed_.push_back(sim::CellText({space, row, col}));
      }
      if (ImGui::IsMouseHoveringRect(min, max) && ImGui::IsWindowHovered()) {
        hovered_row = row;
        hovered_col = col;
      }
    }
  }
  // The selected thread reads row ty of As and column tx of Bs; k says which pair is next.
  const bool reads_row = id == sim::TileId::kAs;
  const int line = reads_row ? thread.ty : thread.tx;
  const ImVec2 band_min = reads_row ? ImVec2(origin.x, origin.y + static_cast<float>(line) * cell_height)
                                    : ImVec2(origin.x + static_cast<float>(line) * cell_width, origin.y);
  const ImVec2 band_max = reads_row ? ImVec2(origin.x + static_cast<float>(tile.cols) * cell_width, band_min.y + cell_height)
                                    : ImVec2(band_min.x + cell_width, origin.y + static_cast<float>(tile.rows) * cell_height);
  draw->AddRect(band_min, band_max, palette::kYellow, 0.0f, 0, 2.0f);
  if (thread.pc.op == sim::Op::kFma) {
    const int k = thread.regs.k;
    const ImVec2 min = reads_row ? ImVec2(band_min.x + static_cast<float>(k) * cell_width, band_min.y)
                                 : ImVec2(band_min.x, band_min.y + static_cast<float>(k) * cell_height);
    draw->AddRect(min, ImVec2(min.x + cell_width, min.y + cell_height), palette::kYellow, 0.0f, 0, 4.0f);
  }
  ImGui::Dummy(ImVec2(cell_width * static_cast<float>(tile.cols), cell_height * static_cast<float>(tile.rows)));
  ImGui::EndGroup();
  if (hovered_row < 0) return;
  const sim::CellSpace space = id == sim::TileId::kAs ? sim::CellSpace::kAs : sim::CellSpace::kBs;
  if (pick_space == space && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    frame.actions.Push("guide-pick-cell", sim::CellText({space, hovered_row, hovered_col}));
  }
  const sim::SharedCell& cell = tile.at(hovered_row, hovered_col);
  if (!cell.written()) {
    ImGui::SetTooltip("%s[%d][%d]: never written (holds a poison value, shown as ?)", name, hovered_row, hovered_col);
    return;
  }
  const sim::Thread& writer = snapshot.thread(selected.block, cell.writer);
  ImGui::SetTooltip("%s[%d][%d] = %s\nwritten by thread %s of the block in phase %d", name, hovered_row, hovered_col,
                    sim::FormatValue(cell.value).c_str(), sim::Coordinates(writer.tx, writer.ty).c_str(), cell.phase + 1);
}

void SharedTilesPanel::DumpState(nlohmann::json& state) const {
  nlohmann::json& out = state["shared_tiles"];
  out["block"] = block_;
  out["fresh"] = fresh_;
  out["stale"] = stale_;
  out["never_written"] = never_written_;
  out["ahead"] = ahead_;
  out["tour_framed"] = tour_framed_;
  out["cell_centres"] = cell_centres_;
  // As and Bs share one detail; colours only when not even a short value fits a cell.
  const char* drawn_as = detail_ == CellDetail::kNone                                               ? "colours only"
                         : detail_ == CellDetail::kShort || detail_ == CellDetail::kShortMarked ? "short values"
                                                                                                  : "values";
  out["drawn_as"] = {{"as", drawn_as}, {"bs", drawn_as}};
}

}  // namespace gui
