#include "sim/model/kernel_memory_access.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "sim/cuda/interpreter.h"
#include "sim/model/bits.h"
#include "sim/model/hazard_tally.h"
#include "sim/model/warp_lanes.h"
#include "sim/model/warp_sectors.h"

namespace sim {
namespace {

float AsFloat(std::uint32_t bits) { return cuda::AsFloat(bits); }

// Saturates past 2^31 (a 200-instruction kernel after 10 million loop iterations).
std::int32_t ProgramOrder(std::uint32_t back_edges, std::int32_t pc, std::size_t code_size) {
  const std::int64_t order = static_cast<std::int64_t>(back_edges) * static_cast<std::int64_t>(code_size) + pc;
  return static_cast<std::int32_t>(std::min<std::int64_t>(order, std::numeric_limits<std::int32_t>::max()));
}

// The distinct places (sectors) the group's lanes touched.
std::int64_t DistinctPlaces(const WarpAccessGroup& g) {
  std::int64_t distinct = 0;
  for (std::uint32_t rest = g.touched; rest != 0; rest &= rest - 1) {
    const int lane = __builtin_ctz(rest);
    bool first = true;
    for (std::uint32_t before = g.touched & ((1u << lane) - 1); before != 0 && first; before &= before - 1) {
      first = g.places[static_cast<std::size_t>(__builtin_ctz(before))] != g.places[static_cast<std::size_t>(lane)];
    }
    distinct += first;
  }
  return distinct;
}

}  // namespace

bool KernelMemoryAccess::WholeWarpInstruction(const Warp& warp, const StepLanes& step) const {
  return step.one_order && CountBits(step.ran) == warp.lane_count - warp.exited_lanes &&
         m_.state.warp_access_groups[static_cast<std::size_t>(&warp - m_.state.warps.data())].size() == 0;
}

template <typename Measure>
std::int64_t KernelMemoryAccess::Join(int warp_index, const StepLanes& step, Measure measure) {
  const Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_index)];
  WarpAccessGroups& groups = m_.state.warp_access_groups[static_cast<std::size_t>(warp_index)];
  const auto code_size = static_cast<std::int64_t>(k_.kernel->code.size());
  const std::int32_t pc = m_.state.threads[static_cast<std::size_t>(warp.first_thread + __builtin_ctz(step.ran))].pc.t;
  const std::uint32_t all = warp.lane_count == kWarpSize ? ~std::uint32_t{0} : (1u << warp.lane_count) - 1;
  std::int64_t added = 0;
  for (std::uint32_t rest = step.ran; rest != 0; rest &= rest - 1) {
    const int lane = __builtin_ctz(rest);
    const std::int64_t order = std::int64_t{step.back_edges[static_cast<std::size_t>(lane)]} * code_size + pc;
    WarpAccessGroup& group = groups.At(order);
    const std::int64_t before = measure(group);
    group.joined |= 1u << lane;
    if ((step.touched >> lane & 1) != 0) {
      group.touched |= 1u << lane;
      group.places[static_cast<std::size_t>(lane)] = step.places[static_cast<std::size_t>(lane)];
    }
    added += measure(group) - before;
    if ((group.joined | ExitedLanes(warp)) == all) groups.Close(order);
  }
  if (groups.WantsPruning()) groups.Prune(OldestOrder(warp));
  return added;
}

std::int64_t KernelMemoryAccess::OldestOrder(const Warp& warp) const {
  const auto code_size = static_cast<std::int64_t>(k_.kernel->code.size());
  std::int64_t oldest = std::numeric_limits<std::int64_t>::max();
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = m_.state.threads[static_cast<std::size_t>(warp.first_thread + lane)];
    if (thread.state == ThreadState::kDone) continue;
    const std::uint32_t* r = k_.Registers(m_.state.registers, warp.first_thread + lane);
    oldest = std::min(oldest, std::int64_t{r[cuda::kBackEdgeSlot]} * code_size + thread.pc.t);
  }
  return oldest;
}

std::uint32_t KernelMemoryAccess::ExitedLanes(const Warp& warp) const {
  std::uint32_t exited = 0;
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = m_.state.threads[static_cast<std::size_t>(warp.first_thread + lane)];
    exited |= static_cast<std::uint32_t>(thread.state == ThreadState::kDone) << lane;
  }
  return exited;
}

std::int32_t KernelMemoryAccess::PcOf(std::int32_t stage) const {
  if (stage == std::numeric_limits<std::int32_t>::max()) return -1;  // saturated: no longer one place
  return stage % static_cast<std::int32_t>(k_.kernel->code.size());
}

void KernelMemoryAccess::AccessGlobal(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue) {
  const auto id = static_cast<MatrixId>(k_.launch.arguments[ins.array]);
  const bool store = ins.op == cuda::Opcode::kStoreGlobal;
  const long long size = static_cast<long long>(m_.memory.rows(id)) * m_.memory.cols(id);
  const float* const values = id == MatrixId::kA ? m_.memory.a().data() : (id == MatrixId::kB ? m_.memory.b().data() : m_.state.c.data());
  WarpSectors sectors;
  StepLanes step;
  std::uint64_t reads = 0;
  int block = 0;
  KernelStepRecord& told = m_.state.last_step.kernel;
  const Thread* const first = &warp_lanes[__builtin_ctz(lanes)];
  told.array = static_cast<std::int32_t>(id);
  ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
    std::uint32_t* r = Registers(thread);
    step.Ran(thread, r);
    block = thread.block;
    const long long element = static_cast<long long>(static_cast<std::int32_t>(r[ins.a])) + static_cast<std::int32_t>(r[ins.b]);
    if (&thread == first) {
      told.element = element;
      told.outside = element < 0 || element >= size;
      told.value = store ? AsFloat(r[ins.dst]) : told.outside ? 0.0f : values[element];
    }
    if (element < 0 || element >= size) {
      ++m_.state.counters.out_of_bounds;
      m_.LogFinding(thread, KernelFinding::Kind::kGlobalOutside, element, static_cast<int>(id), store);
      if (!store) r[ins.dst] = 0;
      return;
    }
    sectors.Add(id, element);
    step.Touched(thread, element * kBytesPerFloat / kSectorBytes);
    if (id == MatrixId::kC) CheckGlobalRace(thread, element, store);
    if (!store) {
      r[ins.dst] = cuda::FloatBits(values[element]);
      if (id != MatrixId::kC) {
        m_.state.reads.CountElement(id, element);
        ++reads;
      }
      return;
    }
    if (id != MatrixId::kC) {
      m_.LogFinding(thread, KernelFinding::Kind::kInputWritten, element, static_cast<int>(id), true);
      return;
    }
    m_.state.c[static_cast<std::size_t>(element)] = AsFloat(r[ins.dst]);
    m_.state.c_written[static_cast<std::size_t>(element)] = 1;
    m_.state.c_writers[static_cast<std::size_t>(element)] = static_cast<std::int32_t>(&thread - m_.state.threads.data()) + 1;
    m_.state.c_writer_pcs[static_cast<std::size_t>(element)] = thread.pc.t;
    ++m_.state.counters.global_writes;
  });
  const Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_lanes->warp)];
  const auto counted = static_cast<std::uint64_t>(WholeWarpInstruction(warp, step) ? sectors.distinct : Join(warp_lanes->warp, step, DistinctPlaces));
  m_.state.counters.global_sectors += counted;
  m_.state.counters.phases[0].global_sectors += counted;
  if (!store) {
    issue.l2_halves = sectors.l2_halves == 0 ? 1 : sectors.l2_halves;  // a load waits for memory
    issue.sectors = sectors.distinct;
  }
  if (reads > 0) {
    m_.state.reads.CountBlock(id, block, reads);
    (id == MatrixId::kA ? m_.state.counters.global_reads_a : m_.state.counters.global_reads_b) += reads;
    (id == MatrixId::kA ? m_.state.counters.phases[0].global_reads_a : m_.state.counters.phases[0].global_reads_b) += reads;
  }
}

void KernelMemoryAccess::AccessShared(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue) {
  const cuda::SharedArray& array = k_.kernel->shared[ins.array];
  const bool store = ins.op == cuda::Opcode::kStoreShared;
  const int words = m_.state.shared.CellsPerBlock();
  StepLanes step;
  KernelStepRecord& told = m_.state.last_step.kernel;
  const Thread* const first = &warp_lanes[__builtin_ctz(lanes)];
  told.array = ins.array;
  ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
    std::uint32_t* r = Registers(thread);
    step.Ran(thread, r);
    const std::array<std::uint32_t, 3> index{r[ins.a], r[ins.b], r[ins.c]};
    long long flat = 0;
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      const int extent = array.dims[static_cast<std::size_t>(d)];
      const auto i = static_cast<std::int32_t>(index[static_cast<std::size_t>(d)]);
      if (d < array.rank && (i < 0 || i >= extent) && inside) {
        // Outside its declared extent, even where the address stays inside shared memory.
        inside = false;
        ++m_.state.counters.out_of_bounds;
        m_.LogFinding(thread, KernelFinding::Kind::kSharedOutside, i, ins.array, store);
      }
      flat = flat * extent + i;
    }
    const long long word = k_.shared_base[ins.array] + flat;
    const bool dropped = word < 0 || word >= words;
    if (&thread == first) {
      told.element = flat;
      told.outside = !inside;
      told.value = store ? AsFloat(r[ins.dst]) : dropped ? 0.0f : m_.state.shared.Cell(thread.block, static_cast<int>(word)).value;
    }
    if (dropped) {  // past the block's shared memory: dropped, reads 0
      if (!store) r[ins.dst] = 0;
      return;
    }
    SharedCell& cell = m_.state.shared.Cell(thread.block, static_cast<int>(word));
    const float value = store ? AsFloat(r[ins.dst]) : cell.value;
    if (m_.shared_accesses_can_race) {
      const Block& block = m_.state.blocks[static_cast<std::size_t>(thread.block)];
      const Warp& warp = m_.state.warps[static_cast<std::size_t>(thread.warp)];
      SharedAccess access;
      access.block = thread.block;
      access.word = static_cast<std::int32_t>(word);
      access.thread = thread.index_in_block;
      access.warp = warp.index_in_block;
      access.warp_epoch = warp.syncwarp.generation();
      // Program order between two threads, which names a race RAW or WAR by the order a
      // barrier would have imposed: loop iterations first, then the place in the code (not the
      // instructions run: a thread that skipped a guarded load is no earlier for it).
      access.stage = ProgramOrder(r[cuda::kBackEdgeSlot], thread.pc.t, k_.kernel->code.size());
      access.op = store ? Op::kStoreAs : Op::kFma;
      access.write = store;
      access.value = value;
      access.old_value = cell.value;
      HazardTally tally;
      m_.state.hazard_detector.OnAccess(access, block.syncthreads.generation(), [&](const Conflict& conflict) {
        const auto hazards = static_cast<std::uint64_t>(CountBits(conflict.earlier_lanes));
        tally.Add(conflict, hazards);
        const HazardEntry& earlier = m_.state.hazard_detector.Earlier(access, conflict);
        m_.TallyRace(RaceTally{conflict.kind, conflict.severity, PcOf(earlier.stage), PcOf(access.stage), earlier.write, hazards});
        m_.LogHazards(access, conflict, SharedPlace{TileId::kAs, ins.array, static_cast<int>(flat)});
      });
      m_.CountHazards(tally, m_.state.counters.phases[0]);
    }
    if (store) {
      cell.value = value;
      cell.writer = thread.index_in_block;
      cell.phase = 0;
      ++m_.state.counters.shared_writes;
    } else {
      if (!cell.written()) m_.LogFinding(thread, KernelFinding::Kind::kUninitializedShared, flat, ins.array);
      std::memcpy(&r[ins.dst], &cell.value, sizeof(float));
      ++m_.state.counters.shared_reads;
    }
    step.Touched(thread, word);
  });
  // Bank conflicts: the extra wavefronts of each warp-instruction (the step's lanes' for the timing).
  const int ways = SharedWavefronts(step.places, step.touched);
  int most_ways = ways;
  const Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_lanes->warp)];
  const auto conflicts = static_cast<std::uint64_t>(
      WholeWarpInstruction(warp, step) ? std::max(0, ways - 1) : Join(warp_lanes->warp, step, [&](const WarpAccessGroup& g) {
        const int group_ways = SharedWavefronts(g.places, g.touched);
        most_ways = std::max(most_ways, group_ways);
        return std::int64_t{std::max(0, group_ways - 1)};
      }));
  if (conflicts > 0) {
    const auto pc = static_cast<std::size_t>(warp_lanes[__builtin_ctz(lanes)].pc.t);
    m_.state.kernel_conflicts[pc] += conflicts;
    m_.state.kernel_ways[pc] = static_cast<std::uint8_t>(std::max<int>(m_.state.kernel_ways[pc], most_ways));
  }
  m_.state.counters.bank_conflicts += conflicts;
  m_.state.counters.phases[0].bank_conflicts += conflicts;
  issue.wavefronts = ways;
  issue.stores_shared = store;
}

void KernelMemoryAccess::CheckGlobalRace(const Thread& thread, long long element, bool write) {
  const std::int32_t writer = m_.state.c_writers[static_cast<std::size_t>(element)];
  if (writer == 0 || writer == static_cast<std::int32_t>(&thread - m_.state.threads.data()) + 1) return;
  m_.LogFinding(thread, KernelFinding::Kind::kGlobalRace, element, static_cast<int>(MatrixId::kC), write,
             m_.state.c_writer_pcs[static_cast<std::size_t>(element)]);
}

}  // namespace sim
