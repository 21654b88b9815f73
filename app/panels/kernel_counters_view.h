// kernel_counters_view.h — the Counters panel while a student's kernel is the lesson: what the
// model counted of it so far and over the whole run, beside the textbook tiled kernel (02_tiled.cu)
// run on the model at the same sizes and inputs (sim::TextbookKernelFor): its global reads,
// and how many times more (or fewer) theirs makes. No closed form: it is their code.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>

#include "sim/lesson/comparison.h"
#include "sim/model/simulation.h"

namespace gui {

struct KernelCountersView {
  void Draw(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& textbook);
  static nlohmann::json Figures(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& textbook);

 private:
  static void DrawComparison(const sim::Simulation& simulation, const std::optional<sim::ComparisonCount>& textbook);
};

}  // namespace gui
