// shared_tiles_panel.h — As and Bs of the selected thread's block: each cell's value, the
// thread that wrote it, and whether it holds this phase's data, the previous phase's
// (stale) or nothing yet ("?": never written, the model's poison). The selected thread's
// row of As and column of Bs — what its inner product reads — are framed, and the pair it
// reads next framed thicker.
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/frame_context.h"
#include "app/panels/thread_selection.h"
#include "sim/model/snapshot.h"
#include "sim/lesson/tour.h"

namespace gui {

// How much of a value the tiles' cells show: "0.728015 ✓", "0.728 ✓" (three significant
// digits), "0.728015" or "0.728", the most that fits every cell of both tiles, so As and Bs
// read alike; the mark goes last, as fresh and stale are what the panel teaches. The exact
// value is on hover.
enum class CellDetail { kFullMarked, kShortMarked, kFull, kShort, kNone };

struct SharedTilesPanel {
  // The cells of As and Bs a tour's stop points at: framed thick in reddish purple. Set by
  // the lesson page, empty off a tour.
  std::vector<sim::CellRef> tour_cells;
  // While a tour's question asks for cells of As or Bs: a click on one of that tile adds it to
  // (or takes it from) the answer, through the guide-pick-cell action.
  std::optional<sim::CellSpace> pick_space;
  // In presentation mode the tiles fit the panel's height too: a room cannot scroll.
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, ThreadRef selected);
  void DumpState(nlohmann::json& state) const;

 private:
  void DrawTile(const FrameContext& frame, const char* name, const sim::Snapshot& snapshot, ThreadRef selected,
                sim::TileId id, float cell_width, float cell_height, CellDetail detail);

  int block_ = 0;
  std::vector<std::string> tour_framed_;  // last frame's framed cells, for --dump-state
  // Where each cell was drawn last frame (its centre, in window pixels): a GUI test clicks
  // there as a student would.
  std::map<std::string, std::array<float, 2>> cell_centres_;
  int fresh_ = 0, stale_ = 0, never_written_ = 0, ahead_ = 0;  // cells of both tiles, last frame
  CellDetail detail_ = CellDetail::kFullMarked;  // how the cells were drawn last frame
};

}  // namespace gui
