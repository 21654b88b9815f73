// run_check.h — a Simulation's C against the correct product of its A and B
// (sim/model/reference.h): the whole run's verdict, or the elements stored so far.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/model/reference.h"
#include "sim/model/simulation.h"

namespace sim {

// The simulation's C so far against the reference product of its A and B.
RunOutcome Assess(const Simulation& simulation);

// C so far against the correct product, counting only the elements already stored: a run
// stopped half-way says "2 of 6 stored elements wrong", not "10 wrong".
struct StoredCheck {
  std::uint64_t elements = 0;
  std::uint64_t stored = 0;
  std::uint64_t wrong = 0;
  std::vector<std::int32_t> wrong_indices;  // row-major
};
StoredCheck CheckStoredC(const Simulation& simulation);

}  // namespace sim
