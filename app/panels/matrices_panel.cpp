#include "app/panels/matrices_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/palette.h"
#include "app/gui/panel_window.h"
#include "app/gui/text_item.h"
#include "app/plot/heat_map.h"
#include "sim/model/bits.h"
#include "sim/lesson/narration.h"
#include "sim/model/reference.h"

namespace gui {
namespace {

using sim::MatrixId;

constexpr int kMaxReadersListed = 8;
constexpr int kMaxElementsForValues = 32 * 32;  // Past this, numbers cannot fit on any screen.
constexpr float kMaxCellInFonts = 4.0f;         // Cells stop growing at 4 font heights.
constexpr float kMinCellPixels = 0.125f;        // A heat map's cells shrink below a pixel, to 8 a pixel.
constexpr float kMinTextScale = 0.6f;           // Smaller numbers are unreadable from a classroom's back row.
constexpr float kMaxCellAspect = 2.0f;          // Columns widen for wide numbers up to twice a cell's height.
constexpr ImU32 kTileOutline = palette::kOrange;
constexpr ImU32 kStepMark = palette::kYellow;

const char* MatrixName(MatrixId id) { return id == MatrixId::kA ? "A" : (id == MatrixId::kB ? "B" : "C"); }

ImU32 WithAlpha(ImU32 colour, float alpha) {
  return (colour & 0x00FFFFFF) | (static_cast<ImU32>(alpha * 255.0f) << 24);
}

struct Range {
  float low = 0.0f;
  float high = 0.0f;
  float Normalise(float v) const { return high > low ? (v - low) / (high - low) : 0.5f; }
};

Range RangeOf(const std::vector<float>& values) {
  Range range{0.0f, 0.0f};
  bool first = true;
  for (float v : values) {
    if (!std::isfinite(v)) continue;
    range.low = first ? v : std::min(range.low, v);
    range.high = first ? v : std::max(range.high, v);
    first = false;
  }
  return range;
}

// An element of C not started yet, as the value grids show it: the frame colour laid twice
// (once as the cell's ground, once as its fill).
ImU32 EmptyCellColour() {
  const ImVec4 frame = ImGui::GetStyleColorVec4(ImGuiCol_FrameBg);
  const float once = 1.0f - frame.w;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(frame.x, frame.y, frame.z, 1.0f - once * once));
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

std::string ThreadName(const sim::Snapshot& snapshot, int block, int thread) {
  const sim::Thread& t = snapshot.thread(block, thread);
  const sim::Block& b = snapshot.blocks()[static_cast<std::size_t>(block)];
  return "thread " + sim::Coordinates(t.tx, t.ty) + " of block " + sim::Coordinates(b.bx, b.by);
}

void DrawCentred(ImDrawList* draw, ImVec2 cell_min, ImVec2 cell, float text_size, ImU32 colour, const std::string& text) {
  const float scale = text_size / ImGui::GetFontSize();
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  gui::DrawText(draw, ImGui::GetFont(), text_size,
                ImVec2(cell_min.x + (cell.x - size.x * scale) * 0.5f, cell_min.y + (cell.y - size.y * scale) * 0.5f),
                colour, text.c_str());
}

}  // namespace

// Where each matrix's grid lies: B above C, A left of C; padded sizes (whole tiles) so the
// zero padding of the tail tiles has cells to show in.
struct MatricesPanel::Layout {
  float cell = 0.0f;    // a cell's height
  float cell_w = 0.0f;  // and width: wider than tall where the numbers need it (C of 6×5×7: 4 digits)
  int rows[3] = {0, 0, 0};     // drawn rows of A, B, C (padded to whole tiles)
  int cols[3] = {0, 0, 0};
  int real_rows[3] = {0, 0, 0};
  int real_cols[3] = {0, 0, 0};
  ImVec2 origin[3];

  static int Index(MatrixId id) { return static_cast<int>(id); }
  ImVec2 CellMin(MatrixId id, int row, int col) const {
    const ImVec2 o = origin[Index(id)];
    return ImVec2(o.x + static_cast<float>(col) * cell_w, o.y + static_cast<float>(row) * cell);
  }
  ImVec2 CellMax(MatrixId id, int row, int col) const {
    const ImVec2 min = CellMin(id, row, col);
    return ImVec2(min.x + cell_w, min.y + cell);
  }
  ImVec2 Size() const { return ImVec2(cell_w, cell); }
  bool Inside(MatrixId id, int row, int col) const {
    return row < real_rows[Index(id)] && col < real_cols[Index(id)];
  }
  bool Hit(ImVec2 p, MatrixId id, int& row, int& col) const {
    const ImVec2 o = origin[Index(id)];
    if (p.x < o.x || p.y < o.y) return false;
    row = static_cast<int>((p.y - o.y) / cell);
    col = static_cast<int>((p.x - o.x) / cell_w);
    return row < rows[Index(id)] && col < cols[Index(id)];
  }
};

void MatricesPanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot,
                         const std::vector<float>& reference, std::uint64_t lesson_generation) {
  ReadC(snapshot, reference, lesson_generation);
  DrawSummary(snapshot);
  DrawTourNote();

  const sim::Geometry& g = snapshot.geometry();
  Layout layout;
  const int padded_m = g.naive ? g.m : g.grid_y * g.tm;
  const int padded_n = g.naive ? g.n : g.grid_x * g.tn;
  const int padded_k = g.naive ? g.k : g.phases * g.tk;
  const int dims[3][4] = {
      {padded_m, padded_k, g.m, g.k}, {padded_k, padded_n, g.k, g.n}, {padded_m, padded_n, g.m, g.n}};
  for (int i = 0; i < 3; ++i) {
    layout.rows[i] = dims[i][0];
    layout.cols[i] = dims[i][1];
    layout.real_rows[i] = dims[i][2];
    layout.real_cols[i] = dims[i][3];
  }
  const float gap = ImGui::GetFontSize() * 0.6f;
  // A, B and the correct C never change within a lesson: read once per lesson.
  if (values_generation_ != lesson_generation) {
    for (MatrixId id : {MatrixId::kA, MatrixId::kB, MatrixId::kC}) {
      ReadValues(layout, id, snapshot, reference, values_[Layout::Index(id)]);
    }
    values_generation_ = lesson_generation;
  }
  float widest = 0.0f;  // the widest number in full, over A, B and C
  for (const std::vector<float>& values : values_) widest = std::max(widest, WidestValue(values, false));
  const float labels_height = PlaceGrids(layout, g, gap, widest);
  figures_.cell = layout.cell;
  figures_.cell_w = layout.cell_w;
  std::copy(std::begin(layout.origin), std::end(layout.origin), std::begin(figures_.origin));
  for (MatrixId id : {MatrixId::kA, MatrixId::kB, MatrixId::kC}) {
    DrawMatrix(layout, id, snapshot, values_[Layout::Index(id)]);
  }
  DrawOutlines(layout, snapshot);
  DrawStepMarks(layout, snapshot);
  DrawTourCells(layout);
  ImGui::Dummy(ImVec2(layout.cell_w * static_cast<float>(padded_k + padded_n) + gap,
                      labels_height + gap + layout.cell * static_cast<float>(padded_k + padded_m)));
  HandleHover(layout, snapshot, reference);
  HandlePick(frame, layout);
  DrawEditor(frame);
}

// Sizes the cells to the panel and places B above C and A left of C. Cells are square unless
// the widest number (`widest`, in pixels at full size; infinite for a heat map) needs wider
// columns and the panel has the width. The names go in the empty corner above A when they fit
// there, else on rows of their own. Returns the height the label rows take (0 in the corner).
float MatricesPanel::PlaceGrids(Layout& layout, const sim::Geometry& g, float gap, float widest_value) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float k = static_cast<float>(layout.cols[0]);
  const float across = k + static_cast<float>(layout.cols[2]);
  const float down = k + static_cast<float>(layout.rows[2]);
  const float wanted_w = std::isfinite(widest_value) ? widest_value + 2.0f * ImGui::GetStyle().FramePadding.x : 0.0f;
  auto fit = [&](float label_rows) {
    const float x_fit = (avail.x - gap) / across;
    const float cell = std::min(x_fit, (avail.y - label_rows - gap) / down);
    // Whole pixels while cells are a pixel or more; below that (a heat map) the grids still fit
    // the panel, a pixel showing several cells.
    const float fitted = std::min(cell, kMaxCellInFonts * ImGui::GetFontSize());
    layout.cell = fitted >= 1.0f ? std::floor(fitted) : std::max(kMinCellPixels, fitted);
    layout.cell_w = std::max(layout.cell, std::floor(std::min({wanted_w, x_fit, kMaxCellAspect * layout.cell})));
  };
  char names[3][48];
  std::snprintf(names[0], sizeof names[0], "A (%d\u00D7%d) \u2193", g.m, g.k);
  std::snprintf(names[1], sizeof names[1], "B (%d\u00D7%d) \u2192", g.k, g.n);
  std::snprintf(names[2], sizeof names[2], "C = A\u00B7B \u2198");
  float widest = 0.0f;
  for (const char* name : names) widest = std::max(widest, ImGui::CalcTextSize(name).x);
  fit(0.0f);
  const bool in_corner = layout.cell * k >= 3.0f * line && layout.cell_w * k >= widest;
  const float label_rows = in_corner ? 0.0f : 2.0f * line;
  if (!in_corner) fit(label_rows);
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float corner_w = layout.cell_w * k;
  const float corner = layout.cell * k;
  layout.origin[1] = ImVec2(top.x + corner_w + gap, top.y + label_rows * 0.5f);
  layout.origin[0] = ImVec2(top.x, layout.origin[1].y + corner + gap + label_rows * 0.5f);
  layout.origin[2] = ImVec2(layout.origin[1].x, layout.origin[0].y);

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  if (in_corner) {
    const float right = top.x + corner_w;
    gui::DrawText(draw, ImVec2(right - ImGui::CalcTextSize(names[1]).x, top.y), text, names[1]);
    gui::DrawText(draw, ImVec2(right - ImGui::CalcTextSize(names[2]).x, top.y + corner - 2.0f * line), text, names[2]);
    gui::DrawText(draw, ImVec2(top.x, top.y + corner - line), text, names[0]);
  } else {
    gui::DrawText(draw, ImVec2(layout.origin[1].x, top.y), text, names[1]);
    gui::DrawText(draw, ImVec2(layout.origin[0].x, layout.origin[0].y - line), text, names[0]);
    gui::DrawText(draw, ImVec2(layout.origin[2].x, layout.origin[2].y - line), text, names[2]);
  }
  return label_rows;
}

// Every element of C, kept for the grids and counted for the summary; read again only when the
// lesson or the step changed.
void MatricesPanel::ReadC(const sim::Snapshot& snapshot, const std::vector<float>& reference,
                          std::uint64_t lesson_generation) {
  const CRead now{lesson_generation, snapshot.step()};
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

void MatricesPanel::DrawSummary(const sim::Snapshot& snapshot) {
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
  char progress[96];
  std::snprintf(progress, sizeof progress, "\u00B7 %d final, %d partial, %d not started", figures_.final,
                figures_.partial, figures_.not_started);
  SameLineIfFits(progress);
  gui::TextUnformatted(progress);
  SameLineIfFits("(legend)");
  gui::TextDisabled("(legend)");
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

void MatricesPanel::ReadValues(const Layout& layout, MatrixId id, const sim::Snapshot& snapshot,
                               const std::vector<float>& reference, std::vector<float>& values) {
  const sim::Geometry& g = snapshot.geometry();
  const int index = Layout::Index(id);
  values.clear();
  for (int row = 0; row < layout.real_rows[index]; ++row) {
    for (int col = 0; col < layout.real_cols[index]; ++col) {
      values.push_back(id == MatrixId::kA ? snapshot.a(row, col)
                                          : (id == MatrixId::kB ? snapshot.b(row, col) : reference[row * g.n + col]));
    }
  }
}

void MatricesPanel::DrawMatrix(const Layout& layout, MatrixId id, const sim::Snapshot& snapshot,
                               const std::vector<float>& values) {
  const int index = Layout::Index(id);
  // Numbers shrink to fit their cells (across and down) down to kMinTextScale of the font, then
  // drop to three significant digits, then give way to a heat map.
  const auto scale_for = [&](bool short_form) {
    return std::min({1.0f, TextScaleDown(layout.cell), (layout.cell_w - 2.0f * ImGui::GetStyle().FramePadding.x) /
                                                           std::max(1.0f, WidestValue(values, short_form))});
  };
  const bool short_form = scale_for(false) < kMinTextScale;
  const float text_scale = scale_for(short_form);
  if (text_scale < kMinTextScale) {
    figures_.drawn_as[index] = "heat map";
    DrawHeatMap(layout, id, values);
    return;
  }
  figures_.drawn_as[index] = short_form ? "short values" : "values";
  DrawValues(layout, id, snapshot, values, short_form, ImGui::GetFontSize() * text_scale);
}

void MatricesPanel::DrawValues(const Layout& layout, MatrixId id, const sim::Snapshot& snapshot,
                               const std::vector<float>& values, bool short_form, float text_size) {
  const sim::Geometry& g = snapshot.geometry();
  const int index = Layout::Index(id);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 frame_bg = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float small = ImGui::GetFontSize() * 0.6f;
  const float inset = layout.cell >= 4.0f ? 1.0f : 0.0f;  // A 1-pixel gutter once cells are big enough to keep it.
  for (int row = 0; row < layout.real_rows[index]; ++row) {
    for (int col = 0; col < layout.real_cols[index]; ++col) {
      const ImVec2 min = layout.CellMin(id, row, col);
      const ImVec2 max(min.x + layout.cell_w - inset, min.y + layout.cell - inset);
      const float value = values[static_cast<std::size_t>(row) * layout.real_cols[index] + col];
      if (id != MatrixId::kC) {
        draw->AddRectFilled(min, max, frame_bg);
        DrawCentred(draw, min, layout.Size(), text_size, text, CellValue(value, short_form));
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
      DrawCentred(draw, ImVec2(min.x, min.y + small * 0.3f), layout.Size(), text_size,
                  e.progress == sim::CProgress::kNotStarted ? dim : text, v);
      if (!corner.empty()) {
        gui::DrawText(draw, ImGui::GetFont(), small, ImVec2(min.x + 2.0f, min.y + 1.0f), text, corner.c_str());
      }
    }
  }
}

// One picture per matrix (plot/heat_map.h): a partial sum fills the lower half of its cell, a
// final one the whole, a wrong one is vermillion; the colour scale is the correct values'.
void MatricesPanel::DrawHeatMap(const Layout& layout, MatrixId id, const std::vector<float>& values) {
  const int index = Layout::Index(id);
  HeatMapDrawn& drawn = heat_maps_[index];
  const ImU32 empty = EmptyCellColour();
  // A's and B's pictures change only with the lesson, the panel's size or the theme; C's also
  // with the step.
  const bool same = drawn.rows == layout.real_rows[index] && drawn.cols == layout.real_cols[index] &&
                    drawn.cell_w == layout.cell_w && drawn.cell_h == layout.cell && drawn.empty == empty &&
                    drawn.read.lesson_generation == c_read_.lesson_generation &&
                    (id != MatrixId::kC || drawn.read.step == c_read_.step);
  if (!same) MakeHeatMap(layout, id, values, empty);
  if (drawn.width == 0 || drawn.height == 0) return;
  const ImVec2 min = layout.origin[index];
  ImGui::GetWindowDrawList()->AddImage(
      drawn.texture.id(), min, ImVec2(min.x + static_cast<float>(drawn.width), min.y + static_cast<float>(drawn.height)));
}

void MatricesPanel::MakeHeatMap(const Layout& layout, MatrixId id, const std::vector<float>& values, ImU32 empty) {
  const int index = Layout::Index(id);
  const Range range = RangeOf(values);
  plot::HeatMapGrid& grid = heat_map_grid_;
  grid.rows = layout.real_rows[index];
  grid.cols = layout.real_cols[index];
  grid.cell_w = layout.cell_w;
  grid.cell_h = layout.cell;
  grid.cells.resize(values.size());
  for (int row = 0; row < grid.rows; ++row) {
    for (int col = 0; col < grid.cols; ++col) {
      const std::size_t at = static_cast<std::size_t>(row) * static_cast<std::size_t>(grid.cols) + col;
      plot::HeatCell& cell = grid.cells[at];
      if (id != MatrixId::kC) {
        cell = {plot::HeatCell::State::kFull, range.Normalise(values[at])};
        continue;
      }
      const sim::CElement& e = c_[at];
      cell.level = range.Normalise(e.value);
      switch (e.progress) {
        case sim::CProgress::kNotStarted: cell.state = plot::HeatCell::State::kEmpty; break;
        case sim::CProgress::kPartial: cell.state = plot::HeatCell::State::kPartial; break;
        case sim::CProgress::kFinal:
          cell.state = sim::SameBits(e.value, values[at]) ? plot::HeatCell::State::kFull : plot::HeatCell::State::kWrong;
          break;
      }
    }
  }
  plot::RasteriseHeatMap(grid, {empty, palette::kVermillion, palette::kBlack}, heat_map_image_);
  HeatMapDrawn& drawn = heat_maps_[index];
  drawn.rows = grid.rows;
  drawn.cols = grid.cols;
  drawn.cell_w = grid.cell_w;
  drawn.cell_h = grid.cell_h;
  drawn.empty = empty;
  drawn.read = c_read_;
  drawn.width = heat_map_image_.width;
  drawn.height = heat_map_image_.height;
  if (!heat_map_image_.pixels.empty()) drawn.texture.Upload(drawn.width, drawn.height, heat_map_image_.pixels);
}

// The current block's tiles: its rows of A and columns of B in this phase's slice of K, and
// its tile of C. Past the matrices' edges the tile's cells show the zero padding.
void MatricesPanel::DrawOutlines(const Layout& layout, const sim::Snapshot& snapshot) {
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
          DrawCentred(draw, min, layout.Size(), zero_size, ImGui::GetColorU32(ImGuiCol_TextDisabled), "0");
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
void MatricesPanel::DrawTourCells(const Layout& layout) {
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

void MatricesPanel::HandlePick(const FrameContext& frame, const Layout& layout) {
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

void MatricesPanel::DrawStepMarks(const Layout& layout, const sim::Snapshot& snapshot) {
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

// The tooltip's first line, which names the cell and its value; kept for --dump-state.
template <typename... Args>
void MatricesPanel::HoverLine(const char* format, Args... args) {
  char line[256];
  std::snprintf(line, sizeof line, format, args...);
  gui::TextUnformatted(line);
  figures_.hovered = line;
}

void MatricesPanel::HandleHover(const Layout& layout, const sim::Snapshot& snapshot,
                                const std::vector<float>& reference) {
  figures_.hovered.clear();
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
    } else {
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
        gui::Text("  step %lld: %s, phase %d", static_cast<long long>(r.step),
                  ThreadName(snapshot, r.block, r.thread).c_str(), r.phase + 1);
      }
      if (static_cast<int>(readers.readers.size()) > listed) {
        gui::Text("  \u2026 and %d more", static_cast<int>(readers.readers.size()) - listed);
      }
      gui::TextDisabled("Click to change this value (the lesson re-runs to this step).");
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) editor_ = {true, id, row, col, value};
    }
    ImGui::EndTooltip();
    return;
  }
}

void MatricesPanel::DrawEditor(const FrameContext& frame) {
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

void MatricesPanel::DumpState(nlohmann::json& state) const {
  nlohmann::json& out = state["matrices"];
  out["cell_pixels"] = figures_.cell;  // a cell's height
  out["cell_width"] = figures_.cell_w;
  out["origins"] = {{"a", {figures_.origin[0].x, figures_.origin[0].y}},
                    {"b", {figures_.origin[1].x, figures_.origin[1].y}},
                    {"c", {figures_.origin[2].x, figures_.origin[2].y}}};
  out["drawn_as"] = {{"a", figures_.drawn_as[0]}, {"b", figures_.drawn_as[1]}, {"c", figures_.drawn_as[2]}};
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
