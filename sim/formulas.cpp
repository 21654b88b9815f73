#include "sim/formulas.h"

#include <algorithm>

#include "sim/geometry.h"

namespace sim {
namespace {

using U64 = std::uint64_t;

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
  const Geometry g = MakeGeometry(config);
  const U64 m = U64(g.m), n = U64(g.n), k = U64(g.k);
  const U64 blocks = U64(g.blocks), threads = U64(g.threads());
  ClosedForms f;
  f.phases = g.phases;
  f.naive_global_reads = 2 * m * n * k;
  f.minimum_global_reads = m * k + k * n;
  f.global_writes = m * n;
  f.flops = 2 * m * n * k;
  if (g.naive) {
    const U64 active = config.guard ? m * n : threads;
    f.global_reads_a = f.global_reads_b = active * k;
    f.fma = active * k;
    f.thread_instructions = active * (3 * k + 1);
    return f;
  }
  const U64 phases = U64(g.phases), tm = U64(g.tm), tn = U64(g.tn), tk = U64(g.tk);
  // Columns of K the tiles cover: all of K (ceil) or the whole tiles only (floor).
  const U64 covered = std::min(k, phases * tk);
  if (config.guard) {
    f.global_reads_a = U64(g.grid_x) * m * covered;
    f.global_reads_b = U64(g.grid_y) * n * covered;
  } else {
    f.global_reads_a = blocks * tm * phases * tk;
    f.global_reads_b = blocks * tn * phases * tk;
  }
  f.shared_writes = blocks * phases * (tm * tk + tk * tn);
  f.shared_reads = threads * phases * 2 * tk;
  f.barrier_arrivals = threads * phases * U64(BarriersOn(config));
  f.fma = threads * phases * tk;
  f.thread_instructions =
      blocks * (phases * (2 * tm * tk + 2 * tk * tn + U64(g.block_threads) * (tk + U64(BarriersOn(config)))) +
                U64(g.block_threads));
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
