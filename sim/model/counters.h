// counters.h — everything the model counts, so far in the run: the figures the Counters
// panel and `tilescope trace --json` show and the tests compare with the closed forms
// (formulas.h).
#pragma once
#include <cstdint>
#include <vector>

namespace sim {

// Per tile phase (the naive kernel has one). Stores of C come after the last phase and are
// counted in the totals only.
struct PhaseCounters {
  std::uint64_t global_reads_a = 0;
  std::uint64_t global_reads_b = 0;
  std::uint64_t shared_reads = 0;
  std::uint64_t shared_writes = 0;
  std::uint64_t barrier_arrivals = 0;
  std::uint64_t fma = 0;
  std::uint64_t global_sectors = 0;
  std::uint64_t bank_conflicts = 0;
  std::uint64_t hazards = 0;
  bool operator==(const PhaseCounters& o) const;
};

struct Counters {
  std::uint64_t steps = 0;                // scheduler units run
  std::uint64_t thread_instructions = 0;  // one per thread per instruction
  std::uint64_t global_reads_a = 0;       // in-bounds and out-of-bounds reads that reached memory
  std::uint64_t global_reads_b = 0;
  std::uint64_t select_zero = 0;          // guarded loads that read nothing
  std::uint64_t global_writes = 0;        // stores of C that landed
  std::uint64_t shared_reads = 0;
  std::uint64_t shared_writes = 0;
  std::uint64_t barrier_arrivals = 0;
  std::uint64_t barrier_releases = 0;
  std::uint64_t barrier_stall_steps = 0;  // Σ over steps of the threads then waiting at a barrier
  std::uint64_t global_sectors = 0;       // 32-byte sectors per warp-instruction
  std::uint64_t bank_conflicts = 0;       // extra shared wavefronts per warp-instruction
  std::uint64_t fma_executed = 0;         // zero padding included
  std::uint64_t hazards = 0;              // all detected, also those past the log's limit
  std::uint64_t hazard_warnings = 0;
  std::uint64_t hazard_errors = 0;
  std::uint64_t hazards_raw = 0;
  std::uint64_t hazards_war = 0;
  std::uint64_t hazards_waw = 0;
  std::uint64_t hazards_witnessed = 0;    // seen in the order opposite to the barrier's
  std::uint64_t hazards_corrupting = 0;   // ... and the values differed
  std::uint64_t out_of_bounds = 0;
  std::vector<PhaseCounters> phases;

  std::uint64_t GlobalReads() const { return global_reads_a + global_reads_b; }
  bool operator==(const Counters& o) const;
};

}  // namespace sim
