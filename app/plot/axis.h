// axis.h — the arithmetic behind the plot widget's axes: data extents, padded axis ranges,
// tick positions and labels, value → fraction of the axis. No ImGui here, so every corner
// (no data, one point, zero and negative values) is unit-tested without a window.
#pragma once
#include <string>
#include <vector>

namespace plot {

// A closed interval of data or axis values. `empty` means there was nothing to measure.
struct Range {
  double lo = 0.0;
  double hi = 0.0;
  bool empty = true;

  static Range Of(double lo, double hi) { return {lo, hi, false}; }
  double Span() const { return hi - lo; }
};

struct Tick {
  double value = 0.0;
  std::string label;
};

// The smallest and largest finite values; with `positive_only`, values ≤ 0 are skipped
// (they have no place on a logarithmic axis). Empty when no value qualifies.
Range Extent(const std::vector<double>& values, bool positive_only = false);
// Extends `a` to cover `b` (either may be empty).
Range Union(Range a, Range b);

// A log2 axis for the data: half an octave of margin on each side, so markers at the
// smallest and largest size are not cut by the frame. No data → 256…4096, the sizes a
// sweep usually covers, so an empty plot still shows a meaningful axis.
Range Log2AxisRange(Range data);
// A linear axis from 0 (when `from_zero`) to a round value above the data, so the top tick
// sits on the frame. No data, or all values equal to 0 → 0…1.
// How many ticks a chart aims for on a linear y axis (line plots and bar charts alike).
constexpr int kTargetYTicks = 5;

Range LinearAxisRange(Range data, bool from_zero, int target_ticks);

// Ticks at the powers of two inside `axis`, every octave, or every 2nd, 4th… octave when
// there would be more than `max_ticks`. Labels are plain integers ("256", "4096") or, below 1,
// fractions ("0.5").
std::vector<Tick> Log2Ticks(Range axis, int max_ticks);
// Ticks at round steps (1, 2 or 5 × 10^k) inside `axis`, about `target_ticks` of them, with
// as many decimals as the step needs, the same on every tick ("0.0", "0.5", "1.0" or "0",
// "20000", "40000").
std::vector<Tick> LinearTicks(Range axis, int target_ticks);
// 1, 2 or 5 × 10^k: the round step that cuts `span` into about `target_ticks` parts.
double NiceStep(double span, int target_ticks);

// A log axis for values spanning decades (GFLOPS from a naive kernel to TF32 tensor cores): a
// fifth of a decade of margin on each side. No data → 1…1000.
Range LogAxisRange(Range data);
// Ticks at the powers of ten inside `axis` (every 2nd, 4th… one past a dozen decades), and at
// 2 and 5 times them as well when fewer than three powers of ten fall inside; labels as
// LinearTicks writes them ("2000", "0.5"). An axis with an infinite end gets no ticks.
std::vector<Tick> LogTicks(Range axis);

// How values map onto an axis: evenly, or by their logarithm.
enum class Scale { kLinear, kLog };

// Where `value` lies on the axis: 0 at `lo`, 1 at `hi` (outside when the value is). An empty
// or zero-width axis puts everything at the middle; a value ≤ 0 has no place on a log2 axis
// (NaN: the widget skips it).
double LinearFraction(Range axis, double value);
// On a log axis the fraction is the same in any base, so Log2Fraction serves every log axis.
double Log2Fraction(Range axis, double value);
double Fraction(Scale scale, Range axis, double value);

}  // namespace plot
