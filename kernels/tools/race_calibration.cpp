// race_calibration — the model's realistic scheduler against the H100 race grid.
//
//   race_calibration GRID [--seeds N] [--max-size S] [--cells KERNEL@SIZE,...] [--jobs J] [--check]
//
// Reads a `tilescope bench --race` printout (docs/results/h100-race-grid-*.txt), runs every
// lesson-sized cell (M·N at most 256²; --max-size S keeps those with M, N and K at most S;
// --cells keeps the named ones, e.g. tiled8_nosync12@256,tiled16_syncwarp@32x32x64) on the model with scheduler seeds 1..N (6) on the runner's seeded A and B, and prints the
// model's wrong elements beside the GPU's. --check exits 1 when a cell's model mean lies
// outside the GPU's range widened by 10 percentage points and the race lab does not say so
// (sim::RealisticCalibrationCaveat), or the race lab flags a cell that is within. CTest
// runs it (label nocuda);
// docs/results/model-race-grid-*.txt is its output over every cell.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "kernels/model_replay.h"
#include "kernels/race_grid.h"
#include "sim/teaching.h"

namespace {

int Usage(const char* problem) {
  if (problem != nullptr) std::fprintf(stderr, "race_calibration: %s\n", problem);
  std::fprintf(problem != nullptr ? stderr : stdout,
               "usage: race_calibration GRID [--seeds N] [--max-size S] [--cells KERNEL@SIZE,...] [--jobs J] "
               "[--check]\n");
  return problem != nullptr ? 2 : 0;
}

bool ParsePositive(const char* text, int& value) {
  char* end = nullptr;
  const long parsed = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || parsed < 1 || parsed > 1 << 20) return false;
  value = static_cast<int>(parsed);
  return true;
}

std::string Counts(const std::vector<std::int64_t>& counts) {
  std::string text;
  for (std::int64_t count : counts) text += (text.empty() ? "" : " ") + std::to_string(count);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int seeds = 6;
  int max_size = 0;
  int jobs = 1;
  bool check = false;
  std::vector<kernels::RaceCellName> named;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help") return Usage(nullptr);
    if (arg == "--check") {
      check = true;
    } else if (arg == "--seeds" || arg == "--max-size" || arg == "--jobs") {
      int& target = arg == "--seeds" ? seeds : (arg == "--jobs" ? jobs : max_size);
      if (!has_value || !ParsePositive(argv[++i], target)) return Usage((arg + " wants a positive whole number").c_str());
    } else if (arg == "--cells") {
      if (!has_value) return Usage("--cells wants KERNEL@SIZE,... (e.g. tiled8_nosync12@256)");
      if (auto error = kernels::ParseRaceCellNames(argv[++i], named)) return Usage(("--cells: " + *error).c_str());
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage(("unknown option: " + arg).c_str());
    } else if (path.empty()) {
      path = arg;
    } else {
      return Usage(("one grid file, not also '" + arg + "'").c_str());
    }
  }
  if (path.empty()) return Usage("which race grid? (docs/results/h100-race-grid-*.txt)");
  std::ifstream in(path);
  if (!in) return Usage(("cannot open '" + path + "'").c_str());
  kernels::RaceGrid grid;
  if (auto error = kernels::ParseRaceGrid(in, grid)) {
    std::fprintf(stderr, "race_calibration: %s: %s\n", path.c_str(), error->c_str());
    return 2;
  }
  std::vector<const kernels::RaceGridCell*> cells;
  for (const kernels::RaceGridCell& cell : grid.cells) {
    const kernels::Shape& s = cell.shape;
    if (!kernels::IsCalibrated(s)) continue;
    if (max_size > 0 && std::max({s.m, s.n, s.k}) > max_size) continue;
    const auto names_it = [&](const kernels::RaceCellName& name) { return kernels::Names(name, cell); };
    if (!named.empty() && std::none_of(named.begin(), named.end(), names_it)) continue;
    cells.push_back(&cell);
  }
  // A named cell that selects nothing is a typo or a cell outside the calibration: say which.
  for (const kernels::RaceCellName& name : named) {
    const auto selected = [&](const kernels::RaceGridCell* cell) { return kernels::Names(name, *cell); };
    if (std::none_of(cells.begin(), cells.end(), selected)) {
      return Usage(("--cells: " + name.text + " is not a lesson-sized cell of " + path +
                    (max_size > 0 ? " up to --max-size " + std::to_string(max_size) : std::string()))
                       .c_str());
    }
  }
  // Cells are independent: J workers take them in turn; rows print in the grid's order.
  std::vector<kernels::ModelRaceCell> results(cells.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (int j = 0; j < jobs; ++j) {
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < cells.size(); i = next++) {
        results[i] = kernels::RunRaceCellOnModel(*cells[i], grid.fill_seed, seeds);
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  std::printf("model: realistic scheduler, seeds 1-%d, A and B from the runner's fill seed %llu; GPU: %s\n", seeds,
              static_cast<unsigned long long>(grid.fill_seed), path.c_str());
  std::printf("band: the GPU's min..max over its trials, widened by %.0f percentage points; fit cells: %s\n",
              kernels::kCalibrationSlackPercent, kernels::kCalibrationFitCells);
  std::printf("%-18s %-10s %-8s %-42s %-15s %-42s %-8s %-13s %s\n", "kernel", "size", "cells", "GPU differing per trial",
              "GPU % min-max", "model differing per seed", "model %", "band %", "verdict");
  int outside = 0;
  int known_gaps = 0;
  int wrong_flags = 0;
  int errors = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const kernels::RaceGridCell& cell = *cells[i];
    const kernels::ModelRaceCell& model = results[i];
    const std::string size = kernels::ToString(cell.shape);
    if (!model.error.empty()) {
      std::printf("%-18s %-10s error: %s\n", cell.kernel->name, size.c_str(), model.error.c_str());
      ++errors;
      continue;
    }
    const kernels::PercentRange gpu = kernels::GpuRange(cell);
    const kernels::PercentRange band = kernels::CalibrationBand(cell);
    const double mean = model.MeanPercent(cell.shape);
    const bool inside = band.Contains(mean);
    const bool flagged = !sim::RealisticCalibrationCaveat(*kernels::ModelLessonFor(*cell.kernel, cell.shape)).empty();
    const char* verdict = inside ? (flagged ? "within, yet FLAGGED" : "within") : (flagged ? "known gap" : "OUTSIDE");
    outside += !inside && !flagged;
    known_gaps += !inside && flagged;
    wrong_flags += inside && flagged;
    char gpu_text[32];
    char band_text[32];
    std::snprintf(gpu_text, sizeof gpu_text, "%.1f-%.1f", gpu.low, gpu.high);
    std::snprintf(band_text, sizeof band_text, "%.1f-%.1f", band.low, band.high);
    std::printf("%-18s %-10s %-8s %-42s %-15s %-42s %-8.1f %-13s %s\n", cell.kernel->name, size.c_str(),
                kernels::IsFitCell(cell.shape) ? "fit" : "held out", Counts(cell.differing_per_trial).c_str(), gpu_text,
                Counts(model.differing_per_seed).c_str(), mean, band_text, verdict);
  }
  std::printf("%zu cells: %zu within the band, %d known gaps (the race lab says why), %d outside unflagged, "
              "%d flagged yet within, %d could not run\n",
              cells.size(), cells.size() - static_cast<std::size_t>(outside + known_gaps + errors), known_gaps, outside,
              wrong_flags, errors);
  return check && (outside > 0 || wrong_flags > 0 || errors > 0) ? 1 : 0;
}
