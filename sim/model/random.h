// random.h — SplitMix64: a tiny generator whose sequence is fixed by its seed on every
// platform (std::uniform_*_distribution is not), so a lesson's fills and a scheduler's
// choices are the same on every machine.
#pragma once
#include <cstdint>

namespace sim {

constexpr std::uint64_t Mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed = 0) : state_(seed) {}
  std::uint64_t Next() {
    state_ += 0x9e3779b97f4a7c15ull;
    return Mix64(state_ - 0x9e3779b97f4a7c15ull);
  }
  // Uniform in [0, bound) (bound > 0); the tiny modulo bias does not matter for teaching.
  std::uint64_t Below(std::uint64_t bound) { return Next() % bound; }
  // Uniform in [-1, 1) on a 2^-23 grid: exact floats, identical everywhere.
  float SignedUnit() { return static_cast<float>(static_cast<std::int64_t>(Next() >> 40) - (1 << 23)) * 0x1p-23f; }
  bool operator==(const SplitMix64& other) const { return state_ == other.state_; }

 private:
  std::uint64_t state_;
};

}  // namespace sim
