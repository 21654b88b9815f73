// counters_panel.h — what the model counted so far beside the closed form for the whole
// run and the naive kernel's figure: the global reads tiling saves, shared traffic,
// barrier arrivals and stalls, sectors and bank conflicts.
#pragma once
#include <nlohmann/json.hpp>

#include "app/gui/workspace.h"
#include "sim/simulation.h"

namespace gui {

struct CountersPanel {
  bool open = true;
  void Draw(const FrameContext& frame, const sim::Simulation& simulation);
  // The figures as shown, for --dump-state.
  static nlohmann::json Figures(const sim::Simulation& simulation);
};

}  // namespace gui
