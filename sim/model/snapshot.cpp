#include "sim/model/snapshot.h"

#include <algorithm>
#include <array>
#include <limits>

#include "sim/model/kernel_source.h"

namespace sim {

std::string Coordinates(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }

const Thread& Snapshot::thread(int block, int index_in_block) const {
  return state_->threads[static_cast<std::size_t>(block) * geometry().block_threads + index_in_block];
}

int Snapshot::NextLine(const Thread& thread) const {
  const cuda::CompiledKernel* k = kernel();
  if (k == nullptr) return LineOf(config().kernel, thread.pc.op);
  // A student's thread stands at the instruction its next step runs (machine_kernel.cpp).
  if (thread.state == ThreadState::kDone || thread.pc.t < 0 || thread.pc.t >= static_cast<int>(k->positions.size())) return 0;
  return k->positions[static_cast<std::size_t>(thread.pc.t)].line;
}

const SharedCell& Snapshot::SharedWord(int block, int array, int index) const {
  int base = 0;
  for (int a = 0; a < array; ++a) base += kernel()->shared[static_cast<std::size_t>(a)].Words();
  return state_->shared.Cell(block, base + index);
}

std::map<int, int> Snapshot::ThreadsByNextLine() const {
  if (kernel() != nullptr) {
    std::map<int, int> by_line;
    for (const Thread& t : state_->threads) {
      if (t.state != ThreadState::kDone) ++by_line[NextLine(t)];
    }
    return by_line;
  }
  std::array<int, kOpCount + 1> by_op{};  // kDone too: it has no line (0)
  for (const Thread& t : state_->threads) {
    if (t.state != ThreadState::kDone) ++by_op[static_cast<std::size_t>(t.pc.op)];
  }
  std::map<int, int> by_line;
  for (std::size_t op = 0; op < by_op.size(); ++op) {
    if (by_op[op] > 0) by_line[LineOf(config().kernel, static_cast<Op>(op))] += by_op[op];
  }
  return by_line;
}

int Snapshot::BlockPhase(int block) const {
  const Block& b = state_->blocks[static_cast<std::size_t>(block)];
  int phase = std::numeric_limits<int>::max();
  for (int i = 0; i < b.thread_count; ++i) {
    const Thread& t = state_->threads[static_cast<std::size_t>(b.first_thread + i)];
    if (t.state != ThreadState::kDone) phase = std::min(phase, geometry().naive ? 0 : std::min(t.pc.t, LastPhase()));
  }
  return phase == std::numeric_limits<int>::max() ? -1 : phase;
}

int Snapshot::current_block() const {
  const Unit unit = state_->last_unit;
  if (unit.is_warp) return state_->warps[static_cast<std::size_t>(unit.index)].block;
  return state_->threads[static_cast<std::size_t>(unit.index)].block;
}

int Snapshot::current_phase() const {
  if (geometry().naive) return 0;
  const Unit unit = state_->last_unit;
  const int thread = unit.is_warp ? state_->warps[static_cast<std::size_t>(unit.index)].first_thread : unit.index;
  return std::min(state_->threads[static_cast<std::size_t>(thread)].regs.t, LastPhase());
}

CellFreshness Snapshot::Freshness(int block, TileId id, int row, int col) const {
  const SharedCell& cell = tile(block, id).at(row, col);
  if (!cell.written()) return CellFreshness::kNeverWritten;
  // A finished block (-1) last read its last phase's tiles.
  const int phase = BlockPhase(block) < 0 ? LastPhase() : BlockPhase(block);
  if (cell.phase > phase) return CellFreshness::kAhead;
  return cell.phase == phase ? CellFreshness::kFresh : CellFreshness::kStale;
}

std::uint32_t Snapshot::ReadsOf(MatrixId id, int row, int col) const {
  return state_->reads.ReadsOf(id, static_cast<int>(Index(id, row, col)));
}

ReaderSummary Snapshot::Readers(MatrixId id, int row, int col) const {
  ReaderSummary summary;
  summary.reads = ReadsOf(id, row, col);
  summary.reads_by_phase.assign(static_cast<std::size_t>(std::max(geometry().phases, 1)), 0);
  const auto element = static_cast<std::int32_t>(Index(id, row, col));
  machine_->logs().reads.ForEachReadOf(id, element, geometry().block_threads, [&](const ReadRecord& record) {
    summary.readers.push_back(record);
    ++summary.reads_by_phase[static_cast<std::size_t>(record.phase)];
  });
  return summary;
}

CElement Snapshot::c(int row, int col) const {
  const Geometry& g = geometry();
  return ElementOf(row, col, (row / g.tm) * g.grid_x + col / g.tn, (row % g.tm) * g.tn + col % g.tn);
}

void Snapshot::ReadC(std::vector<CElement>& c) const {
  const Geometry& g = geometry();
  c.resize(static_cast<std::size_t>(g.m) * static_cast<std::size_t>(g.n));
  for (int by = 0; by < g.grid_y; ++by) {
    for (int bx = 0; bx < g.grid_x; ++bx) {
      for (int ty = 0; ty < g.tm && by * g.tm + ty < g.m; ++ty) {
        for (int tx = 0; tx < g.tn && bx * g.tn + tx < g.n; ++tx) {
          const int row = by * g.tm + ty;
          const int col = bx * g.tn + tx;
          c[static_cast<std::size_t>(row) * static_cast<std::size_t>(g.n) + static_cast<std::size_t>(col)] =
              ElementOf(row, col, by * g.grid_x + bx, ty * g.tn + tx);
        }
      }
    }
  }
}

CElement Snapshot::ElementOf(int row, int col, int block, int thread_in_block) const {
  const Geometry& g = geometry();
  CElement element;
  element.block = block;
  element.thread = thread_in_block;
  const std::size_t index = static_cast<std::size_t>(row) * g.n + col;
  if (state_->c_written[index]) {
    element.progress = CProgress::kFinal;
    element.value = state_->c[index];
    return element;
  }
  const Thread& owner = thread(element.block, element.thread);
  element.value = owner.regs.sum;
  const ProgramCounter& pc = owner.pc;
  if (g.naive) {
    // The naive kernel's products so far: k full products once fma of k has run.
    element.phase = pc.op == Op::kDone ? g.k - 1 : pc.t - 1;
  } else {
    // Phases whose k loop has begun: the current one once its first fma ran.
    const bool in_k_loop = (pc.op == Op::kFma && pc.j > 0) || pc.op == Op::kBarrier2;
    element.phase = in_k_loop ? pc.t : pc.t - 1;
  }
  element.progress = element.phase >= 0 ? CProgress::kPartial : CProgress::kNotStarted;
  return element;
}

int Snapshot::ThreadsAtOrPast(int block, const ProgramCounter& pc) const {
  const Block& b = state_->blocks[static_cast<std::size_t>(block)];
  const std::int64_t key = pc.Key();
  int count = 0;
  for (int i = 0; i < b.thread_count; ++i) {
    const Thread& t = state_->threads[static_cast<std::size_t>(b.first_thread + i)];
    if (t.state == ThreadState::kDone || t.pc.Key() > key || (t.pc == pc && !t.Runnable())) ++count;
  }
  return count;
}

}  // namespace sim
