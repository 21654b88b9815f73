// controls_panel.h — step, step back, run to the barrier or the phase end, play, reset;
// where the run stands ("step N of M", phase) and which barriers are on.
#pragma once
#include "app/gui/workspace.h"
#include "sim/simulation.h"

namespace gui {

struct ControlsPanel {
  bool open = true;
  void Draw(const FrameContext& frame, const sim::Simulation& simulation, bool playing);

 private:
  void DrawButtons(const FrameContext& frame, bool playing);
  void DrawPosition(const sim::Simulation& simulation);
};

}  // namespace gui
