#include "kernels/results_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "kernels/ladder.h"
#include "kernels/registry.h"
#include "sim/io/atomic_file.h"
#include "sim/io/input_file.h"
#include "sim/io/json_input.h"
#include "sim/io/number_text.h"

namespace kernels {
namespace {

using nlohmann::json;

constexpr const char* kFormatName = "tilescope-sweep";
constexpr int kFormatVersion = 1;

// One column of a result, written and read as CSV text or as JSON. One table, so the two
// formats cannot drift apart; the order is the CSV column order.
struct Field {
  const char* name;
  std::function<std::string(const BenchResult&)> to_text;
  std::function<json(const BenchResult&)> to_json;
  std::function<void(BenchResult&, const std::string&)> from_text;  // throws on a bad value
  std::function<void(BenchResult&, const json&)> from_json;         // throws json::exception
  // Files written before the field existed lack it; such fields come last, and reading
  // leaves them empty where the file has none.
  bool optional = false;
};

std::string NumberText(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// "nan" and "inf" as %.17g writes them (NaN: no figure, a result with an error); every other
// figure is a decimal read whole: "0x10" or "1e-400" never reads as a figure.
double ParseDouble(const std::string& text) {
  if (text == "nan" || text == "-nan") return std::nan("");
  if (text == "inf" || text == "-inf") return text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  std::string problem;
  const std::optional<double> value = sim::ReadDecimal(text, problem);
  if (!value) throw std::invalid_argument(problem);
  return *value;
}

// Whether `value` fits Integer: a cast would wrap it (or, from a double, be undefined).
template <typename Integer>
bool Fits(std::int64_t value) {
  using Limits = std::numeric_limits<Integer>;
  if (value < 0) return Limits::is_signed && value >= static_cast<std::int64_t>(Limits::min());
  return static_cast<std::uint64_t>(value) <= static_cast<std::uint64_t>(Limits::max());
}

template <typename Integer>
Integer ParseInteger(const std::string& text) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::out_of_range&) {
    throw std::out_of_range("beyond the range of a 64-bit integer");
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("not a whole number");
  }
  if (used != text.size()) throw std::invalid_argument("trailing characters");
  if (!Fits<Integer>(value)) throw std::out_of_range("out of range");
  return static_cast<Integer>(value);
}

// A JSON integer that fits Integer. A float is refused even when whole: 1e300 cast to int
// is undefined behaviour, and a saved file only ever holds integers here.
template <typename Integer>
Integer IntegerFromJson(const json& j) {
  if (!j.is_number_integer()) throw std::invalid_argument(sim::DescribeJsonValue(j) + " is not an integer");
  const bool fits = j.is_number_unsigned()
                        ? j.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<Integer>::max())
                        : Fits<Integer>(j.get<std::int64_t>());
  if (!fits) throw std::out_of_range(sim::DescribeJsonValue(j) + " is out of range");
  return j.get<Integer>();
}

// Device memory, stored as a double: -1e300 or NaN cast to uint64 is undefined behaviour.
std::uint64_t ByteCount(double value) {
  constexpr double kTwoTo64 = 18446744073709551616.0;
  if (!(value >= 0 && value < kTwoTo64)) {
    throw std::out_of_range("memory_bytes = " + NumberText(value) + " is not a byte count");
  }
  return static_cast<std::uint64_t>(value);
}

// A figure a run measures or a device states (a time, GFLOPS, a percentage, an error, a
// clock): never negative, never infinite. NaN stands for none (a result with an error has
// no times; JSON writes it as null), so it is kept.
double Measure(double value) {
  if (value < 0) throw std::out_of_range(NumberText(value) + " is negative: a measured figure is at least 0");
  if (std::isinf(value)) throw std::out_of_range(NumberText(value) + " is not a finite figure");
  return value;
}

// A matrix dimension: what bench accepts, so what it saved reads back.
std::int64_t Dimension(std::int64_t value) {
  if (value < 1 || value > kMaxShapeDimension) {
    throw std::out_of_range(std::to_string(value) + " is not a size from 1 to " + std::to_string(kMaxShapeDimension));
  }
  return value;
}

// NaN stands for "no figure", which only a result with an error may have: a row that says it
// was measured but holds no time or rate would be plotted as a measurement.
std::optional<std::string> MissingMeasuredFigure(const BenchResult& r) {
  if (!r.ok()) return std::nullopt;
  for (const auto& [name, figure] : {std::pair<const char*, double>{"median_ms", r.median_ms}, {"min_ms", r.min_ms},
                                     {"max_ms", r.max_ms}, {"q1_ms", r.q1_ms}, {"q3_ms", r.q3_ms},
                                     {"gflops", r.gflops}}) {
    if (std::isnan(figure)) {
      return std::string(name) + " is NaN (no figure), but the result has no error: a measured result has its figures";
    }
  }
  return std::nullopt;
}

// JSON has no NaN (a C element never written gives a NaN error): written as null.
json DoubleJson(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }
double DoubleFromJson(const json& j) { return j.is_null() ? std::nan("") : j.get<double>(); }

Field TextField(const char* name, std::string BenchResult::*member) {
  return {name, [member](const BenchResult& r) { return r.*member; },
          [member](const BenchResult& r) { return json(r.*member); },
          [member](BenchResult& r, const std::string& t) { r.*member = t; },
          [member](BenchResult& r, const json& j) { r.*member = j.get<std::string>(); }};
}

Field DoubleField(const char* name, double BenchResult::*member) {
  return {name, [member](const BenchResult& r) { return NumberText(r.*member); },
          [member](const BenchResult& r) { return DoubleJson(r.*member); },
          [member](BenchResult& r, const std::string& t) { r.*member = Measure(ParseDouble(t)); },
          [member](BenchResult& r, const json& j) { r.*member = Measure(DoubleFromJson(j)); }};
}

template <typename Integer>
Field IntegerField(const char* name, Integer BenchResult::*member) {
  return {name, [member](const BenchResult& r) { return std::to_string(r.*member); },
          [member](const BenchResult& r) { return json(r.*member); },
          [member](BenchResult& r, const std::string& t) { r.*member = ParseInteger<Integer>(t); },
          [member](BenchResult& r, const json& j) { r.*member = IntegerFromJson<Integer>(j); }};
}

Field ShapeField(const char* name, std::int64_t Shape::*member) {
  return {
      name, [member](const BenchResult& r) { return std::to_string(r.shape.*member); },
      [member](const BenchResult& r) { return json(r.shape.*member); },
      [member](BenchResult& r, const std::string& t) { r.shape.*member = Dimension(ParseInteger<std::int64_t>(t)); },
      [member](BenchResult& r, const json& j) { r.shape.*member = Dimension(IntegerFromJson<std::int64_t>(j)); }};
}

Field VerifiedField() {
  return {"verified", [](const BenchResult& r) { return std::string(r.verified ? "true" : "false"); },
          [](const BenchResult& r) { return json(r.verified); },
          [](BenchResult& r, const std::string& t) {
            if (t != "true" && t != "false") throw std::invalid_argument("expected true or false");
            r.verified = t == "true";
          },
          [](BenchResult& r, const json& j) { r.verified = j.get<bool>(); }};
}

Field Optional(Field field) {
  field.optional = true;
  return field;
}

const std::vector<Field>& Fields() {
  static const std::vector<Field> fields = {TextField("kernel", &BenchResult::kernel),
                                            TextField("label", &BenchResult::label),
                                            ShapeField("m", &Shape::m),
                                            ShapeField("n", &Shape::n),
                                            ShapeField("k", &Shape::k),
                                            TextField("error", &BenchResult::error),
                                            IntegerField("reps", &BenchResult::reps),
                                            DoubleField("median_ms", &BenchResult::median_ms),
                                            DoubleField("min_ms", &BenchResult::min_ms),
                                            DoubleField("max_ms", &BenchResult::max_ms),
                                            DoubleField("q1_ms", &BenchResult::q1_ms),
                                            DoubleField("q3_ms", &BenchResult::q3_ms),
                                            DoubleField("gflops", &BenchResult::gflops),
                                            DoubleField("percent_of_cublas", &BenchResult::percent_of_cublas),
                                            DoubleField("max_abs_error", &BenchResult::max_abs_error),
                                            DoubleField("tolerance", &BenchResult::tolerance),
                                            IntegerField("wrong_elements", &BenchResult::wrong_elements),
                                            VerifiedField(),
                                            IntegerField("occupancy_blocks_per_sm", &BenchResult::occupancy_blocks_per_sm),
                                            IntegerField("threads_per_block", &BenchResult::threads_per_block),
                                            Optional(TextField("math", &BenchResult::math)),
                                            Optional(TextField("percent_of", &BenchResult::percent_of))};
  return fields;
}

// Fields a file must hold: all but the optional ones at the end.
std::size_t RequiredFieldCount() {
  std::size_t count = 0;
  for (const Field& field : Fields()) count += field.optional ? 0 : 1;
  return count;
}

std::string CapabilityText(const DeviceInfo& d) { return std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor); }

bool ParseCapability(const std::string& text, DeviceInfo& d) {
  return std::sscanf(text.c_str(), "%d.%d", &d.cc_major, &d.cc_minor) == 2;
}

// The device facts, under the keys the live panel's reader knows, plus the rest.
json DeviceJson(const DeviceInfo& d) {
  json device = {{"name", d.name},
                 {"compute_capability", CapabilityText(d)},
                 {"sms", d.sm_count},
                 {"clock_mhz", d.clock_mhz},
                 {"memory_bytes", static_cast<double>(d.total_memory_bytes)},
                 {"fp32_peak_gflops", d.fp32_peak_gflops},
                 {"memory_bandwidth_gbs", d.memory_bandwidth_gbs},
                 {"fp32_lanes_per_sm", d.fp32_lanes_per_sm}};
  // Only where measured: a file without the key is one whose run did not measure it.
  if (d.l2_bandwidth_gbs > 0.0) device["l2_bandwidth_gbs"] = d.l2_bandwidth_gbs;
  return device;
}

// A key the header must have, named when it is missing or of another type (the JSON library's
// own message is "[json.exception.out_of_range.403] key 'name' not found").
const json& Required(const json& j, const char* key) {
  if (!j.is_object()) throw std::invalid_argument("is " + sim::DescribeJsonValue(j) + ", not an object");
  if (!j.contains(key)) throw std::invalid_argument(std::string("no \"") + key + "\" key");
  return j.at(key);
}

std::string RequiredString(const json& j, const char* key) {
  const json& value = Required(j, key);
  if (!value.is_string()) throw std::invalid_argument(std::string(key) + " is " + sim::DescribeJsonValue(value) + ", not a string");
  return value.get<std::string>();
}

double RequiredNumber(const json& j, const char* key) {
  const json& value = Required(j, key);
  if (!value.is_number()) throw std::invalid_argument(std::string(key) + " is " + sim::DescribeJsonValue(value) + ", not a number");
  return value.get<double>();
}

DeviceInfo DeviceFromJson(const json& j) {
  DeviceInfo d;
  d.name = RequiredString(j, "name");
  if (!ParseCapability(RequiredString(j, "compute_capability"), d)) {
    throw std::invalid_argument("compute_capability is not MAJOR.MINOR");
  }
  d.sm_count = IntegerFromJson<int>(Required(j, "sms"));
  d.clock_mhz = Measure(RequiredNumber(j, "clock_mhz"));
  d.total_memory_bytes = ByteCount(RequiredNumber(j, "memory_bytes"));
  d.fp32_peak_gflops = Measure(RequiredNumber(j, "fp32_peak_gflops"));
  d.memory_bandwidth_gbs = Measure(j.value("memory_bandwidth_gbs", 0.0));
  d.l2_bandwidth_gbs = j.contains("l2_bandwidth_gbs") ? Measure(RequiredNumber(j, "l2_bandwidth_gbs")) : 0.0;
  d.fp32_lanes_per_sm = j.contains("fp32_lanes_per_sm") ? IntegerFromJson<int>(j.at("fp32_lanes_per_sm")) : 0;
  return d;
}

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

namespace {

// What the ladder view shows beside a result, for readers of the JSON (never read back: the
// registry derives them again).
void AddLadderFigures(const BenchResult& r, json& row) {
  const KernelSpec* spec = FindKernel(r.kernel);
  if (spec == nullptr) return;
  row["idea"] = IdeaOf(*spec);
  if (const std::optional<double> intensity = LoadIntensity(*spec, r.shape)) row["flop_per_byte"] = *intensity;
}

}  // namespace

std::string ResultsToJson(const ResultsFile& file) {
  json j = {{"format", kFormatName},
            {"version", kFormatVersion},
            {"device", DeviceJson(file.device)},
            {"measured_at", file.measured_at},
            {"results", json::array()}};
  for (const BenchResult& r : file.results) {
    json row = json::object();
    for (const Field& f : Fields()) row[f.name] = f.to_json(r);
    AddLadderFigures(r, row);
    j["results"].push_back(std::move(row));
  }
  return j.dump(2) + "\n";
}

std::optional<std::string> ResultsFromJson(const std::string& text, ResultsFile& file) {
  ResultsFile parsed;
  std::size_t index = 0;
  const sim::JsonDocument document = sim::ParseJsonText(text);
  if (!document.ok()) return document.error;
  try {
    const json& j = document.value;
    if (!j.is_object() || j.value("format", "") != kFormatName) {
      return std::string("not a TileScope results file (\"format\" is not \"") + kFormatName + "\")";
    }
    if (j.value("version", json()) != json(kFormatVersion)) {
      return "unknown version " + sim::DescribeJsonValue(j.value("version", json()));
    }
    try {
      parsed.device = DeviceFromJson(Required(j, "device"));
    } catch (const std::exception& e) {
      return std::string("device: ") + e.what();
    }
    parsed.measured_at = RequiredString(j, "measured_at");
    const json& results = Required(j, "results");
    if (!results.is_array()) return "results is " + sim::DescribeJsonValue(results) + ", not an array";
    for (const json& row : results) {
      BenchResult r;
      for (const Field& f : Fields()) {
        if (f.optional && !row.contains(f.name)) continue;
        if (!row.is_object() || !row.contains(f.name)) {
          return "result " + std::to_string(index + 1) + ": no \"" + f.name + "\" key";
        }
        try {
          f.from_json(r, row.at(f.name));
        } catch (const std::exception& e) {
          return "result " + std::to_string(index + 1) + ": " + f.name + ": " + e.what();
        }
      }
      if (auto missing = MissingMeasuredFigure(r)) return "result " + std::to_string(index + 1) + ": " + *missing;
      parsed.results.push_back(std::move(r));
      ++index;
    }
  } catch (const std::exception& e) {
    return "result " + std::to_string(index + 1) + " or the header: " + e.what();
  }
  file = std::move(parsed);
  return std::nullopt;
}

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
