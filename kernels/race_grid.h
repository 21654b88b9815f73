// race_grid.h — the H100 race grid read back, and the model's realistic scheduler run on
// its cells, for the calibration check (kernels.race_calibration) and its committed table.
//
// The grid is what `tilescope bench --race` prints (docs/results/h100-race-grid-*.txt): per
// race variant and size, the elements of C not bit-identical to the both-barriers kernel in
// each trial, on A and B from the runner's seeded fill. The model is run the same way: the
// same fill (random_fill.h), scheduler seeds 1..N, each C compared bit for bit with the
// both-barriers C (which the model computes bit-identically to the GPU).
#pragma once
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/kernel_table.h"

namespace kernels {

struct RaceGridCell {
  const KernelSpec* kernel = nullptr;  // the race variant
  Shape shape;
  std::vector<std::int64_t> differing_per_trial;
};

struct RaceGrid {
  std::uint64_t fill_seed = 1;  // the runner's seed for A and B ("race run: ..., seed N")
  std::vector<RaceGridCell> cells;
};

// Reads a race run's printout; an error names the line and what is wrong with it.
std::optional<std::string> ParseRaceGrid(std::istream& in, RaceGrid& grid);

// A cell named as KERNEL@SIZE ("tiled8_nosync12@256", "tiled16_syncwarp@32x32x64"): what
// race_calibration --cells takes, so that a few cells can be run without the rest.
struct RaceCellName {
  std::string kernel;
  Shape shape;
  std::string text;  // as given, for messages
};
// Reads a comma-separated list of cell names; an error names the entry and what is wrong.
std::optional<std::string> ParseRaceCellNames(const std::string& text, std::vector<RaceCellName>& names);
bool Names(const RaceCellName& name, const RaceGridCell& cell);

// The calibration's tolerance: the model's mean wrong fraction must lie within the GPU's
// trials' range widened by this many percentage points on each side (issue 14).
constexpr double kCalibrationSlackPercent = 10.0;
// The sizes the calibration asks the model to match (sim::kCalibratedMaxElements): the
// lesson-sized ones; 1024² is context only.
bool IsCalibrated(const Shape& shape);
// The cells the scheduler's fitted constants were chosen on (sim/model/scheduler.h); the others
// are held out, a check of the fit rather than a part of it.
constexpr const char* kCalibrationFitCells = "32x32x64 and 64 (128 and 256 held out)";
bool IsFitCell(const Shape& shape);

struct PercentRange {
  double low = 0.0;
  double high = 0.0;
  bool Contains(double percent) const { return percent >= low && percent <= high; }
};
// The GPU's min..max of its trials in % of C, and that widened by the slack (within 0..100).
PercentRange GpuRange(const RaceGridCell& cell);
PercentRange CalibrationBand(const RaceGridCell& cell);

// The model on one cell: wrong elements per scheduler seed 1..seeds, or why it could not run.
struct ModelRaceCell {
  std::vector<std::int64_t> differing_per_seed;
  std::string error;
  double MeanPercent(const Shape& shape) const;
};
ModelRaceCell RunRaceCellOnModel(const RaceGridCell& cell, std::uint64_t fill_seed, int seeds);

// The model's wrong elements per seed as race_calibration printed them (a committed
// docs/results/model-race-grid-*.txt), so every cell's verdict can be checked again without
// running the model; rows that say "error:" recorded no figures and are left out.
struct RecordedModelCell {
  const KernelSpec* kernel = nullptr;
  Shape shape;
  std::vector<std::int64_t> differing_per_seed;
};
std::optional<std::string> ParseModelGrid(std::istream& in, std::vector<RecordedModelCell>& cells);

}  // namespace kernels
