// random_fill.h — the runner's seeded inputs, computable on the host and the device alike.
//
// Element i of matrix `which` (0 = A, 1 = B) is a pure function of (seed, which, i), so
// the GPU fills its buffers in parallel and the host can rebuild the same A and B to
// replay them on the model. Values are multiples of 2^-23 in [-1, 1): random, never a
// constant fill, which would hide unwritten outputs and wrong indexing.
#pragma once
#include <cstdint>

#ifdef __CUDACC__
#define TILESCOPE_HOST_DEVICE __host__ __device__
#else
#define TILESCOPE_HOST_DEVICE
#endif

namespace kernels {

// splitmix64's finaliser: consecutive inputs give unrelated outputs.
TILESCOPE_HOST_DEVICE inline std::uint64_t MixBits(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

TILESCOPE_HOST_DEVICE inline float RandomInput(std::uint64_t seed, int which, std::uint64_t index) {
  const std::uint64_t bits = MixBits(MixBits(seed * 2 + static_cast<std::uint64_t>(which)) ^ index);
  // The top 24 bits as an integer in [0, 2^24), scaled to [-1, 1): exact in float.
  return static_cast<float>(static_cast<std::int32_t>(bits >> 40) - (1 << 23)) * (1.0f / (1 << 23));
}

}  // namespace kernels
