// counters_panel.h — what the model counted so far beside the closed form for the whole
// run, the naive kernel's figure and the minimum possible: the global reads tiling saves
// (also per element of C: 2K naive, about 2K/T tiled), shared traffic, barrier arrivals
// and stalls, sectors and bank conflicts; and per phase, bars of the reads of A and B.
#pragma once
#include <nlohmann/json.hpp>

#include "app/gui/workspace.h"
#include "app/panels/panel_layout.h"
#include "sim/simulation.h"

namespace gui {

struct CountersPanel {
  bool open = true;
  DrawnRect drawn;
  void Draw(const FrameContext& frame, const sim::Simulation& simulation);
  // The figures as shown, for --dump-state.
  static nlohmann::json Figures(const sim::Simulation& simulation);
  // Where the panel was drawn (the figures are in Figures()).
  void DumpState(nlohmann::json& state) const { state["counters"] = drawn.ToJson(); }

 private:
  void DrawTotals(const sim::Simulation& simulation);
  void DrawPerElement(const sim::Simulation& simulation);
  void DrawPhases(const sim::Simulation& simulation);
};

}  // namespace gui
