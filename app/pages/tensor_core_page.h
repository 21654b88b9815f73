// tensor_core_page.h — the tensor-core lesson: which lane of a warp holds which element of
// A, B and C for one mma.sync m16n8k8 with TF32 inputs, from the model's layout
// (sim/model/mma_fragment.h), which the GPU tests check on the device. Its action:
// tensor-lane N picks the lane whose elements stand out.
#pragma once
#include "app/gui/page.h"
#include "app/panels/mma_fragment_panel.h"

namespace gui {

class TensorCorePage : public Page {
 public:
  TensorCorePage();
  void RegisterActions(ActionRegistry& registry) override;
  void Draw(const FrameContext& frame) override;
  PanelTable& Panels() override { return panels_; }
  const PanelTable& Panels() const override { return panels_; }
  void DumpState(nlohmann::json& state) const override;

 private:
  std::optional<std::string> PickLane(const std::string& text);

  MmaFragmentView view_;
  MmaFragmentPanel panel_;
  PanelTable panels_;  // after the panel: its row draws it
};

}  // namespace gui
