// results_fields.h — what the two formats of a results file (results_json.cpp,
// results_csv.cpp) share: the table of a result's fields, each written and read as CSV text
// or as JSON, and the checks every figure read passes (results_file.h says the format).
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/device.h"
#include "sim/io/json_input.h"

namespace kernels::results_fields {

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

// The fields in CSV column order, and how many a file must hold (all but the optional ones
// at the end).
const std::vector<Field>& Fields();
std::size_t RequiredFieldCount();

// A figure as both formats write it: every digit a double holds ("%.17g").
std::string NumberText(double value);
// "nan" and "inf" as NumberText writes them; every other figure a decimal read whole ("0x10"
// or "1e-400" never reads as a figure). Throws std::invalid_argument naming the problem.
double ParseDouble(const std::string& text);
// Device memory, stored as a double: -1e300 or NaN cast to uint64 is undefined behaviour.
std::uint64_t ByteCount(double value);
// A figure a run measures or a device states (a time, GFLOPS, a percentage, an error, a
// clock): never negative, never infinite. NaN stands for none (a result with an error has
// no times; JSON writes it as null), so it is kept.
double Measure(double value);
// A row that says it was measured but holds no time or rate: what is missing, or nothing.
std::optional<std::string> MissingMeasuredFigure(const BenchResult& r);
// "9.0", and back; false when the text is not MAJOR.MINOR.
std::string CapabilityText(const DeviceInfo& d);
bool ParseCapability(const std::string& text, DeviceInfo& d);

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

}  // namespace kernels::results_fields
