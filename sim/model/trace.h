// trace.h — what happened in a step, as structured events. The model reports through a
// TraceSink and never prints; the GUI's panels, the narration and `tilescope trace` read
// the same events (like sokol's trace hooks).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/model/global_memory.h"
#include "sim/model/instruction.h"
#include "sim/model/shared_memory.h"

namespace sim {

enum class EventKind : std::uint8_t {
  kGlobalLoad,      // a = A or B element read into register a/b
  kSelectZero,      // the guard failed: the register gets 0.0f, no memory read
  kSharedStore,     // register a/b stored into As/Bs
  kFma,             // As[ty][k] and Bs[k][tx] read, sum = fmaf(a, b, sum)
  kBarrierArrive,
  kBarrierRelease,  // thread = -1: every waiting thread of the scope goes on
  kHazard,          // detail in hazards()[index]
  kOutOfBounds,     // detail in out_of_bounds()[index]
  kStoreC,
  kSkipStoreC,      // the guard kept a thread outside C from storing
};

// A place an instruction read or wrote: an element of A/B/C or a cell of As/Bs.
struct Place {
  enum class Space : std::uint8_t { kNone, kGlobal, kShared } space = Space::kNone;
  MatrixId matrix = MatrixId::kA;  // when global
  TileId tile = TileId::kAs;       // when shared
  std::int32_t row = 0;
  std::int32_t col = 0;

  static Place Global(MatrixId id, int row, int col) { return {Space::kGlobal, id, TileId::kAs, row, col}; }
  static Place Shared(TileId id, int row, int col) { return {Space::kShared, MatrixId::kA, id, row, col}; }
  bool operator==(const Place& o) const {
    return space == o.space && matrix == o.matrix && tile == o.tile && row == o.row && col == o.col;
  }
};

struct TraceEvent {
  EventKind kind = EventKind::kGlobalLoad;
  Op op = Op::kDone;
  std::int32_t line = 0;    // 1-based line in the kernel source
  std::int64_t step = 0;    // the step (1-based) this event belongs to
  std::int32_t block = 0;
  std::int32_t thread = 0;  // index_in_block, -1 for a barrier release
  std::int32_t phase = 0;
  Place from{};             // load: the element; fma: As[ty][k]; store: none
  Place from2{};            // fma: Bs[k][tx]
  Place to{};               // store: the cell or element written
  float value = 0.0f;       // value moved; fma: the new sum
  float operand_a = 0.0f;   // fma operands
  float operand_b = 0.0f;
  std::int32_t index = -1;  // hazard / out-of-bounds index; barrier release: threads released
  bool operator==(const TraceEvent& o) const;
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void OnEvent(const TraceEvent& event) = 0;
};

// Keeps every event it is given (tests, the CLI, exports).
class CollectingSink : public TraceSink {
 public:
  void OnEvent(const TraceEvent& event) override { events.push_back(event); }
  std::vector<TraceEvent> events;
};

}  // namespace sim
