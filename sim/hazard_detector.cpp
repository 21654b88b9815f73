#include "sim/hazard_detector.h"

#include "sim/bits.h"

namespace sim {

const char* Name(HazardKind kind) {
  switch (kind) {
    case HazardKind::kRaw:
      return "RAW";
    case HazardKind::kWar:
      return "WAR";
    case HazardKind::kWaw:
      return "WAW";
  }
  return "?";
}

const char* Name(Severity severity) { return severity == Severity::kWarning ? "warning" : "error"; }

bool Hazard::Corrupted() const { return !observed_in_program_order && !SameBits(value_seen, value_expected); }

bool Hazard::operator==(const Hazard& o) const {
  auto side_equal = [](const HazardSide& x, const HazardSide& y) {
    return x.thread == y.thread && x.warp == y.warp && x.op == y.op && x.phase == y.phase && x.write == y.write &&
           SameBits(x.value, y.value);
  };
  return step == o.step && kind == o.kind && severity == o.severity && block == o.block && tile == o.tile &&
         row == o.row && col == o.col && side_equal(first, o.first) && side_equal(second, o.second) &&
         observed_in_program_order == o.observed_in_program_order && SameBits(current_value, o.current_value) &&
         SameBits(incoming_value, o.incoming_value) && SameBits(value_seen, o.value_seen) &&
         SameBits(value_expected, o.value_expected) && phase == o.phase;
}

bool HazardDetector::Entry::operator==(const Entry& o) const {
  return next == o.next && stage == o.stage && warp_epoch == o.warp_epoch && thread == o.thread && warp == o.warp &&
         op == o.op && write == o.write && SameBits(value, o.value) && SameBits(old_value, o.old_value);
}

HazardDetector::HazardDetector(int blocks, int cells_per_block)
    : cells_per_block_(cells_per_block),
      cells_(static_cast<std::size_t>(blocks) * cells_per_block),
      arenas_(static_cast<std::size_t>(blocks)) {}

void HazardDetector::OnAccess(const SharedAccess& access, int block_epoch, std::vector<Hazard>& found) {
  CellShadow& cell = cells_[static_cast<std::size_t>(access.block) * cells_per_block_ + access.word];
  if (cell.epoch != block_epoch) cell = CellShadow{block_epoch, -1, -1};
  // Two reads never race: a read is checked against writes only, a write against both.
  Check(access, cell.writes, found);
  if (access.write) Check(access, cell.reads, found);
  std::vector<Entry>& arena = arenas_[static_cast<std::size_t>(access.block)];
  std::int32_t& head = access.write ? cell.writes : cell.reads;
  arena.push_back(Entry{head, access.stage, access.warp_epoch, static_cast<std::int16_t>(access.thread),
                        static_cast<std::int16_t>(access.warp), access.op, access.write, access.value,
                        access.old_value});
  head = static_cast<std::int32_t>(arena.size() - 1);
}

void HazardDetector::OnBlockBarrier(int block) {
  // Cells check their generation before use, so the old entries can go at once.
  arenas_[static_cast<std::size_t>(block)].clear();
}

void HazardDetector::Check(const SharedAccess& access, std::int32_t head, std::vector<Hazard>& found) const {
  const std::vector<Entry>& arena = arenas_[static_cast<std::size_t>(access.block)];
  for (std::int32_t at = head; at >= 0; at = arena[static_cast<std::size_t>(at)].next) {
    const Entry& earlier = arena[static_cast<std::size_t>(at)];
    if (earlier.thread == access.thread) continue;  // program order orders a thread's own accesses
    // A __syncwarp() passed by both lanes of one warp orders them; it orders nothing across warps.
    if (earlier.warp == access.warp && earlier.warp_epoch != access.warp_epoch) continue;
    found.push_back(Describe(earlier, access));
  }
}

Hazard HazardDetector::Describe(const Entry& earlier, const SharedAccess& later) const {
  Hazard hazard;
  hazard.block = later.block;
  hazard.severity = earlier.warp == later.warp ? Severity::kWarning : Severity::kError;
  hazard.first = HazardSide{earlier.thread, earlier.warp, earlier.op, earlier.stage / 8, earlier.write, earlier.value};
  hazard.second = HazardSide{later.thread, later.warp, later.op, later.stage / 8, later.write, later.value};
  hazard.phase = later.stage / 8;
  hazard.observed_in_program_order = earlier.stage <= later.stage;
  hazard.current_value = later.old_value;
  hazard.incoming_value = later.value;
  if (earlier.write && later.write) {
    hazard.kind = HazardKind::kWaw;
    hazard.value_seen = later.value;
    hazard.value_expected = hazard.observed_in_program_order ? later.value : earlier.value;
    return hazard;
  }
  const bool write_first_in_program = (earlier.write == hazard.observed_in_program_order);
  hazard.kind = write_first_in_program ? HazardKind::kRaw : HazardKind::kWar;
  const float written = earlier.write ? earlier.value : later.value;
  const float read = earlier.write ? later.value : earlier.value;
  hazard.value_seen = read;
  if (hazard.kind == HazardKind::kRaw) {
    hazard.value_expected = written;
  } else {
    // The read should have seen the cell as it was before the write.
    hazard.value_expected = hazard.observed_in_program_order ? read : (earlier.write ? earlier.old_value : read);
  }
  return hazard;
}

void HazardDetector::OnBlockExit(int block) {
  std::vector<Entry>().swap(arenas_[static_cast<std::size_t>(block)]);
}

std::size_t HazardDetector::Bytes() const {
  std::size_t bytes = cells_.capacity() * sizeof(CellShadow) + arenas_.capacity() * sizeof(std::vector<Entry>);
  for (const auto& arena : arenas_) bytes += arena.capacity() * sizeof(Entry);
  return bytes;
}

bool HazardDetector::operator==(const HazardDetector& o) const { return cells_ == o.cells_ && arenas_ == o.arenas_; }

}  // namespace sim
