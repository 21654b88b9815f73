#include "sim/model/hazard_detector.h"

namespace sim {

HazardDetector::HazardDetector(int blocks, int cells_per_block)
    : cells_per_block_(cells_per_block),
      cells_(static_cast<std::size_t>(blocks) * cells_per_block),
      arenas_(static_cast<std::size_t>(blocks)) {}

void HazardDetector::OnBlockBarrier(int block) {
  // Cells check their generation before use, so the old entries can go at once.
  arenas_[static_cast<std::size_t>(block)].Clear();
}

Hazard HazardDetector::Describe(const SharedAccess& later, const Conflict& conflict, int earlier_lane) const {
  const Entry& earlier = arenas_[static_cast<std::size_t>(later.block)][conflict.earlier];
  const Verdict verdict = Judge(earlier, later.write, later.stage, later.value);
  Hazard hazard;
  hazard.block = later.block;
  hazard.kind = verdict.kind;
  hazard.severity = conflict.severity;
  hazard.first = HazardSide{earlier.warp * 32 + earlier_lane, earlier.warp, earlier.op, earlier.stage / 8,
                            earlier.write, earlier.value, earlier.stage};
  hazard.second = HazardSide{later.thread, later.warp, later.op, later.stage / 8, later.write, later.value, later.stage};
  hazard.phase = later.stage / 8;
  hazard.observed_in_program_order = verdict.observed_in_program_order;
  hazard.current_value = later.old_value;
  hazard.incoming_value = later.value;
  hazard.value_seen = verdict.value_seen;
  hazard.value_expected = verdict.value_expected;
  return hazard;
}

void HazardDetector::OnBlockExit(int block) {
  arenas_[static_cast<std::size_t>(block)].Release();
}

void HazardDetector::ReleaseArenas() {
  for (Arena& arena : arenas_) arena.Release();
}

std::size_t HazardDetector::Bytes() const {
  std::size_t bytes = cells_.capacity() * sizeof(CellShadow) + arenas_.capacity() * sizeof(Arena);
  for (const Arena& arena : arenas_) bytes += arena.Bytes();
  return bytes;
}

std::size_t HazardDetector::BytesPerCell() { return sizeof(CellShadow); }
std::size_t HazardDetector::BytesPerAccess() { return sizeof(Entry); }

bool HazardDetector::operator==(const HazardDetector& o) const { return cells_ == o.cells_ && arenas_ == o.arenas_; }

}  // namespace sim
