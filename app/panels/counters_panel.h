// counters_panel.h — what the model counted so far and over the whole run, beside the
// closed form as a cross-check; the naive kernel's reads counted on the model too, and the
// minimum possible: the global reads tiling saves (also per element of C: 2K naive, about
// 2K/T tiled), shared traffic, barrier arrivals and stalls, sectors and bank conflicts; and
// per phase, bars of the reads of A and B.
#pragma once
#include <nlohmann/json.hpp>

#include "app/panels/whole_run_view.h"
#include "sim/lesson/comparison.h"
#include "sim/model/simulation.h"

namespace gui {

struct CountersPanel {
  // `comparison`: the comparison kernel counted on the model, nothing while it is counted.
  // `presentation`: the figures a room reads, without the per-phase table.
  // `whole_run`: whether the whole run (and with it the comparison) is being counted or was stopped.
  void Draw(const sim::Simulation& simulation, const WholeRunView& whole_run,
            const std::optional<sim::ComparisonCount>& comparison, bool presentation);
  // The figures as shown, for --dump-state.
  static nlohmann::json Figures(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& comparison);

 private:
  void DrawHeadline(const sim::Simulation& simulation, const WholeRunView& whole_run,
                    const std::optional<sim::ComparisonCount>& comparison);
  void DrawTotals(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& comparison);
  void DrawKeyFigures(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& comparison);
  void DrawPerElement(const sim::Simulation& simulation);
  void DrawPhases(const sim::Simulation& simulation);
};

}  // namespace gui
