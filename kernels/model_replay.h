// model_replay.h — a registry kernel replayed on TileScope's CPU model (sim/).
//
// The model computes `sum = fmaf(a, b, sum)` in the kernel's own order, so for a kernel
// whose barriers hold, its C is bit-identical to the GPU's. The runner uses that as a
// second, exact check at small sizes; `tilescope verify` checks test vectors with it even
// where there is no GPU; the racecheck test asks it which hazards a variant has.
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/kernel_table.h"
#include "sim/lesson/lesson_config.h"

namespace kernels {

// The largest M·N·K the runner also replays on the model (128³: a fraction of a second).
constexpr std::int64_t kModelCheckMaxWork = std::int64_t{128} * 128 * 128;

// Whether the runner also replays `kernel` at `shape` on the model: a kernel it models, and
// M·N·K at most kModelCheckMaxWork, multiplied without overflow (M·N·K wrapped negative
// from n = 2^21 and asked the model for a matrix it could never hold).
bool WantsModelCheck(const KernelSpec& kernel, const Shape& shape);

// The one bridge from a kernel of the table to the model: the lesson that runs exactly
// `kernel` at `shape` with the realistic scheduler. Nothing for cuBLAS (not modelled) or a
// dimension the model's int sizes cannot hold.
std::optional<sim::LessonConfig> ModelLessonFor(const KernelSpec& kernel, const Shape& shape);
// The same on explicit A (M×K) and B (K×N); cuBLAS rows have no model: the caller must not
// ask for them.
sim::LessonConfig ModelLessonFor(const KernelSpec& kernel, const Shape& shape, std::vector<float> a,
                                 std::vector<float> b);

// C as the model computes it, or why the model cannot run this lesson.
struct ModelRun {
  std::vector<float> c;
  std::string error;
  bool stopped = false;  // `cancel` turned true before the end: no C, and no error either
  bool ok() const { return error.empty() && !stopped; }
};
ModelRun RunOnModel(const KernelSpec& kernel, const Shape& shape, std::vector<float> a, std::vector<float> b);
// The same, stoppable, with its progress in `fraction` (may be null), for a caller that
// shows progress and lets the user stop (tilescope verify).
ModelRun RunOnModel(const KernelSpec& kernel, const Shape& shape, std::vector<float> a, std::vector<float> b,
                    const std::atomic<bool>& cancel, std::atomic<double>* fraction);

// The runner's seeded input (random_fill.h) as the host sees it: `rows`×`cols` of matrix
// `which` (0 = A, 1 = B).
std::vector<float> SeededInput(std::uint64_t seed, int which, std::int64_t rows, std::int64_t cols);

// Elements whose bits differ (the model check asks "identical?", not "close?").
std::int64_t CountDifferingBits(const std::vector<float>& x, const std::vector<float>& y);

}  // namespace kernels
