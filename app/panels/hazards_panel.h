// hazards_panel.h — every shared-memory hazard the model has detected up to this step, as
// it happens: kind with a plain explanation, severity as racecheck grades it (warning
// within one warp, error across warps; glyph and colour), the cell, both threads, both
// source lines, the phase, and what the reader saw against what it should have seen.
// A click queues "jump-to" to the step that found it. A banner says when the block
// is one warp: lockstep hides the race on today's GPUs and under the realistic scheduler
// without making it safe, and the other schedulers run the lanes apart, so there it bites.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "app/gui/frame_context.h"
#include "sim/model/snapshot.h"

namespace gui {

struct HazardsPanel {
  void Draw(const FrameContext& frame, const sim::Snapshot& snapshot);
  // The banner, the tallies and the first `limit` hazards as listed, for --dump-state.
  static nlohmann::json Describe(const sim::Snapshot& snapshot, std::size_t limit = kDescribedHazards);
  static constexpr std::size_t kDescribedHazards = 256;
  // The one-warp banner's text, or "" when the lesson does not need it.
  static std::string OneWarpBanner(const sim::Snapshot& snapshot);

 private:
  void DrawSummary(const sim::Snapshot& snapshot, bool presentation);
  void DrawTable(const FrameContext& frame, const sim::Snapshot& snapshot);
  void DrawOutOfBounds(const sim::Snapshot& snapshot);

  std::size_t shown_count_ = 0;  // hazards listed last frame: new ones scroll into view
};

}  // namespace gui
