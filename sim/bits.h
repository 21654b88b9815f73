// bits.h — float equality to the bit: the model promises results identical to the GPU's,
// and NaN poison must compare equal to itself when states are compared.
#pragma once
#include <cstring>

namespace sim {

inline bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace sim
