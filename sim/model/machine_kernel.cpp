// machine_kernel.cpp — the machine running a student's compiled kernel (sim/cuda).
//
// The same state as a lesson's run: threads, warps and blocks, the scheduler, the barriers,
// shared memory with its hazard detector, C, the read and sector counters, the logs; so a
// snapshot, a checkpoint and step back work unchanged. What differs is what a thread runs:
// instead of the lesson's Program, a thread's registers and instructions (cuda::ir.h). A
// step is one visible instruction (a global or shared access, a barrier, the exit) of the
// lanes the scheduler picks; the register instructions after it run at once, up to the next
// visible one (RunAhead), so a thread always stands at the instruction its next step runs.
//
// Lanes of a warp at one instruction issue together; where they diverge, the lowest
// instruction runs first (reconvergence at the smallest program counter: a loop's body lies
// below its exit, a branch's two sides below the code after them), so divergence within a
// warp is real: each lane has its own control flow and its own registers.
#include <algorithm>
#include <cstring>
#include <limits>

#include "sim/cuda/interpreter.h"
#include "sim/model/bits.h"
#include "sim/model/machine.h"

namespace sim {
namespace {

constexpr std::int64_t kMaxKernelThreads = std::int64_t{1} << 22;
constexpr std::int64_t kMaxRegisterBytes = std::int64_t{1} << 30;
// The SM's limits for the realistic scheduler's blocks per SM (an H100's; registers not modelled).
constexpr int kWarpsPerSm = 64;
constexpr int kBlocksPerSm = 32;
constexpr int kSharedBytesPerSm = 228 * 1024;
constexpr int kSharedBytesReservedPerBlock = 1024;

template <typename Run>
void ForEachKernelLane(Thread* warp_lanes, std::uint32_t lanes, Run&& run) {
  for (; lanes != 0; lanes &= lanes - 1) run(warp_lanes[__builtin_ctz(lanes)]);
}

float AsFloat(std::uint32_t bits) { return cuda::AsFloat(bits); }

// Saturates past 2^31 (a 200-instruction kernel after 10 million loop iterations).
std::int32_t ProgramOrder(std::uint32_t back_edges, std::int32_t pc, std::size_t code_size) {
  const std::int64_t order = static_cast<std::int64_t>(back_edges) * static_cast<std::int64_t>(code_size) + pc;
  return static_cast<std::int32_t>(std::min<std::int64_t>(order, std::numeric_limits<std::int32_t>::max()));
}

}  // namespace

std::optional<std::string> ValidateLaunch(const KernelLaunch& launch) {
  if (launch.kernel == nullptr) return "no kernel";
  long long threads_per_block = 1;
  long long blocks = 1;
  for (int d = 0; d < 3; ++d) {
    if (launch.block[static_cast<std::size_t>(d)] < 1 || launch.grid[static_cast<std::size_t>(d)] < 1) {
      return "the block and the grid need at least 1 along each axis";
    }
    threads_per_block *= launch.block[static_cast<std::size_t>(d)];
    blocks *= launch.grid[static_cast<std::size_t>(d)];
  }
  if (threads_per_block > kMaxThreadsPerBlock) return "a block of " + std::to_string(threads_per_block) + " threads is more than 1024";
  if (launch.block[2] > 64) return "a block is at most 64 threads along z";
  if (blocks > kMaxKernelThreads || threads_per_block * blocks > kMaxKernelThreads) {
    return "the launch has " + std::to_string(threads_per_block * blocks) + " threads, more than the model runs (" +
           std::to_string(kMaxKernelThreads) + ")";
  }
  if (threads_per_block * blocks * launch.kernel->RegisterCount() * 4 > kMaxRegisterBytes) return "the threads' registers would take more than 1 GiB";
  if (launch.m < 1 || launch.n < 1 || launch.k < 1 || launch.m > kMaxDimension || launch.n > kMaxDimension || launch.k > kMaxDimension) {
    return "the sizes must be 1 to " + std::to_string(kMaxDimension);
  }
  if (launch.arguments.size() != launch.kernel->parameters.size()) return "an argument for each parameter";
  if (launch.instruction_budget < 1) return "the instruction budget must be at least 1";
  return std::nullopt;
}

Machine::Machine(const KernelLaunch& launch, std::vector<float> a, std::vector<float> b)
    : memory_(launch.m, launch.n, launch.k, std::move(a), std::move(b)), kernel_(launch.kernel), launch_(launch) {
  const cuda::CompiledKernel& k = *kernel_;
  register_count_ = static_cast<std::size_t>(k.RegisterCount());
  config_.m = launch.m;
  config_.n = launch.n;
  config_.k = launch.k;
  config_.scheduler = launch.scheduler;
  config_.seed = launch.seed;
  Geometry& g = geometry_;
  g.m = launch.m;
  g.n = launch.n;
  g.k = launch.k;
  g.tn = launch.block[0];
  g.tm = launch.block[1] * launch.block[2];
  g.grid_x = launch.grid[0];
  g.grid_y = launch.grid[1] * launch.grid[2];
  g.blocks = g.grid_x * g.grid_y;
  g.block_threads = g.tn * g.tm;
  g.warps_per_block = (g.block_threads + kWarpSize - 1) / kWarpSize;
  g.phases = 1;
  int words = 0;
  for (const cuda::SharedArray& array : k.shared) {
    shared_base_.push_back(words);
    words += array.Words();
  }
  shared_accesses_can_race_ = words > 0;
  state_.shared = SharedMemory::Words(g.blocks, words);
  state_.hazard_detector = HazardDetector(g.blocks, words);
  const int shared_bytes = words * 4;
  const int by_shared = shared_bytes == 0 ? kBlocksPerSm : kSharedBytesPerSm / (shared_bytes + kSharedBytesReservedPerBlock);
  const int blocks_per_sm = std::max(1, std::min({kBlocksPerSm, kWarpsPerSm / g.warps_per_block, by_shared}));
  state_.scheduler = Scheduler(launch.scheduler, launch.seed, g.threads(), g.warps(), g.warps_per_block, blocks_per_sm);
  state_.reads = GlobalReadCounter(g.m * g.k, g.k * g.n, g.blocks);
  state_.c.assign(static_cast<std::size_t>(g.m) * g.n, 0.0f);
  state_.c_written.assign(state_.c.size(), 0);
  state_.counters.phases.assign(1, PhaseCounters{});
  state_.registers.assign(static_cast<std::size_t>(g.threads()) * register_count_, 0u);
  state_.kernel_conflicts.assign(k.code.size(), 0);
  state_.kernel_ways.assign(k.code.size(), 0);
  state_.c_writers.assign(state_.c.size(), 0);
  state_.c_writer_pcs.assign(state_.c.size(), 0);
  InitThreads();
}

void Machine::StartKernelThread(Thread& thread) {
  const cuda::CompiledKernel& k = *kernel_;
  std::uint32_t* r = KernelRegisters(thread);
  std::copy(k.initial_registers.begin(), k.initial_registers.end(), r);
  const int i = thread.index_in_block;
  const int bx = launch_.block[0];
  const int bxy = launch_.block[0] * launch_.block[1];
  const int grid_xy = launch_.grid[0] * launch_.grid[1];
  const int linear_block = thread.block;
  const std::array<int, 12> special{i % bx, i / bx % launch_.block[1], i / bxy,
                                    linear_block % launch_.grid[0], linear_block / launch_.grid[0] % launch_.grid[1],
                                    linear_block / grid_xy, launch_.block[0], launch_.block[1], launch_.block[2],
                                    launch_.grid[0], launch_.grid[1], launch_.grid[2]};
  for (std::size_t s = 0; s < special.size(); ++s) r[s] = static_cast<std::uint32_t>(special[s]);
  for (std::size_t p = 0; p < k.parameters.size(); ++p) {
    // A pointer's register is its offset into its matrix, 0 at the start; an int's is its value.
    if (!k.parameters[p].pointer) r[k.parameters[p].slot] = static_cast<std::uint32_t>(launch_.arguments[p]);
  }
  thread.pc = ProgramCounter{Op::kDone, 0, 0};
  thread.state = ThreadState::kRunning;
  SetRunnable(thread, true);
  RunAhead(thread);
}

Op Machine::OpLike(cuda::Opcode op) {
  switch (op) {
    case cuda::Opcode::kLoadGlobal: return Op::kLoadA;
    case cuda::Opcode::kStoreGlobal: return Op::kStoreC;
    case cuda::Opcode::kStoreShared: return Op::kStoreAs;
    case cuda::Opcode::kLoadShared: return Op::kFma;
    case cuda::Opcode::kSyncthreads:
    case cuda::Opcode::kSyncwarp: return Op::kBarrier1;
    case cuda::Opcode::kExit: return Op::kDone;
    default: return Op::kFma;
  }
}

void Machine::RunAhead(Thread& thread) {
  const cuda::CompiledKernel& k = *kernel_;
  std::uint32_t* r = KernelRegisters(thread);
  std::int32_t pc = thread.pc.t;
  while (true) {
    const std::int64_t left = std::int64_t{launch_.instruction_budget} - thread.instructions;
    if (left <= 0) {
      // Not terminating: stopped where it was, named by its line.
      thread.pc = ProgramCounter{Op::kDone, pc, 0};
      LogFinding(thread, KernelFinding::Kind::kBudget);
      KernelExit(thread);
      return;
    }
    std::uint64_t executed = 0;
    const cuda::Stop stop = cuda::RunToVisible(k.code.data(), r, pc, static_cast<std::uint64_t>(left), executed);
    thread.instructions += static_cast<std::int32_t>(executed);
    state_.counters.thread_instructions += executed;
    if (stop == cuda::Stop::kVisible) break;
    if (stop == cuda::Stop::kLocalOutside) {
      // Reported, then skipped: a read gives 0, a store is dropped.
      const cuda::Instruction& ins = k.code[static_cast<std::size_t>(pc)];
      thread.pc.t = pc;
      LogFinding(thread, KernelFinding::Kind::kLocalOutside, static_cast<std::int32_t>(r[ins.b]), 0, ins.op == cuda::Opcode::kStoreLocal);
      if (ins.op == cuda::Opcode::kLoadLocal) r[ins.dst] = 0;
      ++pc;
      ++thread.instructions;
      ++state_.counters.thread_instructions;
    }
  }
  thread.pc = ProgramCounter{OpLike(k.code[static_cast<std::size_t>(pc)].op), pc, 0};
}

bool Machine::StepKernel() {
  Unit unit;
  if (!state_.scheduler.Next(unit)) {
    if (!Finished() && !deadlock_logged_) {
      // Nothing can run, yet threads wait: at a barrier no release can come to.
      for (const Thread& thread : state_.threads) {
        if (thread.state != ThreadState::kDone) {
          LogFinding(thread, KernelFinding::Kind::kDeadlock);
          break;
        }
      }
      deadlock_logged_ = true;
    }
    return false;
  }
  ++state_.step;
  ++state_.counters.steps;
  state_.counters.barrier_stall_steps += static_cast<std::uint64_t>(state_.waiting_threads);
  state_.last_unit = unit;
  StepRecord& record = state_.last_step;
  record = StepRecord{};  // a kernel's steps are told by the state and the logs, not events
  record.hazard_log_size = state_.hazard_log_size;
  record.out_of_bounds_log_size = state_.out_of_bounds_log_size;
  step_events_built_ = false;
  if (unit.is_warp) {
    const Warp& warp = state_.warps[static_cast<std::size_t>(unit.index)];
    Thread* const warp_lanes = &state_.threads[static_cast<std::size_t>(warp.first_thread)];
    const Scheduler::Issue issue = ExecuteKernelLanes(warp_lanes, EarliestLanes(warp));
    state_.scheduler.OnIssued(unit.index, issue);
  } else {
    Thread& thread = state_.threads[static_cast<std::size_t>(unit.index)];
    ExecuteKernelLanes(&thread - thread.lane, 1u << thread.lane);
  }
  return true;
}

Scheduler::Issue Machine::ExecuteKernelLanes(Thread* warp_lanes, std::uint32_t lanes) {
  Scheduler::Issue issue;
  if (lanes == 0) return issue;
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const cuda::Instruction& ins = kernel_->code[static_cast<std::size_t>(first.pc.t)];
  const auto line = static_cast<std::int16_t>(std::min(kernel_->positions[static_cast<std::size_t>(first.pc.t)].line, 32767));
  ForEachKernelLane(warp_lanes, lanes, [&](Thread& thread) {
    thread.last_line = line;
    ++thread.instructions;
  });
  state_.counters.thread_instructions += static_cast<std::uint64_t>(CountBits(lanes));
  switch (ins.op) {
    case cuda::Opcode::kLoadGlobal:
    case cuda::Opcode::kStoreGlobal:
      KernelGlobal(warp_lanes, lanes, ins, issue);
      break;
    case cuda::Opcode::kLoadShared:
    case cuda::Opcode::kStoreShared:
      KernelShared(warp_lanes, lanes, ins, issue);
      break;
    case cuda::Opcode::kSyncthreads:
    case cuda::Opcode::kSyncwarp:
      KernelArrive(warp_lanes, lanes, ins.op == cuda::Opcode::kSyncthreads);
      return issue;  // the release moves them on
    default:  // exit
      ForEachKernelLane(warp_lanes, lanes, [&](Thread& thread) { KernelExit(thread); });
      return issue;
  }
  ForEachKernelLane(warp_lanes, lanes, [&](Thread& thread) {
    ++thread.pc.t;
    RunAhead(thread);
  });
  return issue;
}

void Machine::KernelGlobal(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue) {
  const auto id = static_cast<MatrixId>(launch_.arguments[ins.array]);
  const bool store = ins.op == cuda::Opcode::kStoreGlobal;
  const long long size = static_cast<long long>(memory_.rows(id)) * memory_.cols(id);
  const float* const values = id == MatrixId::kA ? memory_.a().data() : (id == MatrixId::kB ? memory_.b().data() : state_.c.data());
  Sectors sectors;
  std::uint64_t reads = 0;
  int block = 0;
  ForEachKernelLane(warp_lanes, lanes, [&](Thread& thread) {
    std::uint32_t* r = KernelRegisters(thread);
    block = thread.block;
    const long long element = static_cast<long long>(static_cast<std::int32_t>(r[ins.a])) + static_cast<std::int32_t>(r[ins.b]);
    if (element < 0 || element >= size) {
      ++state_.counters.out_of_bounds;
      LogFinding(thread, KernelFinding::Kind::kGlobalOutside, element, static_cast<int>(id), store);
      if (!store) r[ins.dst] = 0;
      return;
    }
    sectors.Add(id, element);
    if (id == MatrixId::kC) CheckGlobalRace(thread, element, store);
    if (!store) {
      r[ins.dst] = cuda::FloatBits(values[element]);
      if (id != MatrixId::kC) {
        state_.reads.CountElement(id, element);
        ++reads;
      }
      return;
    }
    if (id != MatrixId::kC) {
      LogFinding(thread, KernelFinding::Kind::kInputWritten, element, static_cast<int>(id), true);
      return;
    }
    state_.c[static_cast<std::size_t>(element)] = AsFloat(r[ins.dst]);
    state_.c_written[static_cast<std::size_t>(element)] = 1;
    state_.c_writers[static_cast<std::size_t>(element)] = static_cast<std::int32_t>(&thread - state_.threads.data()) + 1;
    state_.c_writer_pcs[static_cast<std::size_t>(element)] = thread.pc.t;
    ++state_.counters.global_writes;
  });
  state_.counters.global_sectors += static_cast<std::uint64_t>(sectors.distinct);
  state_.counters.phases[0].global_sectors += static_cast<std::uint64_t>(sectors.distinct);
  if (!store) {
    issue.l2_halves = sectors.l2_halves == 0 ? 1 : sectors.l2_halves;  // a load waits for memory
    issue.sectors = sectors.distinct;
  }
  if (reads > 0) {
    state_.reads.CountBlock(id, block, reads);
    (id == MatrixId::kA ? state_.counters.global_reads_a : state_.counters.global_reads_b) += reads;
    (id == MatrixId::kA ? state_.counters.phases[0].global_reads_a : state_.counters.phases[0].global_reads_b) += reads;
  }
}

void Machine::KernelShared(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue) {
  const cuda::SharedArray& array = kernel_->shared[ins.array];
  const bool store = ins.op == cuda::Opcode::kStoreShared;
  const int words = state_.shared.CellsPerBlock();
  std::array<int, kWarpSize> lane_words{};
  std::uint32_t accessed = 0;
  ForEachKernelLane(warp_lanes, lanes, [&](Thread& thread) {
    std::uint32_t* r = KernelRegisters(thread);
    const std::array<std::uint32_t, 3> index{r[ins.a], r[ins.b], r[ins.c]};
    long long flat = 0;
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      const int extent = array.dims[static_cast<std::size_t>(d)];
      const auto i = static_cast<std::int32_t>(index[static_cast<std::size_t>(d)]);
      if (d < array.rank && (i < 0 || i >= extent) && inside) {
        // Outside its declared extent, even where the address stays inside shared memory.
        inside = false;
        ++state_.counters.out_of_bounds;
        LogFinding(thread, KernelFinding::Kind::kSharedOutside, i, ins.array, store);
      }
      flat = flat * extent + i;
    }
    const long long word = shared_base_[ins.array] + flat;
    if (word < 0 || word >= words) {  // past the block's shared memory: dropped, reads 0
      if (!store) r[ins.dst] = 0;
      return;
    }
    SharedCell& cell = state_.shared.Cell(thread.block, static_cast<int>(word));
    const float value = store ? AsFloat(r[ins.dst]) : cell.value;
    if (shared_accesses_can_race_) {
      const Block& block = state_.blocks[static_cast<std::size_t>(thread.block)];
      const Warp& warp = state_.warps[static_cast<std::size_t>(thread.warp)];
      SharedAccess access;
      access.block = thread.block;
      access.word = static_cast<std::int32_t>(word);
      access.thread = thread.index_in_block;
      access.warp = warp.index_in_block;
      access.warp_epoch = warp.syncwarp.generation();
      // Program order between two threads, which names a race RAW or WAR by the order a
      // barrier would have imposed: loop iterations first, then the place in the code (not the
      // instructions run: a thread that skipped a guarded load is no earlier for it).
      access.stage = ProgramOrder(r[cuda::kBackEdgeSlot], thread.pc.t, kernel_->code.size());
      access.op = store ? Op::kStoreAs : Op::kFma;
      access.write = store;
      access.value = value;
      access.old_value = cell.value;
      HazardTally tally;
      state_.hazard_detector.OnAccess(access, block.syncthreads.generation(), [&](const Conflict& conflict) {
        tally.Add(conflict, static_cast<std::uint64_t>(CountBits(conflict.earlier_lanes)));
        LogHazards(access, conflict, SharedPlace{TileId::kAs, ins.array, static_cast<int>(flat)});
      });
      CountHazards(tally, state_.counters.phases[0]);
    }
    if (store) {
      cell.value = value;
      cell.writer = thread.index_in_block;
      cell.phase = 0;
      ++state_.counters.shared_writes;
    } else {
      if (!cell.written()) LogFinding(thread, KernelFinding::Kind::kUninitializedShared, flat, ins.array);
      std::memcpy(&r[ins.dst], &cell.value, sizeof(float));
      ++state_.counters.shared_reads;
    }
    lane_words[static_cast<std::size_t>(thread.lane)] = static_cast<int>(word);
    accessed |= 1u << thread.lane;
  });
  // Bank conflicts: the most distinct words any bank serves is the wavefronts the access takes.
  std::array<std::uint32_t, kSharedBanks> bank_lanes{};
  int ways = accessed == 0 ? 0 : 1;
  for (std::uint32_t rest = accessed; rest != 0; rest &= rest - 1) {
    const int lane = __builtin_ctz(rest);
    const int word = lane_words[static_cast<std::size_t>(lane)];
    const int bank = word % kSharedBanks;
    bool seen = false;
    int distinct = 0;
    for (std::uint32_t others = bank_lanes[static_cast<std::size_t>(bank)]; others != 0; others &= others - 1) {
      const int other = __builtin_ctz(others);
      if (lane_words[static_cast<std::size_t>(other)] == word) seen = true;
      bool first_of_word = true;
      for (std::uint32_t before = bank_lanes[static_cast<std::size_t>(bank)] & ((1u << other) - 1); before != 0; before &= before - 1) {
        first_of_word &= lane_words[static_cast<std::size_t>(__builtin_ctz(before))] != lane_words[static_cast<std::size_t>(other)];
      }
      distinct += first_of_word;
    }
    bank_lanes[static_cast<std::size_t>(bank)] |= 1u << lane;
    ways = std::max(ways, distinct + (seen ? 0 : 1));
  }
  const auto conflicts = static_cast<std::uint64_t>(std::max(0, ways - 1));
  if (conflicts > 0) {
    const auto pc = static_cast<std::size_t>(warp_lanes[__builtin_ctz(lanes)].pc.t);
    state_.kernel_conflicts[pc] += conflicts;
    state_.kernel_ways[pc] = static_cast<std::uint8_t>(std::max<int>(state_.kernel_ways[pc], ways));
  }
  state_.counters.bank_conflicts += conflicts;
  state_.counters.phases[0].bank_conflicts += conflicts;
  issue.wavefronts = ways;
  issue.stores_shared = store;
}

void Machine::KernelArrive(Thread* warp_lanes, std::uint32_t lanes, bool block_barrier) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int n = CountBits(lanes);
  state_.counters.barrier_arrivals += static_cast<std::uint64_t>(n);
  state_.counters.phases[0].barrier_arrivals += static_cast<std::uint64_t>(n);
  const ThreadState waiting = block_barrier ? ThreadState::kWaitingBarrier1 : ThreadState::kWaitingBarrier2;
  ForEachKernelLane(warp_lanes, lanes, [&](Thread& thread) {
    thread.state = waiting;
    state_.scheduler.SetThreadRunnable(static_cast<int>(&thread - state_.threads.data()), false);
  });
  AddRunnableLanes(first.warp, -n);
  state_.waiting_threads += n;
  Barrier& barrier = block_barrier ? state_.blocks[static_cast<std::size_t>(first.block)].syncthreads
                                   : state_.warps[static_cast<std::size_t>(first.warp)].syncwarp;
  for (int i = 0; i < n; ++i) barrier.Arrive();
  if (block_barrier) {
    KernelTryReleaseBlock(first.block);
  } else {
    KernelTryReleaseWarp(first.warp);
  }
}

void Machine::KernelTryReleaseBlock(int block_index) {
  Block& block = state_.blocks[static_cast<std::size_t>(block_index)];
  if (!block.syncthreads.CanRelease(block.LiveThreads())) return;
  // Every thread of the block must reach the same __syncthreads(): one that exited before it,
  // or waits at another, makes this release one CUDA leaves undefined.
  const Thread* reached = nullptr;
  bool divergent = block.syncthreads.arrived() < block.thread_count;
  for (int i = 0; i < block.thread_count; ++i) {
    const Thread& thread = state_.threads[static_cast<std::size_t>(block.first_thread + i)];
    if (thread.state != ThreadState::kWaitingBarrier1) continue;
    if (reached == nullptr) reached = &thread;
    divergent = divergent || thread.pc.t != reached->pc.t;
  }
  if (divergent && reached != nullptr) LogFinding(*reached, KernelFinding::Kind::kDivergentBarrier);
  block.syncthreads.Release();
  state_.hazard_detector.OnBlockBarrier(block_index);
  ++state_.counters.barrier_releases;
  for (int w = 0; w < block.warp_count; ++w) KernelWake(block.first_warp + w, ThreadState::kWaitingBarrier1);
}

void Machine::KernelTryReleaseWarp(int warp_index) {
  Warp& warp = state_.warps[static_cast<std::size_t>(warp_index)];
  if (!warp.syncwarp.CanRelease(warp.lane_count - warp.exited_lanes)) return;
  warp.syncwarp.Release();
  ++state_.counters.barrier_releases;
  KernelWake(warp_index, ThreadState::kWaitingBarrier2);
}

int Machine::KernelWake(int warp_index, ThreadState waiting) {
  Warp& warp = state_.warps[static_cast<std::size_t>(warp_index)];
  Thread* const warp_lanes = &state_.threads[static_cast<std::size_t>(warp.first_thread)];
  std::uint32_t woken = 0;
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    Thread& thread = warp_lanes[lane];
    if (thread.state != waiting) continue;
    thread.state = ThreadState::kRunning;
    state_.scheduler.SetThreadRunnable(warp.first_thread + lane, true);
    woken |= 1u << lane;
  }
  if (woken == 0) return 0;
  const int count = CountBits(woken);
  state_.waiting_threads -= count;
  AddRunnableLanes(warp_index, count, true);
  // Moved past the barrier once all of them are runnable again: one that runs out of budget on
  // the way exits, which may release another barrier.
  ForEachKernelLane(warp_lanes, woken, [&](Thread& thread) {
    ++thread.pc.t;
    RunAhead(thread);
  });
  return count;
}

void Machine::KernelExit(Thread& thread) {
  if (thread.state == ThreadState::kDone) return;
  if (thread.state != ThreadState::kRunning) {
    --state_.waiting_threads;
  } else {
    SetRunnable(thread, false);
  }
  thread.state = ThreadState::kDone;
  ++state_.exited_threads;
  Warp& warp = state_.warps[static_cast<std::size_t>(thread.warp)];
  Block& block = state_.blocks[static_cast<std::size_t>(thread.block)];
  ++warp.exited_lanes;
  ++block.exited_threads;
  // An exited thread no longer counts at a barrier: the others may now be complete.
  if (block.syncthreads.arrived() > 0) KernelTryReleaseBlock(thread.block);
  if (warp.syncwarp.arrived() > 0) KernelTryReleaseWarp(thread.warp);
  if (block.LiveThreads() == 0) {
    state_.hazard_detector.OnBlockExit(thread.block);
    state_.scheduler.OnBlockExit(thread.block);
  }
}

void Machine::CheckGlobalRace(const Thread& thread, long long element, bool write) {
  const std::int32_t writer = state_.c_writers[static_cast<std::size_t>(element)];
  if (writer == 0 || writer == static_cast<std::int32_t>(&thread - state_.threads.data()) + 1) return;
  LogFinding(thread, KernelFinding::Kind::kGlobalRace, element, static_cast<int>(MatrixId::kC), write,
             state_.c_writer_pcs[static_cast<std::size_t>(element)]);
}

void Machine::LogFinding(const Thread& thread, KernelFinding::Kind kind, std::int64_t element, int array, bool write,
                         std::int32_t other_pc) {
  if (logs_.kernel_findings.size() >= kMaxLoggedOutOfBounds) return;
  logs_.kernel_findings.push_back(KernelFinding{kind, state_.step, thread.block, thread.index_in_block, thread.pc.t,
                                                element, static_cast<std::uint8_t>(array), write, other_pc});
  state_.kernel_finding_log_size = logs_.kernel_findings.size();
}

}  // namespace sim
