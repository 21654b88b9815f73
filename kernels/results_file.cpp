// results_file.cpp — a results file on disk: CSV or JSON by its extension (the formats are
// results_csv.cpp and results_json.cpp, their shared fields results_fields.h).
#include "kernels/results_file.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"

namespace kernels {
namespace {

bool IsCsvPath(const std::string& path, bool& csv) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  auto ends_with = [&lower](const std::string& end) {
    return lower.size() >= end.size() && lower.compare(lower.size() - end.size(), end.size(), end) == 0;
  };
  csv = ends_with(".csv");
  return csv || ends_with(".json");
}

}  // namespace

std::string NowIso8601() {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return stamp;
}

std::optional<std::string> WriteResultsFile(const ResultsFile& file, const std::string& path) {
  bool csv = false;
  if (!IsCsvPath(path, csv)) return "cannot tell the format of " + path + ": name it .csv or .json";
  return sim::WriteFileAtomically(path, csv ? ResultsToCsv(file) : ResultsToJson(file));
}

std::optional<std::string> ReadResultsFile(const std::string& path, ResultsFile& file) {
  bool csv = false;
  if (!IsCsvPath(path, csv)) return "cannot tell the format of " + path + ": name it .csv or .json";
  const sim::InputFile input = sim::ReadInputFile(path, kMaxResultsFileBytes);
  if (!input.ok()) return input.error;
  auto error = csv ? ResultsFromCsv(input.bytes, file) : ResultsFromJson(input.bytes, file);
  if (error) return path + ": " + *error;
  return std::nullopt;
}

}  // namespace kernels
