// race_calibration — the model's realistic scheduler against the H100 race grid.
//
//   race_calibration GRID [--seeds N] [--max-size S] [--cells KERNEL@SIZE,...] [--jobs J]
//                         [--recorded MODEL_GRID] [--check]
//
// Reads a `tilescope bench --race` printout (docs/results/h100-race-grid-*.txt), runs every
// lesson-sized cell (M·N at most 256²; --max-size S keeps those with M, N and K at most S;
// --cells keeps the named ones, e.g. tiled8_nosync12@256,tiled16_syncwarp@32x32x64) on the model
// with scheduler seeds 1..N (6) on the runner's seeded A and B, and prints the model's wrong
// elements beside the GPU's. --check exits 1 when a cell's model mean lies outside the GPU's
// range widened by 10 percentage points and the race lab does not say so
// (sim::RealisticCalibrationCaveat), or the race lab flags a cell that is within, or a cell
// has no model figures. docs/results/model-race-grid-*.txt is its output over every cell.
// --recorded takes the model's figures from such a printout instead of running the model: the
// 256³ cells take minutes each, so CTest checks every cell's verdict against the committed
// printout (kernels.race_calibration_recorded) and runs the model on the small ones
// (kernels.race_calibration).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kernels/model_replay.h"
#include "kernels/race_grid.h"
#include "sim/lesson/teaching.h"

namespace {

struct Options {
  std::string grid;
  std::string recorded;
  int seeds = 6;
  int max_size = 0;
  int jobs = 1;
  bool check = false;
  std::vector<kernels::RaceCellName> cells;
};

int Usage(const char* problem) {
  if (problem != nullptr) std::fprintf(stderr, "race_calibration: %s\n", problem);
  std::fprintf(problem != nullptr ? stderr : stdout,
               "usage: race_calibration GRID [--seeds N] [--max-size S] [--cells KERNEL@SIZE,...] [--jobs J] "
               "[--recorded MODEL_GRID] [--check]\n");
  return problem != nullptr ? 2 : 0;
}

bool ParsePositive(const char* text, int& value) {
  char* end = nullptr;
  const long parsed = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || parsed < 1 || parsed > 1 << 20) return false;
  value = static_cast<int>(parsed);
  return true;
}

// What is wrong with the arguments, or nothing.
std::optional<std::string> ParseArguments(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--check") {
      options.check = true;
    } else if (arg == "--seeds" || arg == "--max-size" || arg == "--jobs") {
      int& target = arg == "--seeds" ? options.seeds : (arg == "--jobs" ? options.jobs : options.max_size);
      if (!has_value || !ParsePositive(argv[++i], target)) return arg + " wants a positive whole number";
    } else if (arg == "--cells") {
      if (!has_value) return std::string("--cells wants KERNEL@SIZE,... (e.g. tiled8_nosync12@256)");
      if (auto error = kernels::ParseRaceCellNames(argv[++i], options.cells)) return "--cells: " + *error;
    } else if (arg == "--recorded") {
      if (!has_value) return std::string("--recorded wants a model grid (docs/results/model-race-grid-*.txt)");
      options.recorded = argv[++i];
    } else if (!arg.empty() && arg[0] == '-') {
      return "unknown option: " + arg;
    } else if (options.grid.empty()) {
      options.grid = arg;
    } else {
      return "one grid file, not also '" + arg + "'";
    }
  }
  if (options.grid.empty()) return std::string("which race grid? (docs/results/h100-race-grid-*.txt)");
  return std::nullopt;
}

// The lesson-sized cells the options keep, in the grid's order; an error names a cell asked
// for by --cells that is not among them.
std::optional<std::string> SelectCells(const kernels::RaceGrid& grid, const Options& options,
                                       std::vector<const kernels::RaceGridCell*>& cells) {
  for (const kernels::RaceGridCell& cell : grid.cells) {
    const kernels::Shape& s = cell.shape;
    if (!kernels::IsCalibrated(s)) continue;
    if (options.max_size > 0 && std::max({s.m, s.n, s.k}) > options.max_size) continue;
    const auto names_it = [&](const kernels::RaceCellName& name) { return kernels::Names(name, cell); };
    if (!options.cells.empty() && std::none_of(options.cells.begin(), options.cells.end(), names_it)) continue;
    cells.push_back(&cell);
  }
  for (const kernels::RaceCellName& name : options.cells) {
    const auto selected = [&](const kernels::RaceGridCell* cell) { return kernels::Names(name, *cell); };
    if (std::none_of(cells.begin(), cells.end(), selected)) {
      return "--cells: " + name.text + " is not a lesson-sized cell of " + options.grid +
             (options.max_size > 0 ? " up to --max-size " + std::to_string(options.max_size) : std::string());
    }
  }
  return std::nullopt;
}

// The model on every cell: J workers take the cells in turn.
std::vector<kernels::ModelRaceCell> RunCells(const std::vector<const kernels::RaceGridCell*>& cells,
                                             const kernels::RaceGrid& grid, const Options& options) {
  std::vector<kernels::ModelRaceCell> results(cells.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (int j = 0; j < options.jobs; ++j) {
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < cells.size(); i = next++) {
        results[i] = kernels::RunRaceCellOnModel(*cells[i], grid.fill_seed, options.seeds);
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  return results;
}

// The model's figures as a committed model grid recorded them; a cell it lacks is an error.
std::vector<kernels::ModelRaceCell> RecordedCells(const std::vector<const kernels::RaceGridCell*>& cells,
                                                  const std::vector<kernels::RecordedModelCell>& recorded,
                                                  const std::string& path) {
  std::vector<kernels::ModelRaceCell> results(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto same = [&](const kernels::RecordedModelCell& row) {
      return row.kernel == cells[i]->kernel && row.shape == cells[i]->shape;
    };
    const auto row = std::find_if(recorded.begin(), recorded.end(), same);
    if (row == recorded.end()) {
      results[i].error = "no model figures for it in " + path;
    } else {
      results[i].differing_per_seed = row->differing_per_seed;
    }
  }
  return results;
}

std::string Counts(const std::vector<std::int64_t>& counts) {
  std::string text;
  for (std::int64_t count : counts) text += (text.empty() ? "" : " ") + std::to_string(count);
  return text;
}

struct Tally {
  int outside = 0;      // out of the band, and the race lab does not say so
  int known_gaps = 0;   // out of the band, and the race lab says why
  int wrong_flags = 0;  // within the band, yet the race lab flags it
  int errors = 0;       // no model figures
};

// One row of the table; counts its verdict.
void PrintCell(const kernels::RaceGridCell& cell, const kernels::ModelRaceCell& model, Tally& tally) {
  const std::string size = kernels::ToString(cell.shape);
  if (!model.error.empty()) {
    std::printf("%-18s %-10s error: %s\n", cell.kernel->name, size.c_str(), model.error.c_str());
    ++tally.errors;
    return;
  }
  const kernels::PercentRange gpu = kernels::GpuRange(cell);
  const kernels::PercentRange band = kernels::CalibrationBand(cell);
  const double mean = model.MeanPercent(cell.shape);
  const bool inside = band.Contains(mean);
  const bool flagged = !sim::RealisticCalibrationCaveat(*kernels::ModelLessonFor(*cell.kernel, cell.shape)).empty();
  const char* verdict = inside ? (flagged ? "within, yet FLAGGED" : "within") : (flagged ? "known gap" : "OUTSIDE");
  tally.outside += !inside && !flagged;
  tally.known_gaps += !inside && flagged;
  tally.wrong_flags += inside && flagged;
  char gpu_text[32];
  char band_text[32];
  std::snprintf(gpu_text, sizeof gpu_text, "%.1f-%.1f", gpu.low, gpu.high);
  std::snprintf(band_text, sizeof band_text, "%.1f-%.1f", band.low, band.high);
  std::printf("%-18s %-10s %-8s %-42s %-15s %-42s %-8.1f %-13s %s\n", cell.kernel->name, size.c_str(),
              kernels::IsFitCell(cell.shape) ? "fit" : "held out", Counts(cell.differing_per_trial).c_str(), gpu_text,
              Counts(model.differing_per_seed).c_str(), mean, band_text, verdict);
}

template <typename Parsed, typename Parse>
std::optional<std::string> ReadFile(const std::string& path, Parsed& parsed, Parse parse) {
  std::ifstream in(path);
  if (!in) return "cannot open '" + path + "'";
  if (auto error = parse(in, parsed)) return path + ": " + *error;
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--help") return Usage(nullptr);
  }
  Options options;
  if (auto problem = ParseArguments(argc, argv, options)) return Usage(problem->c_str());
  kernels::RaceGrid grid;
  if (auto error = ReadFile(options.grid, grid, kernels::ParseRaceGrid)) {
    std::fprintf(stderr, "race_calibration: %s\n", error->c_str());
    return 2;
  }
  std::vector<kernels::RecordedModelCell> recorded;
  if (!options.recorded.empty()) {
    if (auto error = ReadFile(options.recorded, recorded, kernels::ParseModelGrid)) {
      std::fprintf(stderr, "race_calibration: %s\n", error->c_str());
      return 2;
    }
  }
  std::vector<const kernels::RaceGridCell*> cells;
  if (auto problem = SelectCells(grid, options, cells)) return Usage(problem->c_str());
  const std::vector<kernels::ModelRaceCell> results =
      options.recorded.empty() ? RunCells(cells, grid, options) : RecordedCells(cells, recorded, options.recorded);
  if (options.recorded.empty()) {
    std::printf("model: realistic scheduler, seeds 1-%d, A and B from the runner's fill seed %llu; GPU: %s\n",
                options.seeds, static_cast<unsigned long long>(grid.fill_seed), options.grid.c_str());
  } else {
    std::printf("model: as recorded in %s; GPU: %s\n", options.recorded.c_str(), options.grid.c_str());
  }
  std::printf("band: the GPU's min..max over its trials, widened by %.0f percentage points; fit cells: %s\n",
              kernels::kCalibrationSlackPercent, kernels::kCalibrationFitCells);
  std::printf("%-18s %-10s %-8s %-42s %-15s %-42s %-8s %-13s %s\n", "kernel", "size", "cells", "GPU differing per trial",
              "GPU % min-max", "model differing per seed", "model %", "band %", "verdict");
  Tally tally;
  for (std::size_t i = 0; i < cells.size(); ++i) PrintCell(*cells[i], results[i], tally);
  const std::size_t within =
      cells.size() - static_cast<std::size_t>(tally.outside + tally.known_gaps + tally.errors);
  std::printf("%zu cells: %zu within the band, %d known gaps (the race lab says why), %d outside unflagged, "
              "%d flagged yet within, %d could not run\n",
              cells.size(), within, tally.known_gaps, tally.outside, tally.wrong_flags, tally.errors);
  const bool failed = tally.outside > 0 || tally.wrong_flags > 0 || tally.errors > 0;
  return options.check && failed ? 1 : 0;
}
