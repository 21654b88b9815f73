// matrix_cell_hover.h — what the Matrices panel does with the pointer over a cell: a tooltip
// with the cell's value and who read or wrote it, a click on an element of A or B opens an
// editor for its value (the `edit-cell` action re-runs the lesson to the same step), and while
// a tour's question asks for cells, a click picks one (the `guide-pick-cell` action).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "app/panels/matrix_layout.h"
#include "sim/lesson/tour.h"
#include "sim/model/snapshot.h"

namespace gui {

class MatrixCellHover {
 public:
  // `reference` is the correct product of the lesson's A and B.
  void Hover(const MatrixLayout& layout, const sim::Snapshot& snapshot, const std::vector<float>& reference);
  void Pick(const FrameContext& frame, const MatrixLayout& layout, const std::optional<sim::CellSpace>& pick_space);
  void DrawEditor(const FrameContext& frame);
  // The hover's first line ("A[3][7] = 1544"), "" when no cell is hovered.
  const std::string& hovered() const { return hovered_; }

 private:
  template <typename... Args>
  void HoverLine(const char* format, Args... args);
  void HoverC(const sim::Snapshot& snapshot, const std::vector<float>& reference, int row, int col);
  void HoverInput(const sim::Snapshot& snapshot, sim::MatrixId id, int row, int col);

  struct Editor {
    bool open_requested = false;
    sim::MatrixId matrix = sim::MatrixId::kA;
    int row = 0, col = 0;
    float value = 0.0f;
  };
  Editor editor_;
  std::string hovered_;
};

}  // namespace gui
