// sweep_details.h — what the live panel shows under its plot in the normal view: the table of
// every launch (median time, GFLOPS, % of cuBLAS and of peak, blocks per SM, whether C was
// right) and the model link (the model's global reads of A and B beside the measured time, as
// a load asked of the memory system). Side by side where the panel is wide enough, else as
// two tabs, so neither is squeezed.
#pragma once
#include "app/gui/frame_context.h"
#include "app/panels/live_sweep_view.h"

namespace panels {

void DrawSweepDetails(const gui::FrameContext& frame, const LiveSweepView& sweep);

}  // namespace panels
