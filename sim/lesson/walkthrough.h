// walkthrough.h — the phase-by-phase story of a run, as the 4×4 walkthrough exercise tells
// it: for each block and tile phase, which columns of A and rows of B it loaded, how many global reads that
// took, what it stored into As and Bs, and each thread's partial sum when the phase's inner
// product ended; and the products that make C[0][0].
//
// A TraceSink: everything is taken from the events the model emits, so the story is the
// run that happened (a race shows up in the partial sums). Only the first `max_blocks`
// blocks are kept, so a 256³ run costs no memory per event.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/model/geometry.h"
#include "sim/model/trace.h"

namespace sim {

// Columns of A (rows of B) a phase asked for; -1 when it asked for none.
struct IndexRange {
  int first = -1;
  int last = -1;
  void Include(int index);
  bool empty() const { return first < 0; }
};

struct PhaseRecord {
  int phase = 0;
  IndexRange a_rows;  // the part of A the block's loads named (padding included)
  IndexRange a_cols;
  IndexRange b_rows;  // ... and of B
  IndexRange b_cols;
  std::uint64_t reads_a = 0;  // loads that reached global memory
  std::uint64_t reads_b = 0;
  std::uint64_t select_zero = 0;     // guarded loads past the edge: zero padding, no read
  std::vector<float> as;             // tm×tk: what this phase stored; SharedPoison() where nothing
  std::vector<float> bs;             // tk×tn
  std::vector<float> sums;           // tm×tn by thread: the sum after its last product of this phase
  std::vector<std::uint8_t> summed;  // 1 where the thread ran a product in this phase
};

struct BlockRecord {
  int block = 0;
  std::vector<PhaseRecord> phases;
};

// One product of C[0][0] (thread (0,0) of block (0,0)), in the order it ran.
struct ProductTerm {
  int phase = 0;
  float a = 0.0f;
  float b = 0.0f;
  float sum = 0.0f;  // after this product
};

class WalkthroughRecorder : public TraceSink {
 public:
  WalkthroughRecorder(const Geometry& geometry, int max_blocks);

  void OnEvent(const TraceEvent& event) override;

  const std::vector<BlockRecord>& blocks() const { return blocks_; }
  const std::vector<ProductTerm>& first_element_terms() const { return first_element_terms_; }

 private:
  PhaseRecord* Find(const TraceEvent& event);
  void OnLoad(PhaseRecord& phase, const TraceEvent& event);
  void OnStore(PhaseRecord& phase, const TraceEvent& event) const;

  Geometry geometry_;
  std::vector<BlockRecord> blocks_;
  std::vector<ProductTerm> first_element_terms_;
};

}  // namespace sim
