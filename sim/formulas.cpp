#include "sim/formulas.h"

#include <algorithm>

#include "sim/checked_math.h"
#include "sim/geometry.h"

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

// Iterations of `for (i = start; i < tk; i += stride)`.
U64 StridedCount(int start, int tk, int stride) { return start < tk ? U64((tk - start + stride - 1) / stride) : 0; }

}  // namespace

int BarriersOn(const LessonConfig& config) {
  if (config.kernel == KernelKind::kNaive) return 0;
  return (config.barrier1 != SyncKind::kNone) + (config.barrier2 != SyncKind::kNone);
}

double ClosedForms::ReadsPerElementOfC(const LessonConfig& config) const {
  return double(global_reads()) / (double(config.m) * double(config.n));
}

ClosedForms Expected(const LessonConfig& config) {
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
    f.thread_instructions = (active * (Count{3} * k + Count{1})).value;
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
  f.thread_instructions =
      (blocks * (phases * (Count{2} * tm * tk + Count{2} * tk * tn + block_threads * (tk + barriers)) + block_threads))
          .value;
  return f;
}

std::int64_t StepsPerThread(const LessonConfig& config, int bx, int by, int tx, int ty) {
  const Geometry g = MakeGeometry(config);
  if (g.naive) {
    // `if (kGuarded && (row >= M || col >= N)) return;` before any instruction.
    if (config.guard && (by * g.tm + ty >= g.m || bx * g.tn + tx >= g.n)) return 0;
    return 3 * std::int64_t(g.k) + 1;
  }
  const U64 loads = 2 * StridedCount(tx, g.tk, g.tn) + 2 * StridedCount(ty, g.tk, g.tm);
  return std::int64_t(U64(g.phases) * (loads + U64(g.tk) + U64(BarriersOn(config))) + 1);
}

}  // namespace sim
