#include "sim/lesson/walkthrough.h"

#include <algorithm>

#include "sim/model/shared_memory.h"

namespace sim {

void IndexRange::Include(int index) {
  first = empty() ? index : std::min(first, index);
  last = std::max(last, index);
}

WalkthroughRecorder::WalkthroughRecorder(const Geometry& geometry, int max_blocks) : geometry_(geometry) {
  const int kept = std::clamp(max_blocks, 0, geometry.blocks);
  const auto cells = [](int rows, int cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); };
  blocks_.resize(static_cast<std::size_t>(kept));
  for (int b = 0; b < kept; ++b) {
    BlockRecord& block = blocks_[static_cast<std::size_t>(b)];
    block.block = b;
    block.phases.resize(static_cast<std::size_t>(std::max(geometry.phases, 0)));
    for (int t = 0; t < geometry.phases; ++t) {
      PhaseRecord& phase = block.phases[static_cast<std::size_t>(t)];
      phase.phase = t;
      if (!geometry.naive) {
        phase.as.assign(cells(geometry.tm, geometry.tk), SharedPoison());
        phase.bs.assign(cells(geometry.tk, geometry.tn), SharedPoison());
      }
      phase.sums.assign(cells(geometry.tm, geometry.tn), 0.0f);
      phase.summed.assign(phase.sums.size(), 0);
    }
  }
}

PhaseRecord* WalkthroughRecorder::Find(const TraceEvent& event) {
  if (event.block < 0 || event.block >= static_cast<int>(blocks_.size())) return nullptr;
  std::vector<PhaseRecord>& phases = blocks_[static_cast<std::size_t>(event.block)].phases;
  if (event.phase < 0 || event.phase >= static_cast<int>(phases.size())) return nullptr;
  return &phases[static_cast<std::size_t>(event.phase)];
}

void WalkthroughRecorder::OnLoad(PhaseRecord& phase, const TraceEvent& event) {
  const bool of_a = event.from.matrix == MatrixId::kA;
  (of_a ? phase.a_rows : phase.b_rows).Include(event.from.row);
  (of_a ? phase.a_cols : phase.b_cols).Include(event.from.col);
  if (event.kind == EventKind::kSelectZero) {
    ++phase.select_zero;
  } else {
    ++(of_a ? phase.reads_a : phase.reads_b);
  }
}

void WalkthroughRecorder::OnStore(PhaseRecord& phase, const TraceEvent& event) const {
  const bool as = event.to.tile == TileId::kAs;
  const int cols = as ? geometry_.tk : geometry_.tn;
  (as ? phase.as : phase.bs)[static_cast<std::size_t>(event.to.row) * cols + event.to.col] = event.value;
}

void WalkthroughRecorder::OnEvent(const TraceEvent& event) {
  if (event.kind == EventKind::kFma && event.block == 0 && event.thread == 0) {
    first_element_terms_.push_back({event.phase, event.operand_a, event.operand_b, event.value});
  }
  PhaseRecord* phase = Find(event);
  if (phase == nullptr) return;
  switch (event.kind) {
    case EventKind::kGlobalLoad:
    case EventKind::kSelectZero:
      OnLoad(*phase, event);
      break;
    case EventKind::kSharedStore:
      OnStore(*phase, event);
      break;
    case EventKind::kFma:
      // The last product of the phase leaves the phase's partial sum.
      phase->sums[static_cast<std::size_t>(event.thread)] = event.value;
      phase->summed[static_cast<std::size_t>(event.thread)] = 1;
      break;
    default:
      break;
  }
}

}  // namespace sim
