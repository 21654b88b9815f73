// matrices_panel.h — A, B and C laid out as the product reads them: B above C, A to the left
// of C, so a row of A and a column of B meet at the element of C they make.
//
// The current block's tiles are outlined, the elements read or stored this step marked, and
// C's cells show their state — not started, partial sum after phase p, final, wrong — by
// colour and by glyph (or, in heat maps, by shape). Hover a cell for its value and who read
// it; click an element of A or B to change its value (the `edit-cell` action re-runs the
// lesson to the same step). Matrices too large for numbers are drawn as heat maps.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "app/panels/matrix_cell_hover.h"
#include "app/panels/matrix_heat_maps.h"
#include "app/panels/matrix_layout.h"
#include "sim/lesson/lesson_config.h"
#include "sim/model/snapshot.h"
#include "sim/lesson/tour.h"

namespace gui {

struct MatricesPanel {
  // The cells a tour's stop points at (those of A, B and C), framed thick in reddish purple
  // and named under the summary; set by the lesson page, empty off a tour.
  std::vector<sim::CellRef> tour_cells;
  // While a tour's question asks for cells of A, B or C: a click on one of that matrix adds it
  // to (or takes it from) the answer, through the guide-pick-cell action, instead of editing it.
  std::optional<sim::CellSpace> pick_space;

  // `reference` is the correct product of the lesson's A and B (Simulation::reference());
  // `lesson_generation` changes whenever the lesson does: while it and the step stay, C is the
  // same and is not read again (a 512² C is 262,144 elements a frame).
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, const std::vector<float>& reference,
            std::uint64_t lesson_generation);
  void DumpState(nlohmann::json& state) const;
  // The characters across A's grid beside C's (the product's own arrangement), each column as
  // wide as its matrix's widest number, B's columns being C's: what the panel's width should
  // follow for its numbers to read. 0 for matrices drawn as heat maps.
  static int CharactersAcross(const sim::Snapshot& snapshot, const std::vector<float>& reference);

  // How a matrix was drawn and what C held, as of the last frame (for --dump-state).
  struct Figures {
    float cell = 0.0f;                 // cell height in pixels
    float col_w[3] = {0.0f, 0.0f, 0.0f};  // A's, B's, C's column widths (wider than tall where numbers need it)
    ImVec2 origin[3];                  // top-left of A, B, C's grids (a test clicks a cell)
    ImVec2 grid_max[3];                // and their bottom-right
    ImVec2 name_min[3], name_max[3];   // where their names were drawn
    const char* drawn_as[3] = {"values", "values", "values"};  // A, B, C: values, short values or heat map
    int not_started = 0, partial = 0, final = 0, wrong = 0;
    std::vector<std::string> marked;   // elements read or stored this step: "A[0][1]"
    int block = 0, phase = 0;          // whose tiles are outlined
    std::vector<std::string> tour_framed;  // the tour's cells drawn framed: "C[0][0]"
    float digit_pixels[3] = {0.0f, 0.0f, 0.0f};  // how tall a digit of A, B, C stands (0: a heat map)
    bool in_a_row = false;  // A · B = C side by side (a short panel), or B above C and A left of it
    std::string hovered;  // the hover's first line ("A[3][7] = 1544"), "" when no cell is hovered
  };

 private:
  // A's and B's elements, and C's correct ones (what a heat map's scale and the cells' width go by).
  static void ReadValues(const MatrixLayout& layout, sim::MatrixId id, const sim::Snapshot& snapshot,
                         const std::vector<float>& reference, std::vector<float>& values);
  void DrawSummary(const sim::Snapshot& snapshot, bool presentation);
  static void DrawLegendTooltip();
  void ReadC(const sim::Snapshot& snapshot, const std::vector<float>& reference, std::uint64_t lesson_generation);
  // `values`: ReadValues', which sized the cells.
  void DrawMatrix(const MatrixLayout& layout, sim::MatrixId id, const sim::Snapshot& snapshot,
                  const std::vector<float>& values);
  void DrawValues(const MatrixLayout& layout, sim::MatrixId id, const sim::Snapshot& snapshot,
                  const std::vector<float>& values, bool short_form, float text_size);
  void DrawOutlines(const MatrixLayout& layout, const sim::Snapshot& snapshot);
  void DrawStepMarks(const MatrixLayout& layout, const sim::Snapshot& snapshot);
  void DrawTourCells(const MatrixLayout& layout);
  void DrawTourNote();
  Figures figures_;
  MatrixCellHover hover_;
  // Which lesson's step C was read at: C, as ReadC read it then, row by row.
  MatrixRead c_read_;
  std::vector<sim::CElement> c_;
  std::vector<float> values_[3];  // ReadValues' for A, B, C: read once per lesson
  std::uint64_t values_generation_ = 0;
  MatrixHeatMaps heat_maps_;
};

}  // namespace gui
