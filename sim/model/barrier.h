// barrier.h — one barrier unit: __syncthreads() of a block or __syncwarp() of a warp.
//
// Owns the arrival count and the generation (how many times it released). Threads that
// arrive wait until every live thread of the scope has arrived; then all go on together.
// The generation is the happens-before clock the hazard detector reads: two accesses in
// the same generation of every barrier the pair shares were not ordered by any of them.
#pragma once
#include <cstdint>

namespace sim {

class Barrier {
 public:
  void Arrive() { ++arrived_; }
  // True when `live` threads (those of the scope that have not exited) have all arrived.
  bool CanRelease(int live) const { return arrived_ > 0 && arrived_ >= live; }
  void Release() {
    arrived_ = 0;
    ++generation_;
  }
  int arrived() const { return arrived_; }
  int generation() const { return generation_; }
  bool operator==(const Barrier& o) const { return arrived_ == o.arrived_ && generation_ == o.generation_; }

 private:
  std::int32_t arrived_ = 0;
  std::int32_t generation_ = 0;
};

}  // namespace sim
