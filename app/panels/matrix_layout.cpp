#include "app/panels/matrix_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/text_item.h"

namespace gui {
namespace {

using sim::MatrixId;

constexpr float kMaxCellInFonts = 4.0f;    // Cells stop growing at 4 font heights.
constexpr float kMinCellPixels = 0.125f;   // A heat map's cells shrink below a pixel, to 8 a pixel.

}  // namespace

void MatrixLayout::DrawName(int matrix, ImVec2 at, const char* name) {
  gui::DrawText(ImGui::GetWindowDrawList(), at, ImGui::GetColorU32(ImGuiCol_Text), name);
  const ImVec2 size = ImGui::CalcTextSize(name);
  name_min[matrix] = at;
  name_max[matrix] = ImVec2(at.x + size.x, at.y + size.y);
}

MatrixLayout::MatrixLayout(const sim::Geometry& g) {
  const int padded_m = g.naive ? g.m : g.grid_y * g.tm;
  const int padded_n = g.naive ? g.n : g.grid_x * g.tn;
  const int padded_k = g.naive ? g.k : g.phases * g.tk;
  const int dims[3][4] = {
      {padded_m, padded_k, g.m, g.k}, {padded_k, padded_n, g.k, g.n}, {padded_m, padded_n, g.m, g.n}};
  for (int i = 0; i < 3; ++i) {
    // An unguarded kernel that rounds its phases down covers less of K than A and B hold: the
    // grid still spans every element, or C would be drawn over B's last rows and A's last columns.
    rows[i] = std::max(dims[i][0], dims[i][2]);
    cols[i] = std::max(dims[i][1], dims[i][3]);
    real_rows[i] = dims[i][2];
    real_cols[i] = dims[i][3];
  }
}

bool MatrixLayout::Hit(ImVec2 p, MatrixId id, int& row, int& col) const {
  const ImVec2 o = origin[Index(id)];
  if (p.x < o.x || p.y < o.y) return false;
  const int i = Index(id);
  row = static_cast<int>((p.y - o.y) / cell);
  const float inside = col_w[i] * static_cast<float>(real_cols[i]);
  col = p.x - o.x < inside ? static_cast<int>((p.x - o.x) / col_w[i])
                           : real_cols[i] + static_cast<int>((p.x - o.x - inside) / PaddingWidth(i));
  return row < rows[i] && col < cols[i];
}

float MatrixLayout::Across() const { return Width(0) + Width(2) + (in_a_row ? Width(1) : 0.0f); }

void MatrixLayout::Fit(ImVec2 room, float down, float label_rows, const float widest[3]) {
  const float font = ImGui::GetFontSize();
  const float cells_across = static_cast<float>(cols[0] + cols[2] + (in_a_row ? cols[1] : 0));
  if (FitNumbers(room, down, label_rows, widest, cells_across)) return;
  // Square cells: a heat map, or numbers too small to read (DrawMatrix decides which).
  const float height = std::min({(room.y - label_rows) / down, room.x / cells_across, kMaxCellInFonts * font});
  // Whole pixels while cells are a pixel or more; below that (a heat map) the grids still fit
  // the panel, a pixel showing several cells.
  cell = height >= 1.0f ? std::floor(height) : std::max(kMinCellPixels, height);
  for (float& w : col_w) w = cell;
}

// One text scale for all three matrices' numbers, the largest the room allows up to
// kMaxTextScale: cells as tall as a line of it, each matrix's columns as wide as its widest
// number (a 4×4 A of two digits beside a C of three), then widened towards square with what is
// left across. False when the numbers would be smaller than kMinTextScale.
bool MatrixLayout::FitNumbers(ImVec2 room, float down, float label_rows, const float widest[3], float cells_across) {
  if (!std::isfinite(widest[0]) || !std::isfinite(widest[1]) || !std::isfinite(widest[2])) return false;
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const float font = ImGui::GetFontSize();
  const float bc = std::max(widest[1], widest[2]);
  // Across: the real columns' numbers and padding, and the padding's square columns, each as
  // wide as a cell is tall (a line of text and the frame's padding).
  float text_across = 0.0f;
  float padding_columns = 0.0f;
  for (int i = 0; i < 3; ++i) {
    if (!in_a_row && i == 1) continue;  // B's columns are C's
    text_across += (in_a_row || i == 0 ? widest[i] : bc) * static_cast<float>(real_cols[i]);
    padding_columns += static_cast<float>(cols[i] - real_cols[i]);
  }
  const float real_across = cells_across - padding_columns;
  const float scale = std::min({kMaxTextScale, (room.y - label_rows - down * 2.0f * pad.y) / (down * font),
                                (room.x - real_across * ColumnPadding() - padding_columns * 2.0f * pad.y) /
                                    std::max(1.0f, text_across + padding_columns * font)});
  if (scale < kMinTextScale) return false;
  cell = std::floor(std::min(scale * font + 2.0f * pad.y, kMaxCellInFonts * font));
  for (int i = 0; i < 3; ++i) col_w[i] = scale * (in_a_row || i == 0 ? widest[i] : bc) + ColumnPadding();
  const float left = room.x - Across();
  float narrow = 0.0f;  // what squaring every column narrower than tall would take
  for (int i = 0; i < 3; ++i) {
    if (!in_a_row && i == 1) continue;  // B's columns are C's
    narrow += std::max(0.0f, cell - col_w[i]) * static_cast<float>(cols[i]);
  }
  const float share = narrow > 0.0f ? std::min(1.0f, std::max(0.0f, left) / narrow) : 0.0f;
  for (float& w : col_w) w = std::floor(w + std::max(0.0f, cell - w) * share);
  return true;
}

void MatrixLayout::Place(const sim::Geometry& g, float gap, const float widest_value[3]) {
  char a_name[48];
  char b_name[48];
  std::snprintf(a_name, sizeof a_name, "A (%d\u00D7%d)", g.m, g.k);
  std::snprintf(b_name, sizeof b_name, "B (%d\u00D7%d)", g.k, g.n);
  const char* const names[3] = {a_name, b_name, "C = A\u00B7B"};
  float widest_name = 0.0f;
  for (const char* name : names) widest_name = std::max(widest_name, ImGui::CalcTextSize(name).x);
  widest_name += ImGui::CalcTextSize(" \u2198").x;  // the arrow the meeting arrangement adds
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float* wanted_w = widest_value;
  // In a row: A, B and C across with two gaps, the tallest down, one row of names above.
  const float row_down = static_cast<float>(std::max({rows[0], rows[1], rows[2]}));
  const ImVec2 row_room(avail.x - 2.0f * gap, avail.y);
  in_a_row = true;
  Fit(row_room, row_down, line, wanted_w);
  const float row_cell = cell;
  in_a_row = false;
  const float label_rows = FitMeeting(gap, widest_name, wanted_w);
  in_a_row = row_cell > cell;
  if (in_a_row) {
    Fit(row_room, row_down, line, wanted_w);
    PlaceInARow(names, gap);
  } else {
    PlaceMeeting(names, gap, label_rows);
  }
}

// B over C, A left of C: the three names go in the empty corner above A when they fit there,
// giving the grids the rows, else on two rows of their own. Returns the rows the names take.
float MatrixLayout::FitMeeting(float gap, float widest_name, const float wanted_w[3]) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 room(avail.x - gap, avail.y - gap);
  const float k = static_cast<float>(cols[0]);
  const float down = k + static_cast<float>(rows[2]);
  Fit(room, down, 0.0f, wanted_w);
  if (cell * k >= 3.0f * line && Width(0) >= widest_name) return 0.0f;
  Fit(room, down, 2.0f * line, wanted_w);
  return 2.0f * line;
}

void MatrixLayout::PlaceInARow(const char* const names[3], float gap) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  float x = top.x;
  float name_end = top.x;  // where the last name drawn ends: a long name pushes the next one on
  float bottom = 0.0f;
  for (int i = 0; i < 3; ++i) {
    origin[i] = ImVec2(x, top.y + line);
    const float name_x = std::max(x, name_end);
    DrawName(i, ImVec2(name_x, top.y), names[i]);
    name_end = name_x + ImGui::CalcTextSize(names[i]).x + ImGui::GetStyle().ItemSpacing.x;
    x += Width(i) + gap;
    bottom = std::max(bottom, cell * static_cast<float>(rows[i]));
  }
  extent = ImVec2(std::max(x - gap, name_end) - top.x, line + bottom);
}

void MatrixLayout::PlaceMeeting(const char* const names[3], float gap, float label_rows) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const bool in_corner = label_rows == 0.0f;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float corner_w = Width(0);
  const float corner = cell * static_cast<float>(rows[1]);
  origin[1] = ImVec2(top.x + corner_w + gap, top.y + label_rows * 0.5f);
  origin[0] = ImVec2(top.x, origin[1].y + corner + gap + label_rows * 0.5f);
  origin[2] = ImVec2(origin[1].x, origin[0].y);
  char a_name[64];
  char b_name[64];
  std::snprintf(a_name, sizeof a_name, "%s \u2193", names[0]);
  std::snprintf(b_name, sizeof b_name, "%s \u2192", names[1]);
  char c_name[64];
  std::snprintf(c_name, sizeof c_name, "%s \u2198", names[2]);
  if (in_corner) {
    const float right = top.x + corner_w;
    DrawName(1, ImVec2(right - ImGui::CalcTextSize(b_name).x, top.y), b_name);
    DrawName(2, ImVec2(right - ImGui::CalcTextSize(c_name).x, top.y + corner - 2.0f * line), c_name);
    DrawName(0, ImVec2(top.x, top.y + corner - line), a_name);
  } else {
    DrawName(1, ImVec2(origin[1].x, top.y), b_name);
    DrawName(0, ImVec2(origin[0].x, origin[0].y - line), a_name);
    // A's name, wider than a narrow A (1024×32), would run into C's on the same row.
    const float after_a = origin[0].x + ImGui::CalcTextSize(a_name).x + ImGui::GetStyle().ItemSpacing.x;
    DrawName(2, ImVec2(std::max(origin[2].x, after_a), origin[2].y - line), c_name);
  }
  extent = ImVec2(corner_w + gap + Width(2),
                  label_rows + gap + corner + cell * static_cast<float>(rows[0]));
}

}  // namespace gui
