// snapshot.h — a read-only view of the model at the current step: what every panel and
// the CLI draw. It reads the machine in place (no copy), so take a fresh one after each
// step; it never changes the model.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/model/machine.h"

namespace sim {

// How a shared cell's value stands against the phase its block works on: written in it
// (fresh), in an earlier one (stale), or already in a later one — a thread ran ahead past a
// missing 2nd barrier and overwrote the tile while others still read it (the WAR race).
enum class CellFreshness : std::uint8_t { kNeverWritten, kFresh, kStale, kAhead };

// An element of C as the lesson shows it.
enum class CProgress : std::uint8_t { kNotStarted, kPartial, kFinal };
struct CElement {
  CProgress progress = CProgress::kNotStarted;
  int phase = -1;       // kPartial: the sum holds phases 0..phase (naive kernel: k products so far)
  float value = 0.0f;   // kFinal: C in memory; kPartial: the owning thread's sum
  int block = 0;        // the thread that computes it
  int thread = 0;       // index_in_block
};

// Who read an element of A or B (the hover): every logged read, and the count per phase.
struct ReaderSummary {
  std::uint32_t reads = 0;                    // counted, also past the log's limit
  std::vector<ReadRecord> readers;            // in step order
  std::vector<std::uint32_t> reads_by_phase;  // one entry per phase
};

class Snapshot {
 public:
  explicit Snapshot(const Machine& machine) : machine_(&machine), state_(&machine.state()) {}

  const KernelConfig& config() const { return machine_->config(); }
  // The student's kernel on show (its source lines, its shared arrays), or nullptr for a lesson's.
  const cuda::CompiledKernel* kernel() const { return machine_->kernel(); }
  const Geometry& geometry() const { return machine_->geometry(); }
  std::int64_t step() const { return state_->step; }
  bool finished() const { return machine_->Finished(); }

  // Grid, blocks, warps, threads.
  const std::vector<Block>& blocks() const { return state_->blocks; }
  const std::vector<Warp>& warps() const { return state_->warps; }
  const std::vector<Thread>& threads() const { return state_->threads; }
  const Thread& thread(int block, int index_in_block) const;
  int BlockIndex(int bx, int by) const { return by * geometry().grid_x + bx; }
  // The line a thread runs next (the barrier's while it waits there; 0 when done).
  int NextLine(const Thread& thread) const;
  // Line → threads not done that run it next, as NextLine gives each: one pass counting by
  // instruction, for a view that marks every line each frame (a 512³ lesson has 262,144 threads).
  std::map<int, int> ThreadsByNextLine() const;
  // The phase a block works on: the lowest phase among its running threads (-1 when done).
  // Threads past the loop, storing C, count as in the last phase: there is no phase after it.
  int BlockPhase(int block) const;
  // The unit that ran last, its block and its phase.
  Unit last_unit() const { return state_->last_unit; }
  int current_block() const;
  int current_phase() const;
  int LastPhase() const { return std::max(geometry().phases - 1, 0); }

  // Shared memory.
  SharedTile tile(int block, TileId id) const { return state_->shared.Tile(block, id); }
  CellFreshness Freshness(int block, TileId id, int row, int col) const;
  // A student's kernel: word `index` (row-major, outermost first) of its shared array `array`
  // in `block`; its arrays lie one after another as declared.
  const SharedCell& SharedWord(int block, int array, int index) const;

  // Global memory.
  float a(int row, int col) const { return machine_->memory().a()[Index(MatrixId::kA, row, col)]; }
  float b(int row, int col) const { return machine_->memory().b()[Index(MatrixId::kB, row, col)]; }
  std::uint32_t ReadsOf(MatrixId id, int row, int col) const;
  ReaderSummary Readers(MatrixId id, int row, int col) const;
  std::uint64_t ReadsByBlock(MatrixId id, int block) const { return state_->reads.ReadsByBlock(id, block); }
  CElement c(int row, int col) const;
  // All of C, row by row, each element as c() gives it: one pass over the threads block by
  // block, for a view that draws every element each frame (a 512² C has 262,144).
  void ReadC(std::vector<CElement>& c) const;

  // What happened.
  const Counters& counters() const { return state_->counters; }
  const std::vector<Hazard>& hazards() const { return machine_->logs().hazards; }
  const std::vector<OutOfBoundsAccess>& out_of_bounds() const { return machine_->logs().out_of_bounds; }
  const std::vector<TraceEvent>& last_step_events() const { return machine_->last_step_events(); }
  // A student's kernel: what its last step did (kernel steps have no events), and the index
  // in hazards() of the first hazard that step logged.
  const KernelStepRecord& last_kernel_step() const { return state_->last_step.kernel; }
  std::size_t first_hazard_of_last_step() const { return state_->last_step.hazard_log_size; }
  // Threads of `block` that have run the instruction at `pc` or gone past it (narration).
  int ThreadsAtOrPast(int block, const ProgramCounter& pc) const;

  // The whole state, for exact comparison (step back, then forward, gives the same).
  const MachineState& state() const { return *state_; }

 private:
  CElement ElementOf(int row, int col, int block, int thread_in_block) const;
  std::size_t Index(MatrixId id, int row, int col) const {
    return static_cast<std::size_t>(row) * static_cast<std::size_t>(machine_->memory().cols(id)) +
           static_cast<std::size_t>(col);
  }

  const Machine* machine_;
  const MachineState* state_;
};

// "(x, y)" as CUDA writes threadIdx and blockIdx.
std::string Coordinates(int x, int y);

}  // namespace sim
