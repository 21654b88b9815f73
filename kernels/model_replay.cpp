#include "kernels/model_replay.h"

#include <cstring>
#include <limits>
#include <exception>
#include <utility>

#include "kernels/random_fill.h"
#include "kernels/registry.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/model/checked_math.h"
#include "sim/model/simulation.h"

namespace kernels {
namespace {

sim::KernelKind ToModel(KernelFamily family) {
  switch (family) {
    case KernelFamily::kNaive: return sim::KernelKind::kNaive;
    case KernelFamily::kTiledRect: return sim::KernelKind::kTiledRect;
    default: return sim::KernelKind::kTiled;
  }
}

}  // namespace

bool WantsModelCheck(const KernelSpec& kernel, const Shape& shape) {
  const auto mn = sim::CheckedMul(shape.m, shape.n);
  const auto work = mn ? sim::CheckedMul(*mn, shape.k) : std::nullopt;
  return HasModel(kernel) && work && *work <= kModelCheckMaxWork;
}

std::optional<sim::LessonConfig> ModelLessonFor(const KernelSpec& kernel, const Shape& shape) {
  constexpr std::int64_t kLargestInt = std::numeric_limits<int>::max();
  if (!HasModel(kernel) || shape.m > kLargestInt || shape.n > kLargestInt || shape.k > kLargestInt) return std::nullopt;
  sim::LessonConfig lesson;
  lesson.name = kernel.name;
  lesson.m = static_cast<int>(shape.m);
  lesson.n = static_cast<int>(shape.n);
  lesson.k = static_cast<int>(shape.k);
  lesson.kernel = ToModel(kernel.family);
  lesson.tile = kernel.tile_m;
  lesson.rect = {kernel.tile_m, kernel.tile_n, kernel.tile_k};
  lesson.barrier1 = kernel.first_barrier;
  lesson.barrier2 = kernel.second_barrier;
  lesson.guard = kernel.guarded;
  lesson.tile_count = kernel.ceil_tiles ? sim::TileCount::kCeil : sim::TileCount::kFloor;
  lesson.bs_layout = kernel.bs_transposed ? sim::SharedLayout::kTransposed : sim::SharedLayout::kRowMajor;
  lesson.scheduler = sim::SchedulerKind::kRealistic;
  return lesson;
}

sim::LessonConfig ModelLessonFor(const KernelSpec& kernel, const Shape& shape, std::vector<float> a,
                                 std::vector<float> b) {
  sim::LessonConfig lesson = *ModelLessonFor(kernel, shape);
  lesson.fill_a = sim::MatrixFill::Explicit(std::move(a));
  lesson.fill_b = sim::MatrixFill::Explicit(std::move(b));
  return lesson;
}

ModelRun RunOnModel(const KernelSpec& kernel, const Shape& shape, std::vector<float> a, std::vector<float> b) {
  const std::atomic<bool> never{false};
  return RunOnModel(kernel, shape, std::move(a), std::move(b), never, nullptr);
}

ModelRun RunOnModel(const KernelSpec& kernel, const Shape& shape, std::vector<float> a, std::vector<float> b,
                    const std::atomic<bool>& cancel, std::atomic<double>* fraction) {
  if (IsCublas(kernel)) {
    return {{}, std::string(kernel.name) + " has no model: cuBLAS is the reference, not a teaching kernel"};
  }
  if (!HasModel(kernel)) {
    return {{}, std::string(kernel.name) + " has no model: the ladder's rungs run on the GPU only"};
  }
  const sim::LessonConfig lesson = ModelLessonFor(kernel, shape, a, b);
  if (auto error = sim::Validate(lesson, sim::ModelUse::kBareRun)) return {{}, "the model cannot run it: " + error->message};
  try {
    std::optional<std::vector<float>> c = sim::ComputeC(lesson, a, b, cancel, fraction);
    if (!c) return {{}, "", true};
    return {std::move(*c), ""};
  } catch (const std::exception& error) {
    // Validate() passed, so only an allocation can fail here; say so rather than crash.
    return {{}, std::string("the model failed: ") + error.what()};
  }
}

std::vector<float> SeededInput(std::uint64_t seed, int which, std::int64_t rows, std::int64_t cols) {
  std::vector<float> values(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = RandomInput(seed, which, i);
  return values;
}

std::int64_t CountDifferingBits(const std::vector<float>& x, const std::vector<float>& y) {
  if (x.size() != y.size()) return static_cast<std::int64_t>(x.size() > y.size() ? x.size() : y.size());
  std::int64_t differing = 0;
  for (std::size_t i = 0; i < x.size(); ++i) differing += std::memcmp(&x[i], &y[i], sizeof(float)) != 0;
  return differing;
}

}  // namespace kernels
