#include "kernels/results_fields.h"

#include <cstdio>

#include "sim/io/number_text.h"

namespace kernels::results_fields {

std::string NumberText(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

double ParseDouble(const std::string& text) {
  if (text == "nan" || text == "-nan") return std::nan("");
  if (text == "inf" || text == "-inf") return text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  std::string problem;
  const std::optional<double> value = sim::ReadDecimal(text, problem);
  if (!value) throw std::invalid_argument(problem);
  return *value;
}

std::uint64_t ByteCount(double value) {
  constexpr double kTwoTo64 = 18446744073709551616.0;
  if (!(value >= 0 && value < kTwoTo64)) {
    throw std::out_of_range("memory_bytes = " + NumberText(value) + " is not a byte count");
  }
  return static_cast<std::uint64_t>(value);
}

double Measure(double value) {
  if (value < 0) throw std::out_of_range(NumberText(value) + " is negative: a measured figure is at least 0");
  if (std::isinf(value)) throw std::out_of_range(NumberText(value) + " is not a finite figure");
  return value;
}

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

namespace {

// A matrix dimension: what bench accepts, so what it saved reads back.
std::int64_t Dimension(std::int64_t value) {
  if (value < 1 || value > kMaxShapeDimension) {
    throw std::out_of_range(std::to_string(value) + " is not a size from 1 to " + std::to_string(kMaxShapeDimension));
  }
  return value;
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

}  // namespace

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

std::size_t RequiredFieldCount() {
  std::size_t count = 0;
  for (const Field& field : Fields()) count += field.optional ? 0 : 1;
  return count;
}

std::string CapabilityText(const DeviceInfo& d) { return std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor); }

bool ParseCapability(const std::string& text, DeviceInfo& d) {
  return std::sscanf(text.c_str(), "%d.%d", &d.cc_major, &d.cc_minor) == 2;
}

}  // namespace kernels::results_fields
