// global_reads.h — the model link beside a measured time: how many elements of A and B a
// naive or tiled kernel loads from global memory at a size. Counted by the CPU model
// (sim::Simulation) when every dimension is at most 256; above that the model would take
// minutes, so the closed form of sim/formulas.h gives it (tests check that the two agree
// up to 256³). A count over a measured time is the requested load bandwidth: the bytes the
// kernel asks for per second, not DRAM traffic (L1 and L2 serve most of those loads).
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "kernels/bench.h"
#include "kernels/kernel_table.h"
#include "sim/lesson_config.h"

namespace plot {

// The largest dimension the model counts itself.
constexpr std::int64_t kModelCountLimit = 256;

enum class ReadsSource { kModel, kFormula };

struct GlobalReads {
  std::uint64_t reads = 0;  // Elements of A and B loaded, 4 bytes each.
  ReadsSource source = ReadsSource::kFormula;
};

// The lesson that runs `spec` at `shape` on the model; nothing for cuBLAS (not modelled) or
// a shape the model cannot hold.
std::optional<sim::LessonConfig> ModelLessonFor(const kernels::KernelSpec& spec, const kernels::Shape& shape);
// Every dimension at most kModelCountLimit.
bool CountedByModel(const kernels::Shape& shape);
// Global reads of A and B by the closed form.
std::uint64_t FormulaReads(const sim::LessonConfig& lesson);
// Runs the model to the end and returns its count; nothing when `stop` turned true first.
std::optional<std::uint64_t> CountReads(const sim::LessonConfig& lesson, const std::atomic<bool>& stop);
// GB/s (10⁹ bytes per second) that `reads` FP32 loads in `milliseconds` request.
double RequestedGBs(std::uint64_t reads, double milliseconds);
// "counted by the model" or "formula (checked against the model up to 256³)".
std::string Describe(ReadsSource source);

// Counts with the model on a worker thread, one lesson at a time, so the UI never waits;
// remembers every count.
class GlobalReadsCounter {
 public:
  GlobalReadsCounter() = default;
  ~GlobalReadsCounter();  // Stops the count in flight and waits for it.
  GlobalReadsCounter(const GlobalReadsCounter&) = delete;
  GlobalReadsCounter& operator=(const GlobalReadsCounter&) = delete;

  // The figure for `spec` at `shape`: from the formula at once above the model's limit, from
  // the model once it has counted (nothing until then: the first call starts the count).
  // Nothing for cuBLAS.
  std::optional<GlobalReads> Get(const kernels::KernelSpec& spec, const kernels::Shape& shape);

 private:
  struct Job {
    std::string key;
    sim::LessonConfig lesson;
  };
  void StartWorker();
  void Work();

  std::mutex mutex_;  // Guards the four below.
  std::map<std::string, GlobalReads> counted_;
  std::deque<Job> queue_;
  std::string in_flight_;
  bool working_ = false;
  std::thread worker_;
  std::atomic<bool> stop_{false};
};

}  // namespace plot
