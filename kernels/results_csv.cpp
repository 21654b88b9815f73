// results_csv.cpp — a results file as CSV (results_file.h says the format).
#include <sstream>

#include "kernels/results_fields.h"
#include "kernels/results_file.h"

namespace kernels {
namespace {

using namespace results_fields;

// RFC 4180: quote a field holding a comma, a quote or a line break; double inner quotes.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// Splits one CSV line; false on an unterminated quote (a truncated file).
bool SplitCsvLine(const std::string& line, std::vector<std::string>& cells) {
  cells.assign(1, "");
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return !quoted;
}

std::optional<std::string> ReadCsvMeta(const std::string& key, const std::string& value, ResultsFile& file,
                                       long long& expected_rows) {
  DeviceInfo& d = file.device;
  if (key == "format" && value != kFormatName) return std::string("not a TileScope results file");
  if (key == "device") d.name = value;
  if (key == "compute_capability" && !ParseCapability(value, d)) return "'" + value + "' is not MAJOR.MINOR";
  if (key == "sms") d.sm_count = ParseInteger<int>(value);
  if (key == "clock_mhz") d.clock_mhz = Measure(ParseDouble(value));
  if (key == "memory_bytes") d.total_memory_bytes = ByteCount(ParseDouble(value));
  if (key == "fp32_peak_gflops") d.fp32_peak_gflops = Measure(ParseDouble(value));
  if (key == "memory_bandwidth_gbs") d.memory_bandwidth_gbs = Measure(ParseDouble(value));
  if (key == "l2_bandwidth_gbs") d.l2_bandwidth_gbs = Measure(ParseDouble(value));
  if (key == "fp32_lanes_per_sm") d.fp32_lanes_per_sm = ParseInteger<int>(value);
  if (key == "measured_at") file.measured_at = value;
  if (key == "results") expected_rows = ParseInteger<long long>(value);
  return std::nullopt;
}

// Reads the first `columns` fields (the file's header names them) from one row.
std::optional<std::string> ReadCsvRow(const std::vector<std::string>& cells, std::size_t columns,
                                      BenchResult& result) {
  const std::vector<Field>& fields = Fields();
  if (cells.size() != columns) {
    return "expected " + std::to_string(columns) + " fields, found " + std::to_string(cells.size());
  }
  for (std::size_t i = 0; i < columns; ++i) {
    try {
      fields[i].from_text(result, cells[i]);
    } catch (const std::exception& error) {
      return std::string("field ") + fields[i].name + " = '" + cells[i] + "' is not valid: " + error.what();
    }
  }
  return MissingMeasuredFigure(result);
}

}  // namespace

std::string ResultsToCsv(const ResultsFile& file) {
  const DeviceInfo& d = file.device;
  std::ostringstream out;
  out << "# format: " << kFormatName << "\n# device: " << d.name << "\n# compute_capability: " << CapabilityText(d)
      << "\n# sms: " << d.sm_count << "\n# clock_mhz: " << NumberText(d.clock_mhz)
      << "\n# memory_bytes: " << NumberText(static_cast<double>(d.total_memory_bytes))
      << "\n# fp32_peak_gflops: " << NumberText(d.fp32_peak_gflops)
      << "\n# memory_bandwidth_gbs: " << NumberText(d.memory_bandwidth_gbs)
      << (d.l2_bandwidth_gbs > 0.0 ? "\n# l2_bandwidth_gbs: " + NumberText(d.l2_bandwidth_gbs) : std::string())
      << "\n# fp32_lanes_per_sm: " << d.fp32_lanes_per_sm << "\n# measured_at: " << file.measured_at
      << "\n# results: " << file.results.size() << "\n";
  const std::vector<Field>& fields = Fields();
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << fields[i].name;
  out << "\n";
  for (const BenchResult& r : file.results) {
    for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << CsvField(fields[i].to_text(r));
    out << "\n";
  }
  return out.str();
}

std::optional<std::string> ResultsFromCsv(const std::string& text, ResultsFile& file) {
  ResultsFile parsed;
  const std::vector<Field>& fields = Fields();
  std::istringstream in(text);
  std::string line;
  long long expected_rows = -1;
  bool format_seen = false;
  bool header_seen = false;
  std::size_t columns = 0;  // the fields the header names: all, or all but the optional ones
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = "line " + std::to_string(number) + ": ";
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line.rfind("# ", 0) == 0) {
      const auto colon = line.find(": ");
      if (colon == std::string::npos) continue;  // a comment, not a key
      const std::string key = line.substr(2, colon - 2);
      format_seen = format_seen || key == "format";
      try {
        if (auto error = ReadCsvMeta(key, line.substr(colon + 2), parsed, expected_rows)) return where + *error;
      } catch (const std::exception& error) {
        return where + "'" + line + "' has no valid number: " + error.what();
      }
      continue;
    }
    std::vector<std::string> cells;
    if (!SplitCsvLine(line, cells)) return where + "a quoted field does not end (truncated file?)";
    if (!header_seen) {
      if (!format_seen) return where + "no \"# format: tilescope-sweep\" line: not a TileScope results file";
      for (columns = 0; columns < fields.size() && columns < cells.size(); ++columns) {
        if (cells[columns] != fields[columns].name) break;
      }
      if (columns < RequiredFieldCount() || columns != cells.size()) {
        return where + "header row: expected column " + fields[std::min(columns, fields.size() - 1)].name;
      }
      header_seen = true;
      continue;
    }
    BenchResult r;
    if (auto error = ReadCsvRow(cells, columns, r)) return where + *error;
    parsed.results.push_back(std::move(r));
  }
  if (!header_seen) return std::string("no header row: not a TileScope results file");
  if (expected_rows < 0) return std::string("the \"# results: N\" line is missing");
  if (static_cast<long long>(parsed.results.size()) != expected_rows) {
    return "the file says " + std::to_string(expected_rows) + " results but holds " +
           std::to_string(parsed.results.size()) + " (truncated?)";
  }
  file = std::move(parsed);
  return std::nullopt;
}

}  // namespace kernels
