#include "app/plot/global_reads.h"

#include <limits>

#include "kernels/registry.h"
#include "sim/formulas.h"
#include "sim/simulation.h"

namespace plot {
namespace {

constexpr double kBytesPerRead = 4.0;  // FP32
// The count never steps back, so the model keeps only the checkpoints it must.
constexpr std::size_t kNoHistory = 0;

sim::SyncKind ToSync(kernels::Barrier barrier) {
  switch (barrier) {
    case kernels::Barrier::kSyncthreads: return sim::SyncKind::kSyncthreads;
    case kernels::Barrier::kSyncwarp: return sim::SyncKind::kSyncwarp;
    case kernels::Barrier::kNone: return sim::SyncKind::kNone;
  }
  return sim::SyncKind::kSyncthreads;
}

bool FitsInt(const kernels::Shape& shape) {
  constexpr std::int64_t kMax = std::numeric_limits<int>::max();
  return shape.m <= kMax && shape.n <= kMax && shape.k <= kMax;
}

std::string Key(const kernels::KernelSpec& spec, const kernels::Shape& shape) {
  return std::string(spec.name) + "@" + kernels::ToString(shape);
}

}  // namespace

std::optional<sim::LessonConfig> ModelLessonFor(const kernels::KernelSpec& spec, const kernels::Shape& shape) {
  if (kernels::IsCublas(spec) || !FitsInt(shape)) return std::nullopt;
  sim::LessonConfig lesson;
  lesson.name = spec.name;
  lesson.m = static_cast<int>(shape.m);
  lesson.n = static_cast<int>(shape.n);
  lesson.k = static_cast<int>(shape.k);
  lesson.tile = spec.tile_m;
  lesson.guard = spec.guarded;
  lesson.tile_count = spec.ceil_tiles ? sim::TileCount::kCeil : sim::TileCount::kFloor;
  lesson.barrier1 = ToSync(spec.first_barrier);
  lesson.barrier2 = ToSync(spec.second_barrier);
  switch (spec.family) {
    case kernels::KernelFamily::kNaive: lesson.kernel = sim::KernelKind::kNaive; break;
    case kernels::KernelFamily::kTiled: lesson.kernel = sim::KernelKind::kTiled; break;
    case kernels::KernelFamily::kTiledRect:
      lesson.kernel = sim::KernelKind::kTiledRect;
      lesson.rect = {spec.tile_m, spec.tile_n, spec.tile_k};
      break;
    default: return std::nullopt;
  }
  return lesson;
}

bool CountedByModel(const kernels::Shape& shape) {
  return shape.m <= kModelCountLimit && shape.n <= kModelCountLimit && shape.k <= kModelCountLimit;
}

std::uint64_t FormulaReads(const sim::LessonConfig& lesson) { return sim::Expected(lesson).global_reads(); }

std::optional<std::uint64_t> CountReads(const sim::LessonConfig& lesson, const std::atomic<bool>& stop) {
  sim::Simulation simulation(lesson, kNoHistory);
  simulation.RunWhile([&stop](const sim::Simulation&) { return !stop.load(std::memory_order_relaxed); });
  if (!simulation.Finished()) return std::nullopt;
  return simulation.counters().global_reads_a + simulation.counters().global_reads_b;
}

double RequestedGBs(std::uint64_t reads, double milliseconds) {
  if (milliseconds <= 0.0) return 0.0;
  return static_cast<double>(reads) * kBytesPerRead / (milliseconds * 1e-3) / 1e9;
}

std::string Describe(ReadsSource source) {
  return source == ReadsSource::kModel ? "counted by the model" : "formula (checked against the model up to 256\u00b3)";
}

GlobalReadsCounter::~GlobalReadsCounter() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
}

std::optional<GlobalReads> GlobalReadsCounter::Get(const kernels::KernelSpec& spec, const kernels::Shape& shape) {
  const std::optional<sim::LessonConfig> lesson = ModelLessonFor(spec, shape);
  if (!lesson) return std::nullopt;
  // Above the limit, or a lesson the model refuses (too large to hold): the closed form.
  if (!CountedByModel(shape) || sim::Validate(*lesson)) return GlobalReads{FormulaReads(*lesson), ReadsSource::kFormula};
  const std::string key = Key(spec, shape);
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = counted_.find(key); found != counted_.end()) return found->second;
  bool pending = key == in_flight_;
  for (const Job& job : queue_) pending = pending || job.key == key;
  if (!pending) {
    queue_.push_back({key, *lesson});
    StartWorker();
  }
  return std::nullopt;
}

// Called with mutex_ held.
void GlobalReadsCounter::StartWorker() {
  if (working_) return;
  // The previous worker has left its loop (working_ is false) and is about to return.
  if (worker_.joinable()) worker_.join();
  working_ = true;
  worker_ = std::thread([this] { Work(); });
}

void GlobalReadsCounter::Work() {
  while (true) {
    Job job;
    {
      // Leaving and saying so under one lock: a job queued after this sees working_ false.
      std::lock_guard<std::mutex> lock(mutex_);
      if (queue_.empty() || stop_.load()) {
        working_ = false;
        return;
      }
      job = std::move(queue_.front());
      queue_.pop_front();
      in_flight_ = job.key;
    }
    std::optional<GlobalReads> reads;
    try {
      if (const auto count = CountReads(job.lesson, stop_)) reads = GlobalReads{*count, ReadsSource::kModel};
    } catch (const std::exception&) {
      // The model could not hold the lesson after all (out of memory): the closed form stands in.
      reads = GlobalReads{FormulaReads(job.lesson), ReadsSource::kFormula};
    }
    std::lock_guard<std::mutex> lock(mutex_);
    in_flight_.clear();
    if (reads) counted_[job.key] = *reads;
  }
}

}  // namespace plot
