#include "app/pages/tensor_core_page.h"

#include "sim/io/number_text.h"

namespace gui {

TensorCorePage::TensorCorePage()
    : view_{{sim::MapFragment(sim::MmaOperand::kA), sim::MapFragment(sim::MmaOperand::kB),
             sim::MapFragment(sim::MmaOperand::kC)},
            0},
      panels_({{"MMA fragments", &kWholeArea, [this](const FrameContext&) { panel_.Draw(view_); }}}) {}

void TensorCorePage::RegisterActions(ActionRegistry& registry) {
  registry.Add({"tensor-lane", "Pick a lane",
                "Outline the elements of A, B and C that one lane (0-31) of the warp holds in the MMA fragments panel.",
                {},
                [this](const std::string& text) { return PickLane(text); }});
}

std::optional<std::string> TensorCorePage::PickLane(const std::string& text) {
  std::string problem;
  const std::optional<long long> lane = sim::ReadWhole(text, 0, sim::kWarpLanes - 1, problem);
  if (!lane) return "tensor-lane: " + problem;
  view_.picked_lane = static_cast<int>(*lane);
  return std::nullopt;
}

void TensorCorePage::Draw(const FrameContext& frame) { panels_.Draw(frame); }

void TensorCorePage::DumpState(nlohmann::json& state) const { state["tensor"] = MmaFragmentPanel::Describe(view_); }

}  // namespace gui
