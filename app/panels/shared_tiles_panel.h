// shared_tiles_panel.h — As and Bs of the selected thread's block: each cell's value, the
// thread that wrote it, and whether it holds this phase's data, the previous phase's
// (stale) or nothing yet ("?": never written, the model's poison). The selected thread's
// row of As and column of Bs — what its inner product reads — are framed, and the pair it
// reads next framed thicker.
#pragma once
#include <nlohmann/json.hpp>

#include "app/gui/workspace.h"
#include "app/panels/panel_layout.h"
#include "app/panels/thread_selection.h"
#include "sim/snapshot.h"

namespace gui {

struct SharedTilesPanel {
  bool open = true;
  DrawnRect drawn;
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot, ThreadRef selected);
  void DumpState(nlohmann::json& state) const;

 private:
  void DrawTile(const char* name, const sim::Snapshot& snapshot, ThreadRef selected, sim::TileId id, float cell_width);

  int block_ = 0;
  int fresh_ = 0, stale_ = 0, never_written_ = 0;  // cells of both tiles, last frame
};

}  // namespace gui
