#include "sim/model/run_check.h"

#include "sim/model/bits.h"

namespace sim {

RunOutcome Assess(const Simulation& simulation) {
  return Assess(simulation.c(), simulation.reference(), simulation.counters());
}

StoredCheck CheckStoredC(const Simulation& simulation) {
  // The reference is asked for once an element is stored: made at step 0 of a 1024³ lesson,
  // it would cost the window seconds, and nothing needs it yet.
  const std::vector<float>* reference = nullptr;
  const std::vector<float>& c = simulation.c();
  const std::vector<std::uint8_t>& written = simulation.snapshot().state().c_written;
  StoredCheck check;
  check.elements = c.size();
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!written[i]) continue;
    ++check.stored;
    if (!reference) reference = &simulation.reference();
    if (!SameBits(c[i], (*reference)[i])) check.wrong_indices.push_back(static_cast<std::int32_t>(i));
  }
  check.wrong = check.wrong_indices.size();
  return check;
}

}  // namespace sim
