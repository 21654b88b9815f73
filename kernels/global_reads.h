// global_reads.h — the model link beside a measured time: how many elements of A and B a
// naive or tiled kernel loads from global memory at a size. Counted by the CPU model
// (sim::Simulation) when every dimension is at most 256; above that the model would take
// minutes, so the closed form of sim/lesson/formulas.h gives it (tests check that the two agree
// up to 256³). A count over a measured time is the requested load bandwidth: the bytes the
// kernel asks for per second, not DRAM traffic (L1 and L2 serve most of those loads).
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "kernels/background_job.h"
#include "kernels/bench.h"
#include "kernels/kernel_table.h"
#include "sim/lesson/lesson_config.h"

namespace kernels {

// The largest dimension the model counts itself.
constexpr std::int64_t kModelCountLimit = 256;

enum class ReadsSource { kModel, kFormula };

struct GlobalReads {
  std::uint64_t reads = 0;  // Elements of A and B loaded, 4 bytes each.
  ReadsSource source = ReadsSource::kFormula;
};

// Every dimension at most kModelCountLimit.
bool CountedByModel(const Shape& shape);
// Global reads of A and B by the closed form.
std::uint64_t FormulaReads(const sim::LessonConfig& lesson);
// Runs the model to the end and returns its count; nothing when `stop` turned true first.
std::optional<std::uint64_t> CountReads(const sim::LessonConfig& lesson, const std::atomic<bool>& stop);
// GB/s (10⁹ bytes per second) that `reads` FP32 loads in `milliseconds` request.
double RequestedGBs(std::uint64_t reads, double milliseconds);
// "counted by the model" or "formula (checked against the model up to 256³)".
std::string Describe(ReadsSource source);

// Counts with the model on a worker thread (a BackgroundJob), one lesson at a time, so the UI
// never waits; remembers every count. Get() is called from one thread, once a frame: it takes
// the count that finished and starts the next.
class GlobalReadsCounter {
 public:
  // The figure for `spec` at `shape`: from the formula at once above the model's limit, from
  // the model once it has counted (nothing until then: the first call queues the count).
  // Nothing for cuBLAS.
  std::optional<GlobalReads> Get(const KernelSpec& spec, const Shape& shape);

 private:
  struct Job {
    std::string key;
    sim::LessonConfig lesson;
  };
  struct Counted {
    std::string key;
    std::optional<GlobalReads> reads;  // nothing when cancelled
  };
  void TakeFinished();
  void StartNext();

  std::map<std::string, GlobalReads> counted_;
  std::deque<Job> queue_;
  std::string in_flight_;
  BackgroundJob<Counted> job_;  // last: it stops and joins before the rest goes
};

}  // namespace kernels
