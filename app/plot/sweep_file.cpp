#include "app/plot/sweep_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>

namespace plot {
namespace {

using kernels::BenchResult;
using nlohmann::json;

constexpr const char* kFormatName = "tilescope-sweep";
constexpr int kFormatVersion = 1;

// One column of a result: its name in both formats, and how it is written and read as text
// (CSV) or as JSON. One table, so the two formats cannot drift apart.
struct Field {
  const char* name;
  std::function<std::string(const BenchResult&)> to_text;
  std::function<json(const BenchResult&)> to_json;
  std::function<void(BenchResult&, const std::string&)> from_text;  // Throws std::invalid_argument.
  std::function<void(BenchResult&, const json&)> from_json;          // Throws json::exception.
};

std::string NumberText(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

double ParseDouble(const std::string& text) {
  size_t used = 0;
  const double value = std::stod(text, &used);
  if (used != text.size()) throw std::invalid_argument("trailing characters");
  return value;
}

long long ParseInteger(const std::string& text) {
  size_t used = 0;
  const long long value = std::stoll(text, &used);
  if (used != text.size()) throw std::invalid_argument("trailing characters");
  return value;
}

// JSON has no NaN: a NaN (an error that could not be measured) is written as null.
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
          [member](BenchResult& r, const std::string& t) { r.*member = ParseDouble(t); },
          [member](BenchResult& r, const json& j) { r.*member = DoubleFromJson(j); }};
}

template <typename Integer>
Field IntegerField(const char* name, Integer BenchResult::*member) {
  return {name, [member](const BenchResult& r) { return std::to_string(r.*member); },
          [member](const BenchResult& r) { return json(r.*member); },
          [member](BenchResult& r, const std::string& t) { r.*member = static_cast<Integer>(ParseInteger(t)); },
          [member](BenchResult& r, const json& j) { r.*member = j.get<Integer>(); }};
}

Field ShapeField(const char* name, std::int64_t kernels::Shape::*member) {
  return {name, [member](const BenchResult& r) { return std::to_string(r.shape.*member); },
          [member](const BenchResult& r) { return json(r.shape.*member); },
          [member](BenchResult& r, const std::string& t) { r.shape.*member = ParseInteger(t); },
          [member](BenchResult& r, const json& j) { r.shape.*member = j.get<std::int64_t>(); }};
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

std::vector<Field> MakeFields() {
  return {TextField("kernel", &BenchResult::kernel),
          TextField("label", &BenchResult::label),
          ShapeField("m", &kernels::Shape::m),
          ShapeField("n", &kernels::Shape::n),
          ShapeField("k", &kernels::Shape::k),
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
          IntegerField("threads_per_block", &BenchResult::threads_per_block)};
}

json DeviceJson(const DeviceFacts& d) {
  return {{"name", d.name},   {"compute_capability", d.compute_capability}, {"sms", d.sms},
          {"clock_mhz", d.clock_mhz}, {"memory_bytes", d.memory_bytes},    {"fp32_peak_gflops", d.fp32_peak_gflops}};
}

DeviceFacts DeviceFromJson(const json& j) {
  DeviceFacts d;
  d.available = true;
  d.name = j.at("name").get<std::string>();
  d.compute_capability = j.at("compute_capability").get<std::string>();
  d.sms = j.at("sms").get<int>();
  d.clock_mhz = j.at("clock_mhz").get<double>();
  d.memory_bytes = j.at("memory_bytes").get<double>();
  d.fp32_peak_gflops = j.at("fp32_peak_gflops").get<double>();
  return d;
}

// RFC 4180: quote a field holding a comma, a quote or a line break; double inner quotes.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// Splits one CSV line; returns false on an unterminated quote (a truncated file).
bool SplitCsvLine(const std::string& line, std::vector<std::string>& fields) {
  fields.assign(1, "");
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return !quoted;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool EndsWith(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// The "# key: value" lines the CSV starts with.
std::optional<std::string> ReadCsvMeta(const std::string& key, const std::string& value, SweepFile& sweep,
                                       long long& expected_rows) {
  DeviceFacts& d = sweep.device;
  if (key == "format") return value == kFormatName ? std::nullopt : std::optional<std::string>("not a TileScope sweep");
  if (key == "device") d.name = value;
  if (key == "compute_capability") d.compute_capability = value;
  if (key == "sms") d.sms = static_cast<int>(ParseInteger(value));
  if (key == "clock_mhz") d.clock_mhz = ParseDouble(value);
  if (key == "memory_bytes") d.memory_bytes = ParseDouble(value);
  if (key == "fp32_peak_gflops") d.fp32_peak_gflops = ParseDouble(value);
  if (key == "measured_at") sweep.measured_at = value;
  if (key == "results") expected_rows = ParseInteger(value);
  return std::nullopt;
}

std::optional<std::string> ReadCsvRow(const std::vector<Field>& fields, const std::vector<std::string>& cells,
                                      BenchResult& result) {
  if (cells.size() != fields.size()) {
    return "expected " + std::to_string(fields.size()) + " fields, found " + std::to_string(cells.size());
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    try {
      fields[i].from_text(result, cells[i]);
    } catch (const std::exception&) {
      return std::string("field ") + fields[i].name + " = '" + cells[i] + "' is not valid";
    }
  }
  return std::nullopt;
}

}  // namespace

std::string NowIso8601() {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return stamp;
}

std::string SweepToJson(const SweepFile& sweep) {
  json j = {{"format", kFormatName}, {"version", kFormatVersion}, {"device", DeviceJson(sweep.device)},
            {"measured_at", sweep.measured_at}, {"results", json::array()}};
  const std::vector<Field> fields = MakeFields();
  for (const BenchResult& r : sweep.results) {
    json row = json::object();
    for (const Field& f : fields) row[f.name] = f.to_json(r);
    j["results"].push_back(std::move(row));
  }
  return j.dump(2) + "\n";
}

std::optional<std::string> SweepFromJson(const std::string& text, SweepFile& sweep) {
  SweepFile parsed;
  size_t index = 0;
  try {
    const json j = json::parse(text);
    if (j.value("format", "") != kFormatName) return std::string("not a TileScope sweep (\"format\" is missing)");
    if (j.at("version").get<int>() != kFormatVersion) return "unknown version " + j.at("version").dump();
    parsed.device = DeviceFromJson(j.at("device"));
    parsed.measured_at = j.at("measured_at").get<std::string>();
    const std::vector<Field> fields = MakeFields();
    for (const json& row : j.at("results")) {
      BenchResult r;
      for (const Field& f : fields) f.from_json(r, row.at(f.name));
      parsed.results.push_back(std::move(r));
      ++index;
    }
  } catch (const nlohmann::json::exception& e) {
    return "result " + std::to_string(index + 1) + " or the header: " + e.what();
  }
  sweep = std::move(parsed);
  return std::nullopt;
}

std::string SweepToCsv(const SweepFile& sweep) {
  const DeviceFacts& d = sweep.device;
  std::ostringstream out;
  out << "# format: " << kFormatName << "\n# device: " << d.name << "\n# compute_capability: " << d.compute_capability
      << "\n# sms: " << d.sms << "\n# clock_mhz: " << NumberText(d.clock_mhz)
      << "\n# memory_bytes: " << NumberText(d.memory_bytes) << "\n# fp32_peak_gflops: " << NumberText(d.fp32_peak_gflops)
      << "\n# measured_at: " << sweep.measured_at << "\n# results: " << sweep.results.size() << "\n";
  const std::vector<Field> fields = MakeFields();
  for (size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << fields[i].name;
  out << "\n";
  for (const BenchResult& r : sweep.results) {
    for (size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << CsvField(fields[i].to_text(r));
    out << "\n";
  }
  return out.str();
}

std::optional<std::string> SweepFromCsv(const std::string& text, SweepFile& sweep) {
  SweepFile parsed;
  parsed.device.available = true;
  const std::vector<Field> fields = MakeFields();
  std::istringstream in(text);
  std::string line;
  long long expected_rows = -1;
  bool header_seen = false;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = "line " + std::to_string(number) + ": ";
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line.rfind("# ", 0) == 0) {
      const auto colon = line.find(": ");
      if (colon == std::string::npos) continue;  // A comment, not a key.
      try {
        if (auto error = ReadCsvMeta(line.substr(2, colon - 2), line.substr(colon + 2), parsed, expected_rows)) {
          return where + *error;
        }
      } catch (const std::exception&) {
        return where + "'" + line + "' has no valid number";
      }
      continue;
    }
    std::vector<std::string> cells;
    if (!SplitCsvLine(line, cells)) return where + "a quoted field does not end (truncated file?)";
    if (!header_seen) {
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i >= cells.size() || cells[i] != fields[i].name) return where + "header row: expected column " + fields[i].name;
      }
      header_seen = true;
      continue;
    }
    BenchResult r;
    if (auto error = ReadCsvRow(fields, cells, r)) return where + *error;
    parsed.results.push_back(std::move(r));
  }
  if (!header_seen) return std::string("no header row: not a TileScope sweep");
  if (expected_rows < 0) return std::string("the \"# results: N\" line is missing");
  if (static_cast<long long>(parsed.results.size()) != expected_rows) {
    return "the file says " + std::to_string(expected_rows) + " results but holds " +
           std::to_string(parsed.results.size()) + " (truncated?)";
  }
  sweep = std::move(parsed);
  return std::nullopt;
}

std::optional<std::string> WriteSweepFile(const SweepFile& sweep, const std::string& path) {
  const std::string lower = Lower(path);
  const bool csv = EndsWith(lower, ".csv");
  if (!csv && !EndsWith(lower, ".json")) return "cannot tell the format of " + path + ": name it .csv or .json";
  std::ofstream out(path, std::ios::trunc | std::ios::binary);
  out << (csv ? SweepToCsv(sweep) : SweepToJson(sweep));
  if (!out) return "cannot write " + path;
  return std::nullopt;
}

std::optional<std::string> ReadSweepFile(const std::string& path, SweepFile& sweep) {
  const std::string lower = Lower(path);
  const bool csv = EndsWith(lower, ".csv");
  if (!csv && !EndsWith(lower, ".json")) return "cannot tell the format of " + path + ": name it .csv or .json";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot open " + path;
  std::ostringstream text;
  text << in.rdbuf();
  auto error = csv ? SweepFromCsv(text.str(), sweep) : SweepFromJson(text.str(), sweep);
  if (error) return path + ": " + *error;
  return std::nullopt;
}

}  // namespace plot
