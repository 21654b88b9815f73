// milestones_view.h — the Guide while a student's kernel is on show: the tiled-kernel
// exercise's milestones for their file as last saved (sim::EvaluateTiledMilestones, what
// `tilescope exercise tiled --check` prints), each reached or not with what the check saw.
#pragma once
#include <optional>
#include <vector>

#include "sim/lesson/exercise.h"

namespace gui {

struct MilestonesView {
  // `milestones`: null while the saved file is being checked.
  static void Draw(const std::optional<std::vector<sim::MilestoneState>>& milestones);

 private:
  static void DrawMilestone(const sim::MilestoneState& milestone);
};

}  // namespace gui
