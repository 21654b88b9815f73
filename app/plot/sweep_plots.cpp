#include "app/plot/sweep_plots.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>
#include <utility>

#include "kernels/ladder.h"
#include "kernels/registry.h"

namespace plot {
namespace {

constexpr Marker kReferenceMarker = Marker::kDiamond;
constexpr float kSeriesThickness = 2.0f;
constexpr float kReferenceThickness = 3.5f;
constexpr float kStudentThickness = 3.0f;
constexpr Marker kStudentMarker = Marker::kSquare;
constexpr float kPeakThickness = 1.5f;

bool Plottable(const kernels::BenchResult& r) { return r.ok() && r.verified && r.gflops > 0.0; }

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

int RegistryOrder(const std::string& name) {
  const kernels::KernelSpec* spec = kernels::FindKernel(name);
  return spec ? kernels::KernelIndex(*spec) : static_cast<int>(kernels::kKernelCount);
}

std::string LabelOf(const std::vector<kernels::BenchResult>& results, const std::string& kernel) {
  for (const auto& r : results) {
    if (r.kernel == kernel && !r.label.empty()) return r.label;
  }
  return kernel;
}

// "tiled, TILE 16 (2 not plotted ✗)": the legend owns up to what the lines leave out.
std::string SeriesName(const std::string& label, int left_out, const SweepLook& look) {
  if (left_out == 0) return label;
  return label + " (" + std::to_string(left_out) + " not plotted " + look.wrong + ")";
}

std::vector<std::int64_t> SquareSizes(const std::vector<kernels::BenchResult>& results) {
  std::vector<std::int64_t> sizes;
  for (const auto& r : results) {
    if (r.shape.IsSquare()) sizes.push_back(r.shape.m);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// The precisions whose peak a plot draws: FP32 always (the CUDA cores' ceiling every
// sweep is measured against), TF32 and BF16 where one of our kernels of theirs has a correct
// result (at `shape`, when one is given). cuBLAS TF32 alone, as in the default sweep, is a
// measured line beside FP32 kernels, not a reason to draw the tensor cores' ceilings.
std::vector<kernels::Precision> PeaksToDraw(const std::vector<kernels::BenchResult>& results,
                                            const std::optional<kernels::Shape>& shape) {
  std::vector<kernels::Precision> precisions = {kernels::Precision::kFp32};
  for (const kernels::Precision precision : {kernels::Precision::kTf32, kernels::Precision::kBf16}) {
    for (const kernels::BenchResult& r : results) {
      const kernels::KernelSpec* spec = kernels::FindKernel(r.kernel);
      if (spec && !kernels::IsCublas(*spec) && spec->precision == precision && Plottable(r) &&
          (!shape || r.shape == *shape)) {
        precisions.push_back(precision);
        break;
      }
    }
  }
  return precisions;
}

// One roof: bandwidth × intensity from `from` up to the ridge where it meets `peak`, then flat
// to `to` (no flat part when `peak` is 0: the L2 roof ends at the highest compute roof's ridge).
Series Roof(std::string name, double bandwidth, double peak, double from, double to, ImU32 colour) {
  const double ridge = peak / bandwidth;
  std::vector<Point> points = {{from, bandwidth * from, ""}, {ridge, peak, ""}};
  if (to > ridge) points.push_back({to, peak, ""});
  // The style is made apart from the series: built inside its braces, g++ 12 took the name's
  // temporary for uninitialised on an exception path (-Wmaybe-uninitialized).
  SeriesStyle style{std::move(name), colour, Marker::kCircle, kPeakThickness};
  return Series{std::move(style), std::move(points), /*markers=*/false};
}

// The roofs under kernels of intensities `lowest` to `highest`: DRAM's, meeting each
// precision's peak, and L2's (measured) up to the highest peak; each from left of the lowest
// kernel or ridge to right of the highest.
std::vector<Series> Roofs(const std::vector<kernels::BenchResult>& results, const kernels::Shape& shape,
                          const kernels::DeviceInfo& device, const SweepLook& look, double lowest, double highest) {
  std::vector<Series> roofs;
  const double bandwidth = device.memory_bandwidth_gbs;
  if (bandwidth <= 0.0) return roofs;
  std::vector<std::pair<kernels::Precision, double>> peaks;
  for (const kernels::Precision precision : PeaksToDraw(results, shape)) {
    if (const double peak = kernels::PeakGflops(device, precision); peak > 0.0) peaks.emplace_back(precision, peak);
  }
  if (peaks.empty()) return roofs;
  double least = peaks.front().second, top = least;
  for (const auto& [precision, peak] : peaks) least = std::min(least, peak), top = std::max(top, peak);
  const double l2 = device.l2_bandwidth_gbs;
  const double from = std::min(lowest, least / std::max(bandwidth, l2)) / 2.0;
  const double to = std::max(highest, top / bandwidth) * 2.0;
  // One legend entry for the memory roof and every peak it meets: a tall legend would push
  // past a short plot.
  // "then FP32 peak 66908 GFLOPS", or "then peaks FP32 66908, TF32 535265, BF16 1070531 GFLOPS".
  std::string legend = Format("roofs: memory %.0f GB/s × FLOP/byte, then ", bandwidth);
  if (peaks.size() == 1) legend += kernels::PeakName(peaks[0].first);
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    const std::string name = kernels::PeakName(peaks[i].first);
    legend += (peaks.size() == 1 ? "" : (i == 0 ? "peaks " : ", ") + name.substr(0, name.find(' '))) +
              Format(" %.0f", peaks[i].second);
  }
  legend += " GFLOPS";
  for (const auto& [precision, peak] : peaks) {
    std::string name = roofs.empty() ? legend : kernels::PeakName(precision) + Format(" %.0f GFLOPS", peak);
    roofs.push_back(Roof(std::move(name), bandwidth, peak, from, to, look.roof));
    roofs.back().in_legend = roofs.size() == 1;
  }
  if (l2 > 0.0) roofs.push_back(Roof(Format("L2 roof: %.0f GB/s (measured, loads and copies) × FLOP/byte", l2), l2, top, from, 0.0, look.roof));
  return roofs;
}

}  // namespace

std::vector<std::string> KernelsIn(const std::vector<kernels::BenchResult>& results) {
  std::vector<std::string> names;
  for (const auto& r : results) {
    if (std::find(names.begin(), names.end(), r.kernel) == names.end()) names.push_back(r.kernel);
  }
  std::stable_sort(names.begin(), names.end(),
                   [](const std::string& a, const std::string& b) { return RegistryOrder(a) < RegistryOrder(b); });
  return names;
}

SeriesStyle StyleFor(const std::string& kernel, const std::string& label, int index, const SweepLook& look) {
  if (kernel == kReferenceKernel) return {label + " \u2014 reference", look.reference, kReferenceMarker, kReferenceThickness};
  if (kernel == kernels::kStudentKernelName) return {label, look.student, kStudentMarker, kStudentThickness};
  // The kernels cycle through every marker but the reference's, so none is mistaken for it.
  int marker = index % (kMarkerCount - 1);
  if (marker >= static_cast<int>(kReferenceMarker)) ++marker;
  return {label, look.kernels[static_cast<std::size_t>(index) % look.kernels.size()], static_cast<Marker>(marker),
          kSeriesThickness};
}

namespace {

// The precision a result computes in: its registry kernel's, FP32 for the student's kernel.
std::optional<kernels::Precision> PrecisionOf(const kernels::BenchResult& result) {
  if (kernels::IsStudentResult(result)) return kernels::Precision::kFp32;
  const kernels::KernelSpec* spec = kernels::FindKernel(result.kernel);
  if (spec == nullptr) return std::nullopt;
  return spec->precision;
}

std::string OccupancyText(const kernels::BenchResult& r) {
  if (r.occupancy_blocks_per_sm > 0) {
    return "occupancy: " + std::to_string(r.occupancy_blocks_per_sm) + " blocks of " + std::to_string(r.threads_per_block) +
           " threads per SM\n";
  }
  if (kernels::IsStudentResult(r)) return "occupancy: not measured (" + std::to_string(r.threads_per_block) + " threads per block)\n";
  return "occupancy: chosen by cuBLAS\n";
}

}  // namespace

double PeakGflopsOf(const kernels::BenchResult& result, const kernels::DeviceInfo& device) {
  const std::optional<kernels::Precision> precision = PrecisionOf(result);
  return precision ? kernels::PeakGflops(device, *precision) : 0.0;
}

std::string ResultTooltip(const kernels::BenchResult& r, const kernels::DeviceInfo& device, const SweepLook& look) {
  if (!r.ok()) return "n = " + kernels::ToString(r.shape) + ": not measured: " + r.error;
  std::string text = "n = " + kernels::ToString(r.shape) + "\n";
  text += Format("%.1f GFLOPS\n", r.gflops);
  text += Format("%.4f ms median", r.median_ms) + Format(" (%.4f", r.min_ms) + Format("\u2013%.4f ms", r.max_ms) +
          ", " + std::to_string(r.reps) + " launches)\n";
  text += r.percent_of_cublas > 0.0
              ? Format("%.1f %% of ", r.percent_of_cublas) + kernels::ReferenceLabel(r.percent_of) + "\n"
              : "% of cuBLAS: not timed\n";
  if (const double peak = PeakGflopsOf(r, device); peak > 0.0) {
    text += Format("%.1f %% of the ", 100.0 * r.gflops / peak) + kernels::PeakName(*PrecisionOf(r)) + "\n";
  }
  text += OccupancyText(r);
  text += r.verified ? std::string(look.right) + " verified against cuBLAS"
                     : std::string(look.wrong) + " wrong C: " + std::to_string(r.wrong_elements) +
                           " elements off by more than " + Format("%g", r.tolerance);
  return text;
}

LinePlotData GflopsPlot(const std::vector<kernels::BenchResult>& results, const kernels::DeviceInfo& device,
                        const SweepLook& look, Scale y_scale) {
  LinePlotData data;
  data.x_label = "matrix size n (C = A\u00b7B, all n \u00d7 n; log2 axis)";
  data.y_label = y_scale == Scale::kLog ? "GFLOPS (2n\u00b3 / median time; log axis)" : "GFLOPS (2n\u00b3 / median time)";
  data.y_scale = y_scale;
  int index = 0;
  for (const std::string& kernel : KernelsIn(results)) {
    Series series;
    int left_out = 0;
    for (const auto& r : results) {
      if (r.kernel != kernel) continue;
      if (!Plottable(r) || !r.shape.IsSquare()) {
        ++left_out;
        continue;
      }
      series.points.push_back({static_cast<double>(r.shape.m), r.gflops, ResultTooltip(r, device, look)});
    }
    std::sort(series.points.begin(), series.points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    series.style = StyleFor(kernel, SeriesName(LabelOf(results, kernel), left_out, look), index, look);
    if (kernel != kReferenceKernel) ++index;
    data.series.push_back(std::move(series));
  }
  for (const kernels::Precision precision : PeaksToDraw(results, std::nullopt)) {
    const double peak = kernels::PeakGflops(device, precision);
    if (peak <= 0.0) continue;
    const std::string name = kernels::PeakName(precision) + Format(" %.0f GFLOPS", peak);
    data.lines.push_back({{name, look.roof, Marker::kCircle, kPeakThickness}, peak, true});
  }
  return data;
}

LinePlotData RooflinePlot(const std::vector<kernels::BenchResult>& results, const kernels::Shape& shape,
                          const kernels::DeviceInfo& device, const SweepLook& look) {
  LinePlotData data;
  data.x_label = "FLOP per byte requested from global memory (2MNK / bytes of A, B, C; log2 axis)";
  data.y_label = "GFLOPS at " + kernels::ToString(shape) + " (log axis)";
  data.y_scale = Scale::kLog;
  double lowest = 0.0, highest = 0.0;
  int index = 0;
  const std::vector<kernels::Precision> precisions = PeaksToDraw(results, shape);
  for (const std::string& kernel : KernelsIn(results)) {
    const kernels::KernelSpec* spec = kernels::FindKernel(kernel);
    const int style_index = kernel == kReferenceKernel ? 0 : index++;
    if (!spec || std::find(precisions.begin(), precisions.end(), spec->precision) == precisions.end()) continue;
    for (const kernels::BenchResult& r : results) {
      if (r.kernel != kernel || !(r.shape == shape) || !Plottable(r)) continue;
      const SeriesStyle style = StyleFor(kernel, r.label, style_index, look);
      if (kernels::IsCublas(*spec)) {
        data.lines.push_back({style, r.gflops, false});
        break;
      }
      const std::optional<double> intensity = kernels::LoadIntensity(*spec, shape);
      if (!intensity) break;
      lowest = lowest == 0.0 ? *intensity : std::min(lowest, *intensity);
      highest = std::max(highest, *intensity);
      data.series.push_back({style, {{*intensity, r.gflops, Format("%.2f FLOP/byte · ", *intensity) +
                                                                  ResultTooltip(r, device, look)}}});
      break;
    }
  }
  if (lowest > 0.0) {
    std::vector<Series> roofs = Roofs(results, shape, device, look, lowest, highest);
    data.series.insert(data.series.begin(), std::make_move_iterator(roofs.begin()), std::make_move_iterator(roofs.end()));
  }
  return data;
}

std::string NoL2RoofNote(const kernels::DeviceInfo& device) {
  if (device.l2_bandwidth_gbs > 0.0) return "";
  return "No L2 roof: these results carry no measured L2 bandwidth (saved before TileScope measured it); "
         "a new sweep measures it.";
}

BarChartData PercentOfCublasBars(const std::vector<kernels::BenchResult>& results, const SweepLook& look) {
  BarChartData data;
  data.x_label = "matrix size n";
  data.y_label = "% of cuBLAS in the kernel's precision (FP32, TF32, BF16) at the same size";
  data.reference = 100.0;
  data.reference_label = "same-precision cuBLAS = 100 %";
  const std::vector<std::int64_t> sizes = SquareSizes(results);
  for (std::int64_t n : sizes) data.categories.push_back(std::to_string(n));
  int index = 0;
  for (const std::string& kernel : KernelsIn(results)) {
    const kernels::KernelSpec* spec = kernels::FindKernel(kernel);
    // Whether every result of the kernel is of `reference`.
    const auto all_of = [&](const std::string& reference) {
      return std::all_of(results.begin(), results.end(), [&](const kernels::BenchResult& r) {
        return r.kernel != kernel || r.percent_of == reference;
      });
    };
    // A cuBLAS row timed against itself is 100 % by definition: the dashed line.
    if (kernel == kReferenceKernel || all_of(kernel)) continue;
    BarSeries series;
    series.style = StyleFor(kernel, LabelOf(results, kernel), index++, look);
    // Lower precision against FP32 (files written before each precision had its own
    // reference) on its own scale: TF32 at 700 % of FP32 would squash every FP32 bar.
    series.off_scale = spec && spec->precision != kernels::Precision::kFp32 &&
                       !all_of(kernels::ReferenceFor(spec->precision).name);
    if (series.off_scale) series.style.name += " (lower precision: off the scale, cut bars labelled)";
    series.bars.resize(sizes.size());
    for (const auto& r : results) {
      if (r.kernel != kernel || !Plottable(r) || !r.shape.IsSquare() || r.percent_of_cublas <= 0.0) continue;
      const size_t slot = std::lower_bound(sizes.begin(), sizes.end(), r.shape.m) - sizes.begin();
      series.bars[slot] = Bar{r.percent_of_cublas, ResultTooltip(r, kernels::DeviceInfo{}, look)};
    }
    data.series.push_back(std::move(series));
  }
  return data;
}

}  // namespace plot
