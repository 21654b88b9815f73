#include "kernels/global_reads.h"

#include <algorithm>
#include <exception>

#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/lesson/formulas.h"
#include "sim/model/simulation.h"

namespace kernels {
namespace {

constexpr double kBytesPerRead = 4.0;  // FP32
// The count never steps back, so the model keeps only the checkpoints it must.
constexpr std::size_t kNoHistory = 0;

std::string Key(const KernelSpec& spec, const Shape& shape) {
  return std::string(spec.name) + "@" + ToString(shape);
}

}  // namespace

bool CountedByModel(const Shape& shape) {
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

std::optional<GlobalReads> GlobalReadsCounter::Get(const KernelSpec& spec, const Shape& shape) {
  const std::optional<sim::LessonConfig> lesson = ModelLessonFor(spec, shape);
  if (!lesson) return std::nullopt;
  // Above the limit, or a lesson the model refuses (too large to hold): the closed form.
  if (!CountedByModel(shape) || sim::Validate(*lesson)) return GlobalReads{FormulaReads(*lesson), ReadsSource::kFormula};
  TakeFinished();
  const std::string key = Key(spec, shape);
  if (const auto found = counted_.find(key); found != counted_.end()) return found->second;
  const bool pending = key == in_flight_ || std::any_of(queue_.begin(), queue_.end(),
                                                         [&key](const Job& job) { return job.key == key; });
  if (!pending) queue_.push_back({key, *lesson});
  StartNext();
  return std::nullopt;
}

void GlobalReadsCounter::TakeFinished() {
  if (in_flight_.empty() || job_.Running()) return;
  if (const std::optional<Counted> counted = job_.LastResult(); counted && counted->reads) {
    counted_[counted->key] = *counted->reads;
  }
  in_flight_.clear();
}

void GlobalReadsCounter::StartNext() {
  if (!in_flight_.empty() || queue_.empty()) return;
  Job job = std::move(queue_.front());
  queue_.pop_front();
  in_flight_ = job.key;
  job_.Start([job = std::move(job)](const std::atomic<bool>& cancel, JobProgress&) {
    Counted counted{job.key, std::nullopt};
    try {
      if (const auto count = CountReads(job.lesson, cancel)) counted.reads = GlobalReads{*count, ReadsSource::kModel};
    } catch (const std::exception&) {
      // The model could not hold the lesson after all (out of memory): the closed form stands in.
      counted.reads = GlobalReads{FormulaReads(job.lesson), ReadsSource::kFormula};
    }
    return counted;
  });
}

}  // namespace kernels
