// global_memory.h — A (M×K), B (K×N) and C (M×N) in device memory, and who touched them.
//
// GlobalMemory owns the values and the out-of-bounds rule: with the bounds guard off, a
// read outside the matrix returns the element at that linear index while it lies inside
// the allocation (what the GPU does) and a NaN poison past it; either way it is flagged,
// like compute-sanitizer memcheck's "invalid global read". GlobalReadCounter counts reads
// per element, per block and (through the simulation's counters) per phase.
#pragma once
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

// A ReadRecord as the read log keeps it, in 16 bytes instead of 24: the log holds millions
// (reserved up front, each page faulted in as it fills). The step takes 48 bits (the machine
// logs no read past step 2^48), the phase the 16 above them; a block and the thread's index
// in it are one index of the launch's threads (fewer than 2^31), whose top bit holds the matrix.
// No default values: a warp's reads are gathered in an array before they are logged.
struct LoggedRead {
  static constexpr int kStepBits = 48;
  static constexpr std::int64_t kStepLimit = std::int64_t{1} << kStepBits;
  std::uint64_t step_and_phase;
  std::int32_t element;
  std::uint32_t thread_and_matrix;

  // What a read at `step` in `phase` shares with the other reads of its warp-instruction.
  static std::uint64_t StepAndPhase(std::int64_t step, std::int16_t phase) {
    return static_cast<std::uint64_t>(step) | std::uint64_t{static_cast<std::uint16_t>(phase)} << kStepBits;
  }
  static std::uint32_t ThreadAndMatrix(std::int32_t thread, MatrixId matrix) {
    return static_cast<std::uint32_t>(thread) | static_cast<std::uint32_t>(matrix == MatrixId::kB) << 31;
  }
  MatrixId matrix() const { return (thread_and_matrix >> 31) != 0 ? MatrixId::kB : MatrixId::kA; }
  ReadRecord Unpacked(int block_threads) const {
    const auto thread = static_cast<std::int32_t>(thread_and_matrix & 0x7fffffffu);
    ReadRecord record;
    record.step = static_cast<std::int64_t>(step_and_phase & (std::uint64_t{kStepLimit} - 1));
    record.element = element;
    record.block = thread / block_threads;
    record.thread = static_cast<std::int16_t>(thread % block_threads);
    record.phase = static_cast<std::int16_t>(step_and_phase >> kStepBits);
    record.matrix = matrix();
    return record;
  }
};
static_assert(sizeof(LoggedRead) == 16, "a logged read is 16 bytes");

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
