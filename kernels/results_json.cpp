// results_json.cpp — a results file as JSON (results_file.h says the format).
#include <nlohmann/json.hpp>

#include "kernels/ladder.h"
#include "kernels/registry.h"
#include "kernels/results_fields.h"
#include "kernels/results_file.h"
#include "sim/io/json_input.h"

namespace kernels {
namespace {

using namespace results_fields;

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

}  // namespace kernels
