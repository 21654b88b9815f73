#include "app/plot/axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plot {
namespace {

constexpr double kHalfOctave = 1.4142135623730951;  // √2: half an octave of margin on a log2 axis.
constexpr double kEmptyLog2Lo = 256.0;
constexpr double kEmptyLog2Hi = 4096.0;
constexpr double kFifthOfADecade = 1.5848931924611136;  // 10^0.2
constexpr double kEmptyLogLo = 1.0;
constexpr double kEmptyLogHi = 1000.0;
constexpr int kMinDecadeTicks = 3;
constexpr int kMaxDecadeTicks = 12;  // more decades than this are labelled every 2nd, 4th… one
// Tolerance for "a tick lands on the axis end": floating steps like 0.1·3 miss by ulps.
constexpr double kTickSlack = 1e-9;
// Axis ends stay within ±1e300, so padding a range or taking its span never overflows to
// inf (a saved result can hold 1e308): inf would reach the float → int casts of the ticks.
constexpr double kMaxAxisMagnitude = 1e300;
// A tick index past 2^53 is no longer exact as a double; an axis that far from 0 in steps
// gets no ticks rather than wrong ones (or a loop over billions of them).
constexpr double kMaxTickIndex = 9007199254740992.0;

double Bounded(double value) { return std::clamp(value, -kMaxAxisMagnitude, kMaxAxisMagnitude); }

Range Bounded(Range range) { return range.empty ? range : Range::Of(Bounded(range.lo), Bounded(range.hi)); }

// An axis ticks can be placed on: finite ends, lo below hi, a finite span.
bool Measurable(Range axis) {
  return !axis.empty && std::isfinite(axis.lo) && std::isfinite(axis.hi) && axis.hi > axis.lo &&
         std::isfinite(axis.Span());
}

std::string FormatWithDecimals(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Decimals a step like 0.05 needs ("0.05", not "0.1" or "0.0500").
int DecimalsFor(double step) {
  if (step >= 1.0) return 0;
  return static_cast<int>(std::ceil(-std::log10(step) - kTickSlack));
}

}  // namespace

Range Extent(const std::vector<double>& values, bool positive_only) {
  Range range;
  for (double v : values) {
    if (!std::isfinite(v) || (positive_only && v <= 0.0)) continue;
    if (range.empty) {
      range = Range::Of(v, v);
    } else {
      range.lo = std::min(range.lo, v);
      range.hi = std::max(range.hi, v);
    }
  }
  return range;
}

Range Union(Range a, Range b) {
  if (a.empty) return b;
  if (b.empty) return a;
  return Range::Of(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}

Range Log2AxisRange(Range data) {
  data = Bounded(data);
  if (data.empty || data.lo <= 0.0) data = Range::Of(kEmptyLog2Lo, kEmptyLog2Hi);
  return Range::Of(data.lo / kHalfOctave, data.hi * kHalfOctave);
}

Range LinearAxisRange(Range data, bool from_zero, int target_ticks) {
  data = Bounded(data);
  if (data.empty) return Range::Of(0.0, 1.0);
  const double lo = from_zero ? std::min(0.0, data.lo) : data.lo;
  const double hi = from_zero ? std::max(0.0, data.hi) : data.hi;
  if (hi - lo <= 0.0) {
    // One value: a unit-wide window around it (or 0…1 when it is 0) keeps it visible.
    if (hi == 0.0) return Range::Of(0.0, 1.0);
    const double step = NiceStep(std::fabs(hi), target_ticks);
    return Range::Of(std::floor(lo / step) * step - step, std::ceil(hi / step) * step + step);
  }
  const double step = NiceStep(hi - lo, target_ticks);
  return Range::Of(std::floor(lo / step + kTickSlack) * step, std::ceil(hi / step - kTickSlack) * step);
}

double NiceStep(double span, int target_ticks) {
  if (!(span > 0.0) || !std::isfinite(span)) return 1.0;
  const double raw = span / std::max(1, target_ticks);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0}) {
    if (factor * decade >= raw * (1.0 - kTickSlack)) return factor * decade;
  }
  return 10.0 * decade;
}

std::vector<Tick> Log2Ticks(Range axis, int max_ticks) {
  std::vector<Tick> ticks;
  if (!Measurable(axis) || axis.lo <= 0.0) return ticks;
  const int first = static_cast<int>(std::ceil(std::log2(axis.lo) - kTickSlack));
  const int last = static_cast<int>(std::floor(std::log2(axis.hi) + kTickSlack));
  const int count = last - first + 1;
  if (count <= 0) return ticks;
  int stride = 1;
  while (count > stride * std::max(1, max_ticks)) stride *= 2;
  for (int p = first; p <= last; ++p) {
    if ((p - first) % stride != 0) continue;
    const double value = std::ldexp(1.0, p);
    ticks.push_back({value, p >= 0 ? FormatWithDecimals(value, 0) : FormatWithDecimals(value, -p)});
  }
  return ticks;
}

std::vector<Tick> LinearTicks(Range axis, int target_ticks) {
  std::vector<Tick> ticks;
  if (!Measurable(axis)) return ticks;
  const double step = NiceStep(axis.Span(), target_ticks);
  const int decimals = DecimalsFor(step);
  const double first_index = std::ceil(axis.lo / step - kTickSlack);
  const double last_index = std::floor(axis.hi / step + kTickSlack);
  if (!(std::fabs(first_index) <= kMaxTickIndex && std::fabs(last_index) <= kMaxTickIndex)) return ticks;
  const long first = static_cast<long>(first_index);
  const long last = static_cast<long>(last_index);
  for (long i = first; i <= last; ++i) {
    const double value = static_cast<double>(i) * step;  // i·step, not a running sum: no drift.
    ticks.push_back({value, FormatWithDecimals(i == 0 ? 0.0 : value, decimals)});
  }
  return ticks;
}

Range LogAxisRange(Range data) {
  data = Bounded(data);
  if (data.empty || data.lo <= 0.0) return Range::Of(kEmptyLogLo, kEmptyLogHi);
  return Range::Of(data.lo / kFifthOfADecade, data.hi * kFifthOfADecade);
}

std::vector<Tick> LogTicks(Range axis) {
  std::vector<Tick> ticks;
  if (!Measurable(axis) || axis.lo <= 0.0) return ticks;
  const int first = static_cast<int>(std::floor(std::log10(axis.lo)));
  const int last = static_cast<int>(std::ceil(std::log10(axis.hi)));
  int stride = 1;
  while (last - first + 1 > stride * kMaxDecadeTicks) stride *= 2;
  auto add = [&](std::initializer_list<double> mantissas) {
    ticks.clear();
    for (int p = first; p <= last; p += stride) {
      for (double m : mantissas) {
        const double value = m * std::pow(10.0, p);
        if (value < axis.lo * (1.0 - kTickSlack) || value > axis.hi * (1.0 + kTickSlack)) continue;
        ticks.push_back({value, FormatWithDecimals(value, p >= 0 ? 0 : -p)});
      }
    }
  };
  add({1.0});
  if (static_cast<int>(ticks.size()) < kMinDecadeTicks) add({1.0, 2.0, 5.0});
  return ticks;
}

double LinearFraction(Range axis, double value) {
  if (axis.empty || !(axis.hi > axis.lo)) return 0.5;
  return (value - axis.lo) / axis.Span();
}

double Log2Fraction(Range axis, double value) {
  if (value <= 0.0) return std::nan("");
  if (axis.empty || axis.lo <= 0.0 || !(axis.hi > axis.lo)) return 0.5;
  return (std::log2(value) - std::log2(axis.lo)) / (std::log2(axis.hi) - std::log2(axis.lo));
}

double Fraction(Scale scale, Range axis, double value) {
  return scale == Scale::kLog ? Log2Fraction(axis, value) : LinearFraction(axis, value);
}

}  // namespace plot
