// formulas.h — the closed forms of what the model counts, for the Counters panel, the CLI
// and the tests that compare counted with expected. Reads assume what the kernels do:
// A is read ceil(N/TN) times over (once per block column), B ceil(M/TM) times.
#pragma once
#include <cstdint>

#include "sim/model/counters.h"
#include "sim/model/geometry.h"
#include "sim/model/kernel_config.h"
#include "sim/model/program.h"  // StepsPerThread, ThreadInstructions, BarriersOn

namespace sim {

// How many times fewer global reads the tiled kernel makes than the naive one: naive over
// tiled, 0 while the tiled count is 0. Every view's "saving" is this.
constexpr double ReadSaving(std::uint64_t naive_reads, std::uint64_t tiled_reads) {
  return tiled_reads == 0 ? 0.0 : double(naive_reads) / double(tiled_reads);
}

struct ClosedForms {
  int phases = 0;
  std::uint64_t global_reads_a = 0;       // tiled: ceil(N/TN)·M·K (guarded, ceil tiles)
  std::uint64_t global_reads_b = 0;       // tiled: ceil(M/TM)·K·N
  std::uint64_t naive_global_reads = 0;   // 2·M·N·K: the naive kernel on the same sizes
  std::uint64_t minimum_global_reads = 0; // M·K + K·N: every element of A and B once
  std::uint64_t global_writes = 0;        // M·N
  std::uint64_t shared_writes = 0;
  std::uint64_t shared_reads = 0;
  std::uint64_t barrier_arrivals = 0;
  std::uint64_t fma = 0;                  // zero padding included
  std::uint64_t flops = 0;                // 2·M·N·K
  std::uint64_t thread_instructions = 0;

  std::uint64_t global_reads() const { return global_reads_a + global_reads_b; }
  // Global reads per element of C: 2K for the naive kernel, about 2K/T tiled.
  double ReadsPerElementOfC(const KernelConfig& config) const;
  // How many times fewer reads than the naive kernel.
  double Saving() const { return ReadSaving(naive_global_reads, global_reads()); }
};

// Any sizes, not only a lesson Validate() accepts (tiles at least 1): a count beyond
// 2^64 - 1 is given as 2^64 - 1.
ClosedForms Expected(const KernelConfig& config);

// Global reads per element of C (there are M·N): how a naive kernel's 2K shrinks to about 2K/T
// with T×T tiles, beside what has been counted.
struct ReadsPerElement {
  double counted = 0.0;  // the reads `counted` holds so far
  double naive = 0.0;    // 2K
  double kernel = 0.0;   // this kernel's closed form: about 2K/T for square tiles
  double minimum = 0.0;  // (M·K + K·N) / (M·N): every element of A and B read once
};
ReadsPerElement ReadsPerElementOf(const KernelConfig& config, const Counters& counted);

// One phase's global reads when its tiles lie wholly inside A and B, the length a phase's
// reads are drawn against, so a padded tail phase shows as the shorter one it is. The naive
// kernel's one phase is its whole run.
double FullPhaseReads(const KernelConfig& config, const Geometry& geometry);

}  // namespace sim
