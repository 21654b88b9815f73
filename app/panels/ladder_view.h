// ladder_view.h — the live panel's ladder at one size: each kernel's idea, its TFLOPS as a bar
// towards cuBLAS, how much of cuBLAS that is, the FLOP per byte it requests and its blocks per
// SM; under it, the source of the rung a click (or ↑/↓) opened, the lines new since the rung
// before marked '+'.
#pragma once
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/ladder.h"

namespace panels {

struct LadderView {
  std::string rung_source;  // The rung whose source shows under the table (registry name); "" none.

  void Draw(const std::vector<kernels::BenchResult>& results, const kernels::Shape& shape, float height);

 private:
  // Up and down move the open source to the rung before or after it, while the panel has focus.
  void StepRungSource(const std::vector<kernels::LadderRow>& rows);
  void DrawRungSource(float height) const;
  void DrawRows(const std::vector<kernels::LadderRow>& rows);
};

}  // namespace panels
