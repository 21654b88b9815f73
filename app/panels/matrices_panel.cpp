#include "app/panels/matrices_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/palette.h"
#include "app/gui/panel_window.h"
#include "app/gui/text_item.h"
#include "app/panels/matrix_layout.h"
#include "sim/model/bits.h"
#include "sim/lesson/narration.h"
#include "sim/model/reference.h"

namespace gui {
namespace {

using sim::MatrixId;

constexpr int kMaxElementsForValues = 32 * 32;  // Past this, numbers cannot fit on any screen.
// Matrices up to 8×8 are always numbers, however small their cells: a heat map of 16 cells
// teaches nothing.
constexpr int kMaxElementsAlwaysNumbers = 8 * 8;
constexpr ImU32 kTileOutline = palette::kOrange;
constexpr ImU32 kStepMark = palette::kYellow;

ImU32 WithAlpha(ImU32 colour, float alpha) {
  return (colour & 0x00FFFFFF) | (static_cast<ImU32>(alpha * 255.0f) << 24);
}

std::string CellValue(float value, bool short_form) {
  return short_form ? sim::FormatValueShort(value) : sim::FormatValue(value);
}

// Widest printed value, or infinity when there are too many to print.
float WidestValue(const std::vector<float>& values, bool short_form) {
  if (values.size() > static_cast<std::size_t>(kMaxElementsForValues)) return INFINITY;
  float widest = 0.0f;
  for (float v : values) widest = std::max(widest, ImGui::CalcTextSize(CellValue(v, short_form).c_str()).x);
  return widest;
}

// The largest share of the font a line of text takes to fit a cell `height` pixels tall, with
// the frame's padding above and below.
float TextScaleDown(float height) {
  return (height - 2.0f * ImGui::GetStyle().FramePadding.y) / ImGui::GetFontSize();
}

// How tall a digit drawn at `text_size` pixels stands on screen: the font's own glyph of 0.
float DigitHeight(float text_size) {
  const ImFont* font = ImGui::GetFont();
  const ImFontGlyph* zero = font->FindGlyphNoFallback('0');
  return zero ? (zero->Y1 - zero->Y0) * text_size / font->FontSize : 0.0f;
}

void DrawCentred(ImDrawList* draw, ImVec2 cell_min, ImVec2 cell, float text_size, ImU32 colour, const std::string& text) {
  const float scale = text_size / ImGui::GetFontSize();
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  gui::DrawText(draw, ImGui::GetFont(), text_size,
                ImVec2(cell_min.x + (cell.x - size.x * scale) * 0.5f, cell_min.y + (cell.y - size.y * scale) * 0.5f),
                colour, text.c_str());
}

}  // namespace

void MatricesPanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot,
                         const std::vector<float>& reference, std::uint64_t lesson_generation) {
  ReadC(snapshot, reference, lesson_generation);
  DrawSummary(snapshot, frame.presentation);
  DrawTourNote();

  const sim::Geometry& g = snapshot.geometry();
  MatrixLayout layout(g);
  const float gap = ImGui::GetFontSize() * 0.6f;
  // A, B and the correct C never change within a lesson: read once per lesson.
  if (values_generation_ != lesson_generation) {
    for (MatrixId id : {MatrixId::kA, MatrixId::kB, MatrixId::kC}) {
      ReadValues(layout, id, snapshot, reference, values_[MatrixLayout::Index(id)]);
    }
    values_generation_ = lesson_generation;
  }
  float widest[3];  // each matrix's widest number in full
  for (int i = 0; i < 3; ++i) widest[i] = WidestValue(values_[i], false);
  layout.Place(g, gap, widest);
  figures_.cell = layout.cell;
  std::copy(std::begin(layout.col_w), std::end(layout.col_w), std::begin(figures_.col_w));
  figures_.in_a_row = layout.in_a_row;
  std::copy(std::begin(layout.origin), std::end(layout.origin), std::begin(figures_.origin));
  std::copy(std::begin(layout.name_min), std::end(layout.name_min), std::begin(figures_.name_min));
  std::copy(std::begin(layout.name_max), std::end(layout.name_max), std::begin(figures_.name_max));
  for (MatrixId id : {MatrixId::kA, MatrixId::kB, MatrixId::kC}) figures_.grid_max[MatrixLayout::Index(id)] = layout.GridMax(id);
  for (MatrixId id : {MatrixId::kA, MatrixId::kB, MatrixId::kC}) {
    DrawMatrix(layout, id, snapshot, values_[MatrixLayout::Index(id)]);
  }
  DrawOutlines(layout, snapshot);
  DrawStepMarks(layout, snapshot);
  DrawTourCells(layout);
  ImGui::Dummy(layout.extent);
  hover_.Hover(layout, snapshot, reference);
  hover_.Pick(frame, layout, pick_space);
  hover_.DrawEditor(frame);
  figures_.hovered = hover_.hovered();
}

int MatricesPanel::CharactersAcross(const sim::Snapshot& snapshot, const std::vector<float>& reference) {
  const MatrixLayout layout(snapshot.geometry());
  std::size_t widest[3] = {0, 0, 0};
  for (MatrixId id : {MatrixId::kA, MatrixId::kB, MatrixId::kC}) {
    const int i = MatrixLayout::Index(id);
    if (layout.real_rows[i] * layout.real_cols[i] > kMaxElementsForValues) return 0;
    std::vector<float> values;
    ReadValues(layout, id, snapshot, reference, values);
    for (float v : values) widest[i] = std::max(widest[i], sim::FormatValue(v).size());
  }
  // The zero padding's columns hold no numbers: a character's width each (MatrixLayout::PaddingWidth).
  const int padding = layout.cols[0] - layout.real_cols[0] + layout.cols[2] - layout.real_cols[2];
  return static_cast<int>(widest[0]) * layout.real_cols[0] +
         static_cast<int>(std::max(widest[1], widest[2])) * layout.real_cols[2] + padding;
}

// Every element of C, kept for the grids and counted for the summary; read again only when the
// lesson or the step changed.
void MatricesPanel::ReadC(const sim::Snapshot& snapshot, const std::vector<float>& reference,
                          std::uint64_t lesson_generation) {
  const MatrixRead now{lesson_generation, snapshot.step()};
  if (now == c_read_) return;
  c_read_ = now;
  figures_.not_started = figures_.partial = figures_.final = figures_.wrong = 0;
  snapshot.ReadC(c_);
  for (std::size_t at = 0; at < c_.size(); ++at) {
    switch (c_[at].progress) {
      case sim::CProgress::kNotStarted: ++figures_.not_started; break;
      case sim::CProgress::kPartial: ++figures_.partial; break;
      case sim::CProgress::kFinal:
        ++figures_.final;
        if (!sim::SameBits(c_[at].value, reference[at])) ++figures_.wrong;
        break;
    }
  }
}

void MatricesPanel::DrawSummary(const sim::Snapshot& snapshot, bool presentation) {
  const sim::Geometry& g = snapshot.geometry();
  const int elements = g.m * g.n;
  if (figures_.wrong > 0) {
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kVermillion), "%s %d of %d elements wrong",
                     palette::kGlyphCross, figures_.wrong, elements);
  } else {
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kBluishGreen), "%s 0 of %d elements wrong",
                     palette::kGlyphCheck, elements);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Stored elements of C compared bit for bit with the correct product (fmaf in k order).");
  }
  // The legend's mark beside the verdict, the progress after: two lines in a narrow panel, so
  // the grids keep the rows. A room reads the cells' states off the cells: in presentation the
  // progress line gives its row to the numbers.
  SameLineIfFits("(legend)");
  gui::TextDisabled("(legend)");
  DrawLegendTooltip();
  if (presentation) return;
  char progress[96];
  std::snprintf(progress, sizeof progress, "\u00B7 %d final, %d partial, %d not started", figures_.final,
                figures_.partial, figures_.not_started);
  SameLineIfFits(progress);
  gui::TextUnformatted(progress);
}

void MatricesPanel::DrawLegendTooltip() {
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Orange frame: the current block's tiles in its current phase (grey cells past the edges: zero "
                      "padding).\nYellow frame: elements read from or stored to global memory this step.\n"
                      "C: p1 = partial sum after phase 1, %s final and right, %s final and wrong.\n"
                      "Large matrices are heat maps (dark = small, yellow = large); a partial sum fills half a cell (every\n"
                      "other pixel row where a pixel shows several cells), a wrong one is vermillion.\n"
                      "Hover any cell for its value and who read it; click an element of A or B to change it.",
                      palette::kGlyphCheck, palette::kGlyphCross);
  }
}

void MatricesPanel::ReadValues(const MatrixLayout& layout, MatrixId id, const sim::Snapshot& snapshot,
                               const std::vector<float>& reference, std::vector<float>& values) {
  const sim::Geometry& g = snapshot.geometry();
  const int index = MatrixLayout::Index(id);
  values.clear();
  for (int row = 0; row < layout.real_rows[index]; ++row) {
    for (int col = 0; col < layout.real_cols[index]; ++col) {
      values.push_back(id == MatrixId::kA ? snapshot.a(row, col)
                                          : (id == MatrixId::kB ? snapshot.b(row, col) : reference[row * g.n + col]));
    }
  }
}

void MatricesPanel::DrawMatrix(const MatrixLayout& layout, MatrixId id, const sim::Snapshot& snapshot,
                               const std::vector<float>& values) {
  const int index = MatrixLayout::Index(id);
  // Numbers shrink to fit their cells (across and down) down to kMinTextScale of the font, then
  // drop to three significant digits, then give way to a heat map.
  const auto scale_for = [&](bool short_form) {
    return std::min({kMaxTextScale, TextScaleDown(layout.cell),
                     (layout.col_w[index] - ColumnPadding()) /
                         std::max(1.0f, WidestValue(values, short_form))});
  };
  const bool short_form = scale_for(false) < kMinTextScale;
  const float text_scale = scale_for(short_form);
  const bool always_numbers = values.size() <= static_cast<std::size_t>(kMaxElementsAlwaysNumbers);
  if (text_scale < kMinTextScale && !always_numbers) {
    figures_.drawn_as[index] = "heat map";
    figures_.digit_pixels[index] = 0.0f;
    heat_maps_.Draw(layout, id, values, c_, c_read_);
    return;
  }
  figures_.drawn_as[index] = short_form ? "short values" : "values";
  const float text_size = ImGui::GetFontSize() * std::max(text_scale, 0.0f);
  figures_.digit_pixels[index] = DigitHeight(text_size);
  DrawValues(layout, id, snapshot, values, short_form, text_size);
}

void MatricesPanel::DrawValues(const MatrixLayout& layout, MatrixId id, const sim::Snapshot& snapshot,
                               const std::vector<float>& values, bool short_form, float text_size) {
  const sim::Geometry& g = snapshot.geometry();
  const int index = MatrixLayout::Index(id);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 frame_bg = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float small = ImGui::GetFontSize() * 0.6f;
  const float inset = layout.cell >= 4.0f ? 1.0f : 0.0f;  // A 1-pixel gutter once cells are big enough to keep it.
  for (int row = 0; row < layout.real_rows[index]; ++row) {
    for (int col = 0; col < layout.real_cols[index]; ++col) {
      const ImVec2 min = layout.CellMin(id, row, col);
      const ImVec2 max(min.x + layout.col_w[index] - inset, min.y + layout.cell - inset);
      const float value = values[static_cast<std::size_t>(row) * layout.real_cols[index] + col];
      if (id != MatrixId::kC) {
        draw->AddRectFilled(min, max, frame_bg);
        DrawCentred(draw, min, layout.Size(id), text_size, text, CellValue(value, short_form));
        continue;
      }
      const sim::CElement& e = c_[static_cast<std::size_t>(row) * static_cast<std::size_t>(g.n) + col];
      const bool wrong = e.progress == sim::CProgress::kFinal && !sim::SameBits(e.value, value);
      std::string corner;
      ImU32 fill = frame_bg;
      if (e.progress == sim::CProgress::kPartial) {
        fill = WithAlpha(palette::kSkyBlue, 0.35f);
        corner = g.naive ? std::to_string(e.phase + 1) + "/" + std::to_string(g.k) : "p" + std::to_string(e.phase + 1);
      } else if (e.progress == sim::CProgress::kFinal) {
        fill = wrong ? palette::kVermillion : WithAlpha(palette::kBluishGreen, 0.35f);
        corner = wrong ? palette::kGlyphCross : palette::kGlyphCheck;
      }
      draw->AddRectFilled(min, max, frame_bg);
      draw->AddRectFilled(min, max, fill);
      const std::string v = e.progress == sim::CProgress::kNotStarted ? "\u00B7" : CellValue(e.value, short_form);
      DrawCentred(draw, ImVec2(min.x, min.y + small * 0.3f), layout.Size(id), text_size,
                  e.progress == sim::CProgress::kNotStarted ? dim : text, v);
      if (!corner.empty()) {
        gui::DrawText(draw, ImGui::GetFont(), small, ImVec2(min.x + 2.0f, min.y + 1.0f), text, corner.c_str());
      }
    }
  }
}

// The current block's tiles: its rows of A and columns of B in this phase's slice of K, and
// its tile of C. Past the matrices' edges the tile's cells show the zero padding.
void MatricesPanel::DrawOutlines(const MatrixLayout& layout, const sim::Snapshot& snapshot) {
  if (snapshot.step() == 0) return;
  const sim::Geometry& g = snapshot.geometry();
  const int block = snapshot.current_block();
  const sim::Block& info = snapshot.blocks()[static_cast<std::size_t>(block)];
  // The phase the block works on (or loads next), as Shared tiles shows it; none once it is done.
  const int phase = snapshot.BlockPhase(block);
  figures_.block = block;
  figures_.phase = phase;
  const int row0 = info.by * g.tm;
  const int col0 = info.bx * g.tn;
  const int k0 = g.naive ? 0 : std::max(phase, 0) * g.tk;
  const int k_extent = g.naive ? g.k : g.tk;
  struct Box {
    MatrixId id;
    int row, col, rows, cols;
  };
  const Box boxes[3] = {{MatrixId::kA, row0, k0, g.tm, k_extent},
                        {MatrixId::kB, k0, col0, k_extent, g.tn},
                        {MatrixId::kC, row0, col0, g.tm, g.tn}};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float zero_size = ImGui::GetFontSize() * std::min(1.0f, TextScaleDown(layout.cell));
  const bool show_zero = zero_size >= kMinTextScale * ImGui::GetFontSize();
  for (const Box& box : boxes) {
    if (phase < 0 && box.id != MatrixId::kC) continue;
    for (int r = box.row; r < box.row + box.rows; ++r) {
      for (int c = box.col; c < box.col + box.cols; ++c) {
        if (layout.Inside(box.id, r, c)) continue;
        const ImVec2 min = layout.CellMin(box.id, r, c);
        draw->AddRectFilled(min, layout.CellMax(box.id, r, c), WithAlpha(palette::kGrey, 0.25f));
        if (show_zero && box.id != MatrixId::kC) {
          const ImVec2 max = layout.CellMax(box.id, r, c);
          DrawCentred(draw, min, ImVec2(max.x - min.x, max.y - min.y), zero_size, ImGui::GetColorU32(ImGuiCol_TextDisabled),
                      "0");
        }
      }
    }
    const float thickness = std::max(2.0f, layout.cell * 0.08f);
    draw->AddRect(layout.CellMin(box.id, box.row, box.col),
                  layout.CellMax(box.id, box.row + box.rows - 1, box.col + box.cols - 1), kTileOutline, 0.0f, 0,
                  thickness);
  }
}

// Elements of A and B loaded from global memory this step, and elements of C stored.
void MatricesPanel::DrawTourCells(const MatrixLayout& layout) {
  figures_.tour_framed.clear();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float thickness = std::max(3.0f, layout.cell * 0.14f);
  for (const sim::CellRef& cell : tour_cells) {
    MatrixId id = MatrixId::kC;
    if (cell.space == sim::CellSpace::kA) id = MatrixId::kA;
    else if (cell.space == sim::CellSpace::kB) id = MatrixId::kB;
    else if (cell.space != sim::CellSpace::kC) continue;  // As and Bs: the Shared tiles panel's
    if (!layout.Inside(id, cell.row, cell.col)) continue;
    const ImVec2 min = layout.CellMin(id, cell.row, cell.col);
    const ImVec2 max = layout.CellMax(id, cell.row, cell.col);
    draw->AddRect(ImVec2(min.x + thickness * 0.5f, min.y + thickness * 0.5f),
                  ImVec2(max.x - thickness * 0.5f, max.y - thickness * 0.5f), palette::kReddishPurple, 0.0f, 0,
                  thickness);
    figures_.tour_framed.push_back(sim::CellText(cell));
  }
}

// Above the grids, so they size to the room left: the frame's colour is named in words too.
void MatricesPanel::DrawTourNote() {
  std::string names;
  for (const sim::CellRef& cell : tour_cells) {
    if (cell.space == sim::CellSpace::kAs || cell.space == sim::CellSpace::kBs) continue;
    names += (names.empty() ? "" : " ") + sim::CellText(cell);
  }
  if (names.empty()) return;
  gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(palette::kReddishPurple), "Framed thick by the tour: %s",
                          names.c_str());
}

void MatricesPanel::DrawStepMarks(const MatrixLayout& layout, const sim::Snapshot& snapshot) {
  figures_.marked.clear();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float thickness = std::max(2.0f, layout.cell * 0.1f);
  for (const sim::TraceEvent& event : snapshot.last_step_events()) {
    const sim::Place* place = nullptr;
    if (event.kind == sim::EventKind::kGlobalLoad) place = &event.from;
    if (event.kind == sim::EventKind::kStoreC) place = &event.to;
    if (!place || place->space != sim::Place::Space::kGlobal) continue;
    if (!layout.Inside(place->matrix, place->row, place->col)) continue;  // Out of bounds: the Hazards panel's.
    figures_.marked.push_back(sim::PlaceName(*place));
    const ImVec2 min = layout.CellMin(place->matrix, place->row, place->col);
    const ImVec2 max = layout.CellMax(place->matrix, place->row, place->col);
    draw->AddRect(ImVec2(min.x + thickness * 0.5f, min.y + thickness * 0.5f),
                  ImVec2(max.x - thickness * 0.5f, max.y - thickness * 0.5f), kStepMark, 0.0f, 0, thickness);
  }
}

void MatricesPanel::DumpState(nlohmann::json& state) const {
  nlohmann::json& out = state["matrices"];
  out["cell_pixels"] = figures_.cell;  // a cell's height
  out["cell_width"] = figures_.col_w[2];  // C's columns
  out["column_widths"] = {{"a", figures_.col_w[0]}, {"b", figures_.col_w[1]}, {"c", figures_.col_w[2]}};
  out["origins"] = {{"a", {figures_.origin[0].x, figures_.origin[0].y}},
                    {"b", {figures_.origin[1].x, figures_.origin[1].y}},
                    {"c", {figures_.origin[2].x, figures_.origin[2].y}}};
  out["drawn_as"] = {{"a", figures_.drawn_as[0]}, {"b", figures_.drawn_as[1]}, {"c", figures_.drawn_as[2]}};
  out["digit_pixels"] = {{"a", figures_.digit_pixels[0]}, {"b", figures_.digit_pixels[1]}, {"c", figures_.digit_pixels[2]}};
  out["in_a_row"] = figures_.in_a_row;
  // Each grid's and each name's rectangle [x0, y0, x1, y1], under "a", "b", "c": none lies over another.
  const char* keys[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i) {
    out["grids"][keys[i]] = {figures_.origin[i].x, figures_.origin[i].y, figures_.grid_max[i].x, figures_.grid_max[i].y};
    out["names"][keys[i]] = {figures_.name_min[i].x, figures_.name_min[i].y, figures_.name_max[i].x, figures_.name_max[i].y};
  }
  out["c_not_started"] = figures_.not_started;
  out["c_partial"] = figures_.partial;
  out["c_final"] = figures_.final;
  out["c_wrong"] = figures_.wrong;
  out["marked_this_step"] = figures_.marked;
  out["outlined_block"] = figures_.block;
  out["outlined_phase"] = figures_.phase;
  out["tour_framed"] = figures_.tour_framed;
  out["hovered"] = figures_.hovered;
}

}  // namespace gui
