// sweep_plots.h — a benchmark sweep's results as the plot widgets' data: GFLOPS against size
// with cuBLAS FP32 as the reference line and the FP32 peak dashed, and % of cuBLAS as bars.
//
// Each kernel keeps one colour and marker in both views. A result that was not measured or
// computed a wrong C is left out of both (a wrong kernel is never plotted as fast); the
// legend says how many were left out and the results table shows why.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "app/plot/bar_chart.h"
#include "app/plot/line_plot.h"
#include "kernels/bench.h"
#include "kernels/device.h"

namespace plot {

// The registry name of the reference every kernel is compared with.
constexpr const char* kReferenceKernel = "cublas_fp32";

// Kernel names present in `results`, in registry order (unknown names last, as they came).
std::vector<std::string> KernelsIn(const std::vector<kernels::BenchResult>& results);
// The look of the `index`-th kernel of a sweep; the reference gets `reference_colour` (the
// theme's text colour, so it stands out on any background) and a thicker line.
SeriesStyle StyleFor(const std::string& kernel, const std::string& label, int index, ImU32 reference_colour);

// The exact figures of one result: GFLOPS, ms (median and spread), % of cuBLAS, % of peak
// (when `peak_gflops` > 0), occupancy, verified ✓/✗.
std::string ResultTooltip(const kernels::BenchResult& result, double peak_gflops);

LinePlotData GflopsPlot(const std::vector<kernels::BenchResult>& results, double peak_gflops,
                        ImU32 reference_colour, Scale y_scale);
// Every FP32 kernel measured at `shape` with a correct C, as one point: the FLOP per byte it
// requests from global memory (kernels/ladder.h) against its GFLOPS, under the device's
// roofs — memory bandwidth × intensity, then the FP32 peak — with cuBLAS SGEMM, whose
// loads are not ours to count, as its measured line. Kernels keep GflopsPlot's looks.
LinePlotData RooflinePlot(const std::vector<kernels::BenchResult>& results, const kernels::Shape& shape,
                          const kernels::DeviceInfo& device, ImU32 reference_colour);
BarChartData PercentOfCublasBars(const std::vector<kernels::BenchResult>& results, ImU32 reference_colour);

}  // namespace plot
