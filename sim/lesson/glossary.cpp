#include "sim/lesson/glossary.h"

#include <cstdlib>

namespace sim {

const std::vector<GlossaryEntry>& Glossary() {
  static const std::vector<GlossaryEntry> entries = {
      {"32-byte sectors",
       "Global memory moves in 32-byte pieces. A warp's load touches one sector per 8 neighbouring floats; the "
       "count is the sectors each warp-instruction touched, so scattered reads cost more than coalesced ones."},
      {"barrier stall steps",
       "For every step, the threads then waiting at a __syncthreads() for the rest of their block: the time a "
       "barrier costs. It has no closed form: it depends on the scheduler."},
      {"bank conflicts",
       "Shared memory has 32 banks; lanes of one warp that read different words of one bank are served one "
       "after another. The count is the extra wavefronts this costs."},
      {"phase badge (p1, p2, ...)",
       "A tile phase is one pass of the loop over K: load a tile of A and of B into shared memory, sync, multiply, "
       "sync. p1 on an element of C or a block: its partial sum after phase 1."},
      {"warp slots",
       "An SM keeps up to a fixed number of warps resident (64 on an H100). The share of those slots a kernel's "
       "blocks fill is its occupancy."},
  };
  return entries;
}

const char* Meaning(const std::string& term) {
  for (const GlossaryEntry& entry : Glossary()) {
    if (term == entry.term) return entry.meaning;
  }
  std::abort();
}

}  // namespace sim
