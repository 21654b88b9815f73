// matrix_layout.h — where the Matrices panel's grids of A, B and C lie, and their names.
//
// Two arrangements, whichever gives the larger cells in the room the panel has:
//   - the product's own: B above C, A left of C, so a row of A and a column of B meet at the
//     element of C they make (a wide or tall panel);
//   - in a row, A · B = C (a short, wide panel: a tour's stop in presentation).
// Each grid spans its padded size (whole tiles, so the zero padding of the tail tiles has cells
// to show in) or its real size where a kernel run past its edges reads less than the matrix
// holds: no grid ever lies over another, and no name over another.
#pragma once
#include <imgui.h>

#include <algorithm>

#include "sim/model/snapshot.h"

namespace gui {

// The numbers' size as a share of the font: smaller is unreadable from a classroom's back row;
// larger, in cells with the room, reads from the back of a room (a 4×4 lesson's digits).
inline constexpr float kMinTextScale = 0.6f;
inline constexpr float kMaxTextScale = 1.5f;

// What a number's column keeps beside it, both sides together: half a frame's padding a side.
inline float ColumnPadding() { return ImGui::GetStyle().FramePadding.x; }

struct MatrixLayout {
  float cell = 0.0f;    // a cell's height
  // A's, B's and C's column widths: wider than tall where their numbers need it (C of 6×5×7:
  // 4 digits). B's and C's are one where B stands over C.
  float col_w[3] = {0.0f, 0.0f, 0.0f};
  int rows[3] = {0, 0, 0};  // drawn rows of A, B, C
  int cols[3] = {0, 0, 0};
  int real_rows[3] = {0, 0, 0};
  int real_cols[3] = {0, 0, 0};
  ImVec2 origin[3];
  bool in_a_row = false;  // A · B = C side by side, rather than B above C and A left of it
  ImVec2 extent{0.0f, 0.0f};  // what the grids and their names take, from where they start
  ImVec2 name_min[3], name_max[3];  // where A's, B's and C's names were drawn

  // The drawn and the real sizes of A, B and C for `g`.
  explicit MatrixLayout(const sim::Geometry& g);

  // Sizes the cells to the room left in the panel, places the grids and draws their names.
  // Cells are square unless a matrix's widest number (`widest_value`, pixels at full size;
  // infinite for a heat map) needs wider columns and the panel has the width.
  void Place(const sim::Geometry& g, float gap, const float widest_value[3]);

  static int Index(sim::MatrixId id) { return static_cast<int>(id); }
  // Columns past the matrix's edge (the zero padding) hold no numbers: they stay square while
  // the real ones widen for theirs.
  float PaddingWidth(int matrix) const { return std::min(cell, col_w[matrix]); }
  // Where column `col` of a matrix starts, from its grid's left.
  float ColumnX(int matrix, int col) const {
    const int real = std::min(col, real_cols[matrix]);
    return static_cast<float>(real) * col_w[matrix] + static_cast<float>(col - real) * PaddingWidth(matrix);
  }
  ImVec2 CellMin(sim::MatrixId id, int row, int col) const {
    const ImVec2 o = origin[Index(id)];
    return ImVec2(o.x + ColumnX(Index(id), col), o.y + static_cast<float>(row) * cell);
  }
  ImVec2 CellMax(sim::MatrixId id, int row, int col) const {
    const ImVec2 o = origin[Index(id)];
    return ImVec2(o.x + ColumnX(Index(id), col + 1), o.y + static_cast<float>(row + 1) * cell);
  }
  // A cell inside the matrix.
  ImVec2 Size(sim::MatrixId id) const { return ImVec2(col_w[Index(id)], cell); }
  // The corner past a grid's last cell.
  ImVec2 GridMax(sim::MatrixId id) const {
    const int i = Index(id);
    return ImVec2(origin[i].x + Width(i), origin[i].y + cell * static_cast<float>(rows[i]));
  }
  float Width(int matrix) const { return ColumnX(matrix, cols[matrix]); }
  bool Inside(sim::MatrixId id, int row, int col) const {
    return row < real_rows[Index(id)] && col < real_cols[Index(id)];
  }
  bool Hit(ImVec2 p, sim::MatrixId id, int& row, int& col) const;

 private:
  // The largest cells for which the grids, `down` cells tall, fit `room` after `label_rows` of
  // names; `widest`: each matrix's widest number at full size (infinite: too many to print).
  void Fit(ImVec2 room, float down, float label_rows, const float widest[3]);
  bool FitNumbers(ImVec2 room, float down, float label_rows, const float widest[3], float cells_across);
  // The grids' width at the current cell height and column widths.
  float Across() const;
  float FitMeeting(float gap, float widest_name, const float wanted_w[3]);
  void PlaceMeeting(const char* const names[3], float gap, float label_rows);
  void DrawName(int matrix, ImVec2 at, const char* name);
  void PlaceInARow(const char* const names[3], float gap);
};

}  // namespace gui
