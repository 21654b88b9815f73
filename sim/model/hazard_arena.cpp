#include "sim/model/hazard_arena.h"

#include <algorithm>

#include "sim/model/bits.h"

namespace sim {

bool HazardEntry::operator==(const HazardEntry& o) const {
  return next == o.next && stage == o.stage && warp_epoch == o.warp_epoch && lanes == o.lanes && warp == o.warp &&
         op == o.op && write == o.write && SameBits(value, o.value) && SameBits(old_value, o.old_value);
}

void HazardArena::StartChunk() {
  if (ChunkOf(size_) == chunks_.size()) chunks_.push_back(std::make_shared<Chunk>());
}

void HazardArena::Clear() {
  // The chunks no other state holds are kept for the next generation, which fills them again
  // instead of allocating and zeroing new ones (a generation without the 1st barrier takes
  // several); those a checkpoint holds stay its own. 256³ TILE 16 without the 1st barrier:
  // best CPU 0.440 → 0.426 s, page faults 92,626 → 86,750 (213f8cb).
  chunks_.erase(std::remove_if(chunks_.begin(), chunks_.end(), [](const std::shared_ptr<Chunk>& chunk) { return chunk.use_count() != 1; }),
                chunks_.end());
  size_ = 0;
}

std::size_t HazardArena::Bytes() const {
  std::size_t bytes = chunks_.capacity() * sizeof(std::shared_ptr<Chunk>);
  for (const auto& chunk : chunks_) bytes += sizeof(Chunk) / static_cast<std::size_t>(chunk.use_count());
  return bytes;
}

bool HazardArena::operator==(const HazardArena& o) const {
  if (size_ != o.size_) return false;
  for (std::int32_t at = 0; at < size_; ++at) {
    if (!((*this)[at] == o[at])) return false;
  }
  return true;
}

}  // namespace sim
