#include "kernels/bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "kernels/registry.h"
#include "kernels/student_sweep.h"

namespace kernels {
namespace {

double Quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

constexpr std::int64_t kFirstDefaultSize = 256;
constexpr std::int64_t kLastDefaultSize = 8192;
constexpr std::int64_t kDefaultRaceSize = 1024;
constexpr int kMaxTrials = 10000;

bool IsPowerOfTwo(std::int64_t value) { return value > 0 && (value & (value - 1)) == 0; }

// A whole positive number, or nothing.
std::optional<std::int64_t> ParseCount(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream stream(text);
  while (std::getline(stream, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::optional<std::string> CheckShape(const Shape& shape) {
  if (shape.m < 1 || shape.n < 1 || shape.k < 1) {
    return "size " + ToString(shape) + ": every dimension must be at least 1";
  }
  if (shape.m > kMaxShapeDimension || shape.n > kMaxShapeDimension || shape.k > kMaxShapeDimension) {
    return "size " + ToString(shape) + ": every dimension must be at most " + std::to_string(kMaxShapeDimension) +
           " (the kernels take int sizes)";
  }
  return std::nullopt;
}

std::optional<std::string> ParseEntry(const std::string& entry, std::vector<Shape>& shapes) {
  const auto colon = entry.find(':');
  if (colon != std::string::npos) {
    const auto first = ParseCount(entry.substr(0, colon));
    const auto last = ParseCount(entry.substr(colon + 1));
    if (!first || !last) return "size range '" + entry + "': expected A:B with whole numbers";
    if (!IsPowerOfTwo(*first) || !IsPowerOfTwo(*last)) {
      return "size range '" + entry + "': both ends must be powers of two (e.g. 256:8192)";
    }
    if (*first > *last) return "size range '" + entry + "': the first end is larger than the last";
    for (std::int64_t size = *first; size <= *last; size *= 2) shapes.push_back(Shape::Square(size));
    return std::nullopt;
  }
  std::vector<std::string> dims;
  for (const std::string& dim : Split(entry, entry.find('x') != std::string::npos ? 'x' : 'X')) dims.push_back(dim);
  if (dims.size() != 1 && dims.size() != 3) return "size '" + entry + "': expected N, MxNxK or A:B";
  std::int64_t values[3];
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const auto value = ParseCount(dims[i]);
    if (!value) return "size '" + entry + "': '" + dims[i] + "' is not a whole number";
    values[i] = *value;
  }
  const Shape shape = dims.size() == 1 ? Shape::Square(values[0]) : Shape{values[0], values[1], values[2]};
  if (auto error = CheckShape(shape)) return error;
  shapes.push_back(shape);
  return std::nullopt;
}

std::string FormatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

}  // namespace

std::string ToString(const Shape& shape) {
  std::ostringstream text;
  if (shape.IsSquare()) {
    text << shape.m;
  } else {
    text << shape.m << "x" << shape.n << "x" << shape.k;
  }
  return text.str();
}

std::optional<std::string> ParseShapes(const std::string& text, std::vector<Shape>& shapes) {
  std::vector<Shape> parsed;
  for (const std::string& raw : Split(text, ',')) {
    const std::string entry = Trim(raw);
    if (entry.empty()) return "size list '" + text + "': empty entry";
    if (auto error = ParseEntry(entry, parsed)) return error;
  }
  if (parsed.empty()) return std::string("size list is empty");
  shapes = parsed;
  return std::nullopt;
}

std::optional<std::string> ParseShape(const std::string& text, Shape& shape) {
  std::vector<Shape> shapes;
  if (auto error = ParseShapes(text, shapes)) return error;
  if (shapes.size() != 1) return "'" + text + "' is " + std::to_string(shapes.size()) + " sizes, not one";
  shape = shapes.front();
  return std::nullopt;
}

std::vector<Shape> DefaultShapes() {
  std::vector<Shape> shapes;
  for (std::int64_t size = kFirstDefaultSize; size <= kLastDefaultSize; size *= 2) {
    shapes.push_back(Shape::Square(size));
  }
  return shapes;
}

double DeviceBytesFor(const Shape& shape, const std::vector<const KernelSpec*>& kernels) {
  const bool bf16 = std::any_of(kernels.begin(), kernels.end(), [](const KernelSpec* s) { return ReadsBf16Copies(*s); });
  const bool fp32 =
      std::any_of(kernels.begin(), kernels.end(), [](const KernelSpec* s) { return ReadsFp32KMajorCopies(*s); });
  constexpr long long kBf16Bytes = 2, kFloatBytes = 4;
  return BuffersFor(shape.m, shape.n, shape.k).Bytes() + (bf16 ? KMajorCopyBytes(shape.m, shape.n, shape.k, kBf16Bytes) : 0.0) +
         (fp32 ? KMajorCopyBytes(shape.m, shape.n, shape.k, kFloatBytes) : 0.0);
}

std::optional<std::string> DeviceMemoryError(const Shape& shape, const std::vector<const KernelSpec*>& kernels,
                                             std::uint64_t device_bytes) {
  const double needed = DeviceBytesFor(shape, kernels);
  if (needed <= static_cast<double>(device_bytes)) return std::nullopt;
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  char text[200];
  std::snprintf(text, sizeof text, " needs %.1f GiB (A, B, C and the reference C, padded for the unguarded kernel, "
                "and the K-major copies the tensor-core rows read); the device has %.1f GiB", needed / kGiB,
                static_cast<double>(device_bytes) / kGiB);
  return "n = " + ToString(shape) + text;
}

std::optional<std::string> ValidationError(const BenchRequest& request) {
  for (const std::string& name : request.kernels) {
    if (FindKernel(name) == nullptr) return "unknown kernel '" + name + "' (see tilescope bench --list)";
  }
  for (const Shape& shape : request.shapes) {
    if (auto error = CheckShape(shape)) return error;
  }
  if (request.student) {
    for (const Shape& shape : ResolveShapes(request)) {
      if (auto error = StudentShapeError(*request.student, shape)) return error;
    }
  }
  if (request.reps < 1 || request.reps > kMaxReps) {
    return "repetitions must be between 1 and " + std::to_string(kMaxReps);
  }
  if (request.warmups < 0 || request.warmups > kMaxReps) {
    return "warm-ups must be between 0 and " + std::to_string(kMaxReps);
  }
  return std::nullopt;
}

std::vector<const KernelSpec*> ResolveKernels(const BenchRequest& request) {
  if (request.kernels.empty()) return DefaultKernels();
  std::vector<const KernelSpec*> chosen;
  for (const std::string& name : request.kernels) {
    if (const KernelSpec* spec = FindKernel(name)) chosen.push_back(spec);
  }
  return chosen;
}

std::vector<Shape> ResolveShapes(const BenchRequest& request) {
  return request.shapes.empty() ? DefaultShapes() : request.shapes;
}

double Tolerance(Precision precision, std::int64_t k, double max_abs_a, double max_abs_b) {
  const double scale = max_abs_a * max_abs_b;
  if (precision == Precision::kTf32) return 8.0 * std::sqrt(static_cast<double>(k)) * std::ldexp(1.0, -11) * scale;
  if (precision == Precision::kBf16) return 8.0 * std::sqrt(static_cast<double>(k)) * std::ldexp(1.0, -8) * scale;
  return 2.0 * static_cast<double>(k) * std::ldexp(1.0, -23) * scale;
}

std::string DescribeTolerance(Precision precision, std::int64_t k, double max_abs_a, double max_abs_b) {
  const std::string rule = precision == Precision::kTf32   ? "8·sqrt(K)·2^-11"
                           : precision == Precision::kBf16 ? "8·sqrt(K)·2^-8"
                                                           : "2·K·2^-23";
  return "tolerance " + rule + "·max|A|·max|B| = " + FormatNumber(Tolerance(precision, k, max_abs_a, max_abs_b)) +
         " at K = " + std::to_string(k);
}

std::optional<std::string> ValidationError(const RaceRequest& request) {
  const std::vector<int> race_tiles = RaceTiles();
  for (int tile : request.tiles) {
    if (RaceSetForTile(tile).variants.empty()) {
      std::string known;
      for (int t : race_tiles) known += (known.empty() ? "" : ", ") + std::to_string(t);
      return "no race variants for TILE " + std::to_string(tile) + " (tiles with variants: " + known + ")";
    }
  }
  for (const Shape& shape : request.shapes) {
    if (auto error = CheckShape(shape)) return error;
  }
  if (request.trials < 1 || request.trials > kMaxTrials) {
    return "trials must be between 1 and " + std::to_string(kMaxTrials);
  }
  return std::nullopt;
}

std::vector<int> ResolveTiles(const RaceRequest& request) {
  return request.tiles.empty() ? RaceTiles() : request.tiles;
}

std::vector<Shape> ResolveShapes(const RaceRequest& request) {
  return request.shapes.empty() ? std::vector<Shape>{Shape::Square(kDefaultRaceSize)} : request.shapes;
}

void FillTimings(std::vector<double> times, BenchResult& result) {
  std::sort(times.begin(), times.end());
  result.reps = static_cast<int>(times.size());
  result.min_ms = times.front();
  result.max_ms = times.back();
  result.median_ms = Quantile(times, 0.5);
  result.q1_ms = Quantile(times, 0.25);
  result.q3_ms = Quantile(times, 0.75);
  result.gflops = result.median_ms > 0 ? result.shape.Flop() / (result.median_ms * 1e-3) / 1e9 : 0;
}

std::vector<LowestShare> LowestShares(const std::vector<BenchResult>& results) {
  std::vector<LowestShare> lowest;
  for (const BenchResult& r : results) {
    if (!r.ok() || !r.verified || r.percent_of_cublas <= 0 || r.kernel == r.percent_of) continue;
    auto it = std::find_if(lowest.begin(), lowest.end(), [&](const LowestShare& l) { return l.kernel == r.kernel; });
    if (it == lowest.end()) it = lowest.insert(lowest.end(), LowestShare{r.kernel, r.percent_of, r.percent_of_cublas, r.shape, 0});
    ++it->shapes;
    if (r.percent_of_cublas < it->percent) {
      it->percent = r.percent_of_cublas;
      it->shape = r.shape;
    }
  }
  return lowest;
}

}  // namespace kernels
