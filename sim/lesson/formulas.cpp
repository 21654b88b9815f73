#include "sim/lesson/formulas.h"

#include <algorithm>

#include "sim/model/checked_math.h"
#include "sim/model/geometry.h"
#include "sim/model/program.h"

namespace sim {
namespace {

using U64 = std::uint64_t;

// A count that stays at 2^64 - 1 instead of wrapping: Expected() also answers for sizes no
// lesson could run (the live panel's formula for a result with a 2·10^9 dimension), whose
// products exceed 64 bits.
struct Count {
  U64 value;
};
Count operator*(Count a, Count b) { return {SaturatingMul(a.value, b.value)}; }
Count operator+(Count a, Count b) { return {SaturatingAdd(a.value, b.value)}; }

// A size below 1 launches nothing; read as unsigned it would count as 2^64 - |size|.
Count Size(int size) { return {size > 0 ? U64(size) : 0}; }

}  // namespace

double ClosedForms::ReadsPerElementOfC(const KernelConfig& config) const {
  return double(global_reads()) / (double(config.m) * double(config.n));
}

ReadsPerElement ReadsPerElementOf(const KernelConfig& config, const Counters& counted) {
  const ClosedForms e = Expected(config);
  const double elements = double(config.m) * double(config.n);
  return {double(counted.GlobalReads()) / elements, double(e.naive_global_reads) / elements,
          e.ReadsPerElementOfC(config), double(e.minimum_global_reads) / elements};
}

double FullPhaseReads(const KernelConfig& config, const Geometry& g) {
  if (g.naive) return double(Expected(config).naive_global_reads);
  // Unguarded, every block loads its whole tiles of A and B, inside the matrices or not.
  if (!config.guard) return double(g.blocks) * double(g.tm + g.tn) * double(g.tk);
  // Guarded, a block column reads all M rows of A's slice and a block row all N columns of B's.
  return (double(g.grid_x) * double(g.m) + double(g.grid_y) * double(g.n)) * double(g.tk);
}

ClosedForms Expected(const KernelConfig& config) {
  const TileShape tiles = config.Tiles();
  const Count m = Size(config.m), n = Size(config.n), k = Size(config.k);
  const Count tm = Size(tiles.tm), tn = Size(tiles.tn), tk = Size(tiles.tk);
  const Count grid_x{CeilDiv(n.value, tn.value)}, grid_y{CeilDiv(m.value, tm.value)};
  const Count blocks = grid_x * grid_y, block_threads = tm * tn, threads = blocks * block_threads;
  const bool naive = config.kernel == KernelKind::kNaive;
  const U64 phase_count = naive                                   ? 1
                          : config.tile_count == TileCount::kCeil ? CeilDiv(k.value, tk.value)
                                                                  : k.value / tk.value;
  ClosedForms f;
  f.phases = static_cast<int>(phase_count);  // at most K, an int
  f.naive_global_reads = (Count{2} * m * n * k).value;
  f.minimum_global_reads = (m * k + k * n).value;
  f.global_writes = (m * n).value;
  f.flops = f.naive_global_reads;
  if (naive) {
    const Count active = config.guard ? m * n : threads;
    f.global_reads_a = f.global_reads_b = (active * k).value;
    f.fma = (active * k).value;
    f.thread_instructions = ThreadInstructions(config);
    return f;
  }
  const Count phases{phase_count}, barriers{U64(BarriersOn(config))};
  // Columns of K the tiles cover: all of K (ceil) or the whole tiles only (floor).
  const Count covered{std::min(k.value, (phases * tk).value)};
  if (config.guard) {
    f.global_reads_a = (grid_x * m * covered).value;
    f.global_reads_b = (grid_y * n * covered).value;
  } else {
    f.global_reads_a = (blocks * tm * phases * tk).value;
    f.global_reads_b = (blocks * tn * phases * tk).value;
  }
  f.shared_writes = (blocks * phases * (tm * tk + tk * tn)).value;
  f.shared_reads = (threads * phases * Count{2} * tk).value;
  f.barrier_arrivals = (threads * phases * barriers).value;
  f.fma = (threads * phases * tk).value;
  f.thread_instructions = ThreadInstructions(config);
  return f;
}

}  // namespace sim
