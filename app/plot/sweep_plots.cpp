#include "app/plot/sweep_plots.h"

#include <algorithm>
#include <cstdio>

#include "kernels/ladder.h"
#include "kernels/registry.h"

namespace plot {
namespace {

constexpr Marker kReferenceMarker = Marker::kDiamond;
constexpr float kSeriesThickness = 2.0f;
constexpr float kReferenceThickness = 3.5f;
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
  // The kernels cycle through every marker but the reference's, so none is mistaken for it.
  int marker = index % (kMarkerCount - 1);
  if (marker >= static_cast<int>(kReferenceMarker)) ++marker;
  return {label, look.kernels[static_cast<std::size_t>(index) % look.kernels.size()], static_cast<Marker>(marker),
          kSeriesThickness};
}

std::string ResultTooltip(const kernels::BenchResult& r, double peak_gflops, const SweepLook& look) {
  if (!r.ok()) return "n = " + kernels::ToString(r.shape) + ": not measured: " + r.error;
  std::string text = "n = " + kernels::ToString(r.shape) + "\n";
  text += Format("%.1f GFLOPS\n", r.gflops);
  text += Format("%.4f ms median", r.median_ms) + Format(" (%.4f", r.min_ms) + Format("\u2013%.4f ms", r.max_ms) +
          ", " + std::to_string(r.reps) + " launches)\n";
  text += r.percent_of_cublas > 0.0
              ? Format("%.1f %% of ", r.percent_of_cublas) + kernels::ReferenceLabel(r.percent_of) + "\n"
              : "% of cuBLAS: not timed\n";
  if (peak_gflops > 0.0) text += Format("%.1f %% of the FP32 peak\n", 100.0 * r.gflops / peak_gflops);
  text += r.occupancy_blocks_per_sm > 0
              ? "occupancy: " + std::to_string(r.occupancy_blocks_per_sm) + " blocks of " +
                    std::to_string(r.threads_per_block) + " threads per SM\n"
              : "occupancy: chosen by cuBLAS\n";
  text += r.verified ? std::string(look.right) + " verified against cuBLAS"
                     : std::string(look.wrong) + " wrong C: " + std::to_string(r.wrong_elements) +
                           " elements off by more than " + Format("%g", r.tolerance);
  return text;
}

LinePlotData GflopsPlot(const std::vector<kernels::BenchResult>& results, double peak_gflops, const SweepLook& look,
                        Scale y_scale) {
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
      series.points.push_back({static_cast<double>(r.shape.m), r.gflops, ResultTooltip(r, peak_gflops, look)});
    }
    std::sort(series.points.begin(), series.points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    series.style = StyleFor(kernel, SeriesName(LabelOf(results, kernel), left_out, look), index, look);
    if (kernel != kReferenceKernel) ++index;
    data.series.push_back(std::move(series));
  }
  if (peak_gflops > 0.0) {
    const std::string name = Format("FP32 peak %.0f GFLOPS", peak_gflops);
    data.lines.push_back({{name, look.roof, Marker::kCircle, kPeakThickness}, peak_gflops, true});
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
  for (const std::string& kernel : KernelsIn(results)) {
    const kernels::KernelSpec* spec = kernels::FindKernel(kernel);
    const int style_index = kernel == kReferenceKernel ? 0 : index++;
    if (!spec || spec->precision != kernels::Precision::kFp32) continue;
    for (const kernels::BenchResult& r : results) {
      if (r.kernel != kernel || !(r.shape == shape) || !Plottable(r)) continue;
      const SeriesStyle style = StyleFor(kernel, r.label, style_index, look);
      if (kernel == kReferenceKernel) {
        data.lines.push_back({style, r.gflops, false});
        break;
      }
      const std::optional<double> intensity = kernels::LoadIntensity(*spec, shape);
      if (!intensity) break;
      lowest = lowest == 0.0 ? *intensity : std::min(lowest, *intensity);
      highest = std::max(highest, *intensity);
      data.series.push_back({style, {{*intensity, r.gflops, Format("%.2f FLOP/byte · ", *intensity) +
                                                                  ResultTooltip(r, device.fp32_peak_gflops, look)}}});
      break;
    }
  }
  const double bandwidth = device.memory_bandwidth_gbs, peak = device.fp32_peak_gflops;
  if (bandwidth > 0.0 && peak > 0.0 && lowest > 0.0) {
    // The memory roof from the lowest kernel to the ridge, where bandwidth × intensity meets the peak.
    const double from = std::min(lowest, peak / bandwidth) / 2.0, ridge = peak / bandwidth;
    const double to = std::max(highest * 2.0, ridge * 2.0);
    // The style is made apart from the series: built inside its braces, g++ 12 took the name's
    // temporary for uninitialised on an exception path (-Wmaybe-uninitialized).
    SeriesStyle style{Format("roofs: memory %.0f GB/s × FLOP/byte, ", bandwidth) +
                          Format("then FP32 peak %.0f GFLOPS", peak),
                      look.roof, Marker::kCircle, kPeakThickness};
    const std::vector<Point> points = {{from, bandwidth * from, ""}, {ridge, peak, ""}, {to, peak, ""}};
    data.series.insert(data.series.begin(), Series{std::move(style), points, /*markers=*/false});
  }
  return data;
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
      series.bars[slot] = Bar{r.percent_of_cublas, ResultTooltip(r, 0.0, look)};
    }
    data.series.push_back(std::move(series));
  }
  return data;
}

}  // namespace plot
