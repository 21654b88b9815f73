// global_memory.h — A (M×K), B (K×N) and C (M×N) in device memory, and who touched them.
//
// GlobalMemory owns the values and the out-of-bounds rule: with the bounds guard off, a
// read outside the matrix returns the element at that linear index while it lies inside
// the allocation (what the GPU does) and a NaN poison past it; either way it is flagged,
// like compute-sanitizer memcheck's "invalid global read". GlobalReadCounter counts reads
// per element, per block and (through the simulation's counters) per phase; ReadLog lists
// them, who read what and when.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sim {

enum class MatrixId : std::uint8_t { kA, kB, kC };

// A global read past the end of an allocation returns this (shown as "NaN").
inline float GlobalPoison() {
  const std::uint32_t bits = 0x7fc0beef;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// One global read of an element of A or B: who read it and when (the GUI's hover).
struct ReadRecord {
  std::int64_t step = 0;
  std::int32_t element = 0;  // row-major index in its matrix
  std::int32_t block = 0;
  std::int16_t thread = 0;   // index_in_block
  std::int16_t phase = 0;
  MatrixId matrix = MatrixId::kA;
  bool operator==(const ReadRecord& o) const;
};

// The global reads of a run, in step order, as the GUI's hover lists them (ReadRecord). It
// holds millions, reserved up front and each page faulted in as it fills, so what the reads of
// one step share (the step, phase, matrix and warp) is kept once, in a LoggedLoad, and each read
// is 8 bytes: its element, its load and its lane (256³ TILE 16, both barriers: the log 33.6 →
// 17.8 MB, RunToEnd's minor faults 23,452 → 19,612, for 4 M more instructions; 0313858).
class ReadLog {
 public:
  // A step's reads: step (48 bits: reads past step 2^48 are not logged) and phase in one word,
  // the index of its warp's lane 0 among the launch's threads (fewer than 2^31) with the
  // matrix in the top bit. No default values: filled when made.
  struct LoggedLoad {
    std::uint64_t step_and_phase;
    std::uint32_t lane0_and_matrix;
  };
  struct LoggedRead {
    std::int32_t element;
    std::uint32_t load_and_lane;  // the LoggedLoad's index · 32 + the reading thread's lane
  };
  static constexpr int kStepBits = 48;
  static constexpr std::int64_t kStepLimit = std::int64_t{1} << kStepBits;
  static constexpr int kLaneBits = 5;  // load_and_lane names loads below 2^27
  static constexpr std::uint32_t kLaneMask = (1u << kLaneBits) - 1;
  static constexpr int kMatrixBit = 31;  // of lane0_and_matrix: set for B
  static constexpr std::uint32_t kLane0Mask = (1u << kMatrixBit) - 1;

  static LoggedLoad Load(std::int64_t step, std::int16_t phase, std::int32_t lane0, MatrixId matrix) {
    return {static_cast<std::uint64_t>(step) | std::uint64_t{static_cast<std::uint16_t>(phase)} << kStepBits,
            static_cast<std::uint32_t>(lane0) | static_cast<std::uint32_t>(matrix == MatrixId::kB) << kMatrixBit};
  }
  // Bytes reserved for at most `reads` reads by at most `loads` loads.
  static std::size_t Bytes(std::size_t reads, std::size_t loads) {
    return reads * sizeof(LoggedRead) + loads * sizeof(LoggedLoad);
  }
  void Reserve(std::size_t reads, std::size_t loads) {
    reads_.reserve(reads);
    loads_.reserve(loads);
  }
  std::size_t Bytes() const { return Bytes(reads_.capacity(), loads_.capacity()); }
  std::size_t size() const { return reads_.size(); }
  // Whether `load` is the last load logged (a step's reads after its first).
  bool LastLoadIs(const LoggedLoad& load) const {
    return !loads_.empty() && loads_.back().step_and_phase == load.step_and_phase &&
           loads_.back().lane0_and_matrix == load.lane0_and_matrix;
  }
  // Starts a load whose reads follow (Append, AppendWarp).
  void StartLoad(const LoggedLoad& load) { loads_.push_back(load); }
  // A read of the last load started, by `lane` of its warp.
  void Append(std::int32_t element, int lane) {
    reads_.push_back({element, static_cast<std::uint32_t>((loads_.size() - 1) << kLaneBits | static_cast<std::size_t>(lane))});
  }
  // Reads of the last load by lanes 0, 1, ... in order, of `elements`.
  template <std::size_t kCount>
  void AppendWarp(const std::array<std::int32_t, kCount>& elements) {
    static_assert(kCount <= std::size_t{1} << kLaneBits, "a warp's lanes");
    const auto load = static_cast<std::uint32_t>((loads_.size() - 1) << kLaneBits);
    std::array<LoggedRead, kCount> reads;  // made aside: a vector's resize would clear them first
    for (std::size_t lane = 0; lane < kCount; ++lane) reads[lane] = {elements[lane], load | static_cast<std::uint32_t>(lane)};
    reads_.insert(reads_.end(), reads.begin(), reads.end());
  }
  // Cuts the log back to its first `reads` reads (a restored state's; never more than it holds).
  void Resize(std::size_t reads) {
    reads_.resize(reads);
    loads_.resize(reads == 0 ? 0 : (reads_.back().load_and_lane >> kLaneBits) + 1);
  }
  // Calls `visit(record)` for each read of `element` of `matrix`, in step order.
  template <typename Visit>
  void ForEachReadOf(MatrixId matrix, std::int32_t element, int block_threads, Visit&& visit) const {
    for (const LoggedRead& read : reads_) {
      if (read.element != element) continue;
      const LoggedLoad& load = loads_[read.load_and_lane >> kLaneBits];
      if (((load.lane0_and_matrix >> kMatrixBit) != 0) != (matrix == MatrixId::kB)) continue;
      const auto thread = static_cast<std::int32_t>((load.lane0_and_matrix & kLane0Mask) + (read.load_and_lane & kLaneMask));
      ReadRecord record;
      record.step = static_cast<std::int64_t>(load.step_and_phase & (std::uint64_t{kStepLimit} - 1));
      record.element = element;
      record.block = thread / block_threads;
      record.thread = static_cast<std::int16_t>(thread % block_threads);
      record.phase = static_cast<std::int16_t>(load.step_and_phase >> kStepBits);
      record.matrix = matrix;
      visit(record);
    }
  }

 private:
  std::vector<LoggedRead> reads_;
  std::vector<LoggedLoad> loads_;
};

class GlobalMemory {
 public:
  GlobalMemory() = default;
  GlobalMemory(int m, int n, int k, std::vector<float> a, std::vector<float> b);

  int rows(MatrixId id) const { return id == MatrixId::kB ? k_ : m_; }
  int cols(MatrixId id) const { return id == MatrixId::kA ? k_ : n_; }
  bool Inside(MatrixId id, long long row, long long col) const {
    return row >= 0 && col >= 0 && row < rows(id) && col < cols(id);
  }
  // The value a load at (row, col) returns, in bounds or not (see the file comment).
  float Load(MatrixId id, long long row, long long col) const;
  // The linear element a load at (row, col) touches, or -1 past the allocation.
  long long ElementAt(MatrixId id, long long row, long long col) const;
  const std::vector<float>& a() const { return a_; }
  const std::vector<float>& b() const { return b_; }

 private:
  int m_ = 0;
  int n_ = 0;
  int k_ = 0;
  std::vector<float> a_;
  std::vector<float> b_;
};

class GlobalReadCounter {
 public:
  GlobalReadCounter() = default;
  GlobalReadCounter(int a_elements, int b_elements, int blocks);

  // A read of `element` (-1: past the allocation, counted for its block only); its block's
  // count apart, as a warp's lanes add to one block at once.
  void CountElement(MatrixId id, long long element) {
    if (element >= 0) ++(id == MatrixId::kA ? reads_a_ : reads_b_)[static_cast<std::size_t>(element)];
  }
  // Reads of `count` elements first, first + step, first + 2·step, ... (a run of a warp's lanes).
  void CountRun(MatrixId id, long long first, int count, long long step) {
    std::uint32_t* const reads = (id == MatrixId::kA ? reads_a_ : reads_b_).data() + first;
    for (int i = 0; i < count; ++i) ++reads[i * step];
  }
  void CountBlock(MatrixId id, int block, std::uint64_t reads) {
    (id == MatrixId::kA ? block_reads_a_ : block_reads_b_)[static_cast<std::size_t>(block)] += reads;
  }
  std::uint32_t ReadsOf(MatrixId id, int element) const {
    return (id == MatrixId::kA ? reads_a_ : reads_b_)[static_cast<std::size_t>(element)];
  }
  std::uint64_t ReadsByBlock(MatrixId id, int block) const {
    return (id == MatrixId::kA ? block_reads_a_ : block_reads_b_)[static_cast<std::size_t>(block)];
  }
  std::size_t Bytes() const {
    return (reads_a_.capacity() + reads_b_.capacity()) * sizeof(std::uint32_t) +
           (block_reads_a_.capacity() + block_reads_b_.capacity()) * sizeof(std::uint64_t);
  }
  bool operator==(const GlobalReadCounter& o) const;

 private:
  std::vector<std::uint32_t> reads_a_;
  std::vector<std::uint32_t> reads_b_;
  std::vector<std::uint64_t> block_reads_a_;
  std::vector<std::uint64_t> block_reads_b_;
};

}  // namespace sim
