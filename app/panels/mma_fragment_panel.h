// mma_fragment_panel.h — the fragments of one tensor-core instruction (mma.sync m16n8k8, TF32,
// rung 13's): A (16×8), B (8×8) and C (16×8) side by side, each element coloured by the
// quad of lanes (lane / 4) that holds it and labelled with its lane. One lane is picked (by
// the page's action or by hovering an element): its elements are outlined in all three
// matrices and named by register (a0…a3, b0, b1, c0…c3). It draws the model's layout
// (sim/model/mma_fragment.h) and changes nothing but which lane the pointer picks.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/model/mma_fragment.h"

namespace gui {

// What the panel shows, filled by the page.
struct MmaFragmentView {
  std::vector<sim::FragmentMap> operands;  // A, B, C
  int picked_lane = 0;                     // the page's choice; hovering overrides it while it lasts
};

struct MmaFragmentPanel {
  void Draw(const MmaFragmentView& view);
  static nlohmann::json Describe(const MmaFragmentView& view);

 private:
  // Draws one operand from its top-left corner; sets hovered_lane_ under the pointer.
  void DrawOperand(const sim::FragmentMap& map, int lane, float cell);
  void DrawPickedLane(const MmaFragmentView& view, int lane);
  int hovered_lane_ = -1;
};

}  // namespace gui
