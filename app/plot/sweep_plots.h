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

// The colours and glyphs the caller draws a sweep with (the app's palette): the plots keep
// none of their own.
struct SweepLook {
  std::vector<ImU32> kernels;  // one per kernel in a sweep, in turn (at least one)
  ImU32 reference = 0;         // cuBLAS FP32, the line every kernel is compared with
  ImU32 roof = 0;              // the FP32 peak and the roofline's roofs
  const char* right = "";      // beside a result whose C was verified
  const char* wrong = "";      // beside one whose C was wrong, and a series that left results out
};

// Kernel names present in `results`, in registry order (unknown names last, as they came).
std::vector<std::string> KernelsIn(const std::vector<kernels::BenchResult>& results);
// The look of the `index`-th kernel of a sweep; the reference gets the look's reference colour
// and a thicker line.
SeriesStyle StyleFor(const std::string& kernel, const std::string& label, int index, const SweepLook& look);

// The exact figures of one result: GFLOPS, ms (median and spread), % of cuBLAS, % of peak
// (when `peak_gflops` > 0), occupancy, verified (the look's glyphs).
std::string ResultTooltip(const kernels::BenchResult& result, double peak_gflops, const SweepLook& look);

LinePlotData GflopsPlot(const std::vector<kernels::BenchResult>& results, double peak_gflops, const SweepLook& look,
                        Scale y_scale);
// Every FP32 kernel measured at `shape` with a correct C, as one point: the FLOP per byte it
// requests from global memory (kernels/ladder.h) against its GFLOPS, under the device's
// roofs — memory bandwidth × intensity, then the FP32 peak — with cuBLAS SGEMM, whose
// loads are not ours to count, as its measured line. Kernels keep GflopsPlot's looks.
LinePlotData RooflinePlot(const std::vector<kernels::BenchResult>& results, const kernels::Shape& shape,
                          const kernels::DeviceInfo& device, const SweepLook& look);
BarChartData PercentOfCublasBars(const std::vector<kernels::BenchResult>& results, const SweepLook& look);

}  // namespace plot
