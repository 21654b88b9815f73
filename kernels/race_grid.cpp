#include "kernels/race_grid.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <sstream>
#include <utility>

#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "sim/lesson/lesson_config.h"
#include "sim/model/machine.h"
#include "sim/lesson/teaching.h"

namespace kernels {
namespace {

std::string LineError(int line, const std::string& what) { return "race grid, line " + std::to_string(line) + ": " + what; }

bool ParseCount(const std::string& token, std::int64_t& value) {
  if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos || token.size() > 15) return false;
  value = std::stoll(token);
  return true;
}

// "race run: ..., 6 trials, seed 1": the seed after the last "seed ".
std::optional<std::uint64_t> SeedOf(const std::string& line) {
  const std::size_t at = line.rfind("seed ");
  if (at == std::string::npos) return std::nullopt;
  std::int64_t seed = 0;
  if (!ParseCount(line.substr(at + 5), seed)) return std::nullopt;
  return static_cast<std::uint64_t>(seed);
}

double Percent(std::int64_t count, const Shape& shape) {
  return 100.0 * static_cast<double>(count) / static_cast<double>(shape.m * shape.n);
}

}  // namespace

std::optional<std::string> ParseRaceGrid(std::istream& in, RaceGrid& grid) {
  RaceGrid parsed;
  bool seen_header = false;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#' || line.rfind("device:", 0) == 0 || line.rfind("kernel ", 0) == 0) continue;
    if (line.rfind("race run:", 0) == 0) {
      const auto seed = SeedOf(line);
      if (!seed) return LineError(number, "no 'seed N' in the race run's header");
      parsed.fill_seed = *seed;
      seen_header = true;
      continue;
    }
    std::istringstream tokens(line);
    std::string name;
    tokens >> name;
    const KernelSpec* kernel = FindKernel(name);
    if (kernel == nullptr) return LineError(number, "no kernel named '" + name + "'");
    // The label has spaces: it is the registry's, so it is skipped by its length.
    std::string rest;
    std::getline(tokens, rest);
    const std::size_t label_at = rest.find(kernel->label);
    if (label_at == std::string::npos) return LineError(number, "'" + name + "' without its label '" + kernel->label + "'");
    std::istringstream fields(rest.substr(label_at + std::string(kernel->label).size()));
    std::string size;
    fields >> size;
    RaceGridCell cell;
    cell.kernel = kernel;
    if (auto error = ParseShape(size, cell.shape)) return LineError(number, *error);
    std::string token;
    while (fields >> token) {
      if (token.back() == '%') break;  // the mean, which is recomputed from the trials
      std::int64_t count = 0;
      if (!ParseCount(token, count)) return LineError(number, "'" + token + "' is not a count of elements");
      if (count > cell.shape.m * cell.shape.n) {
        return LineError(number, token + " differing elements: more than C has (" + ToString(cell.shape) + ")");
      }
      cell.differing_per_trial.push_back(count);
    }
    if (cell.differing_per_trial.empty()) return LineError(number, "no trials");
    parsed.cells.push_back(std::move(cell));
  }
  if (!seen_header) return std::string("race grid: no 'race run:' header line");
  if (parsed.cells.empty()) return std::string("race grid: no rows");
  grid = std::move(parsed);
  return std::nullopt;
}

std::optional<std::string> ParseRaceCellNames(const std::string& text, std::vector<RaceCellName>& names) {
  std::vector<RaceCellName> parsed;
  std::istringstream entries(text);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    const std::size_t at = entry.find('@');
    if (at == std::string::npos) return "cell '" + entry + "' is not KERNEL@SIZE (e.g. tiled8_nosync12@256)";
    RaceCellName name;
    name.kernel = entry.substr(0, at);
    name.text = entry;
    if (FindKernel(name.kernel) == nullptr) return "cell '" + entry + "': no kernel named '" + name.kernel + "'";
    if (auto error = ParseShape(entry.substr(at + 1), name.shape)) return "cell '" + entry + "': " + *error;
    parsed.push_back(std::move(name));
  }
  if (parsed.empty()) return std::string("no cells named (KERNEL@SIZE,...)");
  names = std::move(parsed);
  return std::nullopt;
}

bool Names(const RaceCellName& name, const RaceGridCell& cell) {
  return name.kernel == cell.kernel->name && name.shape == cell.shape;
}

bool IsCalibrated(const Shape& shape) {
  return shape.m * shape.n <= sim::kCalibratedMaxElements && shape.k <= sim::kCalibratedMaxK;
}

bool IsFitCell(const Shape& shape) { return shape == Shape{32, 32, 64} || shape == Shape::Square(64); }

PercentRange GpuRange(const RaceGridCell& cell) {
  const auto [low, high] = std::minmax_element(cell.differing_per_trial.begin(), cell.differing_per_trial.end());
  return {Percent(*low, cell.shape), Percent(*high, cell.shape)};
}

PercentRange CalibrationBand(const RaceGridCell& cell) {
  const PercentRange gpu = GpuRange(cell);
  return {std::max(0.0, gpu.low - kCalibrationSlackPercent), std::min(100.0, gpu.high + kCalibrationSlackPercent)};
}

double ModelRaceCell::MeanPercent(const Shape& shape) const {
  if (differing_per_seed.empty()) return 0.0;
  double sum = 0.0;
  for (std::int64_t count : differing_per_seed) sum += Percent(count, shape);
  return sum / static_cast<double>(differing_per_seed.size());
}

ModelRaceCell RunRaceCellOnModel(const RaceGridCell& cell, std::uint64_t fill_seed, int seeds) {
  ModelRaceCell result;
  const RaceSet set = RaceSetForTile(cell.kernel->tile_m);
  if (set.baseline == nullptr) {
    result.error = std::string(cell.kernel->name) + ": no both-barriers kernel for its tile";
    return result;
  }
  const std::vector<float> a = SeededInput(fill_seed, 0, cell.shape.m, cell.shape.k);
  const std::vector<float> b = SeededInput(fill_seed, 1, cell.shape.k, cell.shape.n);
  try {
    // A bare machine, as "run 100 seeds" runs one: no history to step back through, so a
    // cell is not refused for the memory a lesson's history would take.
    const auto run = [&](const KernelSpec& kernel, std::uint64_t seed) {
      sim::LessonConfig lesson = ModelLessonFor(kernel, cell.shape, a, b);
      lesson.seed = seed;
      sim::Machine machine(lesson, a, b);
      while (machine.Step()) {
      }
      return machine.state().c;
    };
    const std::vector<float> baseline = run(*set.baseline, 1);
    for (int seed = 1; seed <= seeds; ++seed) {
      result.differing_per_seed.push_back(CountDifferingBits(run(*cell.kernel, static_cast<std::uint64_t>(seed)), baseline));
    }
  } catch (const std::exception& error) {
    result.error = std::string(cell.kernel->name) + " at " + ToString(cell.shape) + ": " + error.what();
  }
  return result;
}

std::optional<std::string> ParseModelGrid(std::istream& in, std::vector<RecordedModelCell>& cells) {
  std::vector<RecordedModelCell> parsed;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    // Comments, the header lines and the closing count ("44 cells: ...") carry no figures.
    if (line.empty() || line[0] == '#' || std::isdigit(static_cast<unsigned char>(line[0])) ||
        line.rfind("model:", 0) == 0 || line.rfind("band:", 0) == 0 || line.rfind("kernel ", 0) == 0) {
      continue;
    }
    std::istringstream tokens(line);
    std::string name;
    std::string size;
    std::string token;
    tokens >> name >> size >> token;
    RecordedModelCell cell;
    cell.kernel = FindKernel(name);
    if (cell.kernel == nullptr) return LineError(number, "no kernel named '" + name + "'");
    if (auto error = ParseShape(size, cell.shape)) return LineError(number, *error);
    if (token == "error:") continue;
    if (token == "held") tokens >> token;  // "held out"
    // The GPU's trials, its range ("43.8-53.1"), then the model's counts up to its mean ("44.8").
    while (tokens >> token && token.find('-') == std::string::npos) {
    }
    while (tokens >> token && token.find('.') == std::string::npos) {
      std::int64_t count = 0;
      if (!ParseCount(token, count)) return LineError(number, "'" + token + "' is not a count of elements");
      cell.differing_per_seed.push_back(count);
    }
    if (cell.differing_per_seed.empty()) return LineError(number, "no model counts");
    parsed.push_back(std::move(cell));
  }
  if (parsed.empty()) return std::string("model grid: no rows with figures");
  cells = std::move(parsed);
  return std::nullopt;
}

}  // namespace kernels
