// reference.h — the correct product and how a run compares with it.
//
// The reference is sum = fmaf(a, b, sum) over k in order: what the guarded kernel with its
// barriers computes on the GPU, to the bit (zero padding adds exact zeros). A run is then
// correct, or carries hazards the schedule did not witness, or witnessed hazards whose
// stale and fresh values happened to coincide (zero padding, identity fills) — said as
// such rather than pretending the race was harmless — or has wrong elements.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/model/counters.h"

namespace sim {

std::vector<float> ReferenceProduct(int m, int n, int k, const std::vector<float>& a, const std::vector<float>& b);

enum class Verdict : std::uint8_t {
  kCorrect,                  // no hazard, C right
  kHazardsNotWitnessed,      // hazards reported, the schedule kept the barrier's order: C right
  kWitnessedValuesCoincided, // the race was run the wrong way round, yet every value was the same
  kWrong,                    // C differs from the reference
};

struct RunOutcome {
  std::uint64_t wrong_elements = 0;     // bits differ from the reference
  std::vector<std::int32_t> wrong;      // their row-major indices
  std::vector<float> reference;
  std::uint64_t hazards = 0;
  std::uint64_t hazards_witnessed = 0;
  Verdict verdict = Verdict::kCorrect;
};

RunOutcome Assess(const std::vector<float>& c, const std::vector<float>& reference, const Counters& counters);
// One plain sentence for the verdict: "C is correct", "hazard witnessed, values coincided"...
std::string Describe(const RunOutcome& outcome, int elements);

}  // namespace sim
