// shared_tiles_panel.h — As and Bs of the block that ran last: each cell's value, the
// thread that wrote it, and whether it holds this phase's data, the previous phase's
// (stale) or nothing yet ("?": never written, the model's poison).
#pragma once
#include "app/gui/workspace.h"
#include "sim/snapshot.h"

namespace gui {

struct SharedTilesPanel {
  bool open = true;
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot);

 private:
  void DrawTile(const char* name, const sim::Snapshot& snapshot, int block, sim::TileId id);
};

}  // namespace gui
