// sweep_plots.h — a benchmark sweep's results as the plot widgets' data: GFLOPS against size
// with cuBLAS FP32 as the reference line and each precision's peak dashed, and % of cuBLAS as bars.
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
  ImU32 roof = 0;              // the peaks and the roofline's roofs
  const char* right = "";      // beside a result whose C was verified
  const char* wrong = "";      // beside one whose C was wrong, and a series that left results out
  ImU32 student = 0;           // the student's own kernel, in no other series' colour
};

// Kernel names present in `results`, in registry order (unknown names last, as they came).
std::vector<std::string> KernelsIn(const std::vector<kernels::BenchResult>& results);
// The look of the `index`-th kernel of a sweep; the reference gets the look's reference colour
// and a thicker line, the student's kernel its own colour and a line between the two.
SeriesStyle StyleFor(const std::string& kernel, const std::string& label, int index, const SweepLook& look);

// The device's peak in the result's own precision (FP32, or the TF32 or BF16 tensor peak; FP32
// for the student's kernel): what its "% of peak" divides by; 0 for a kernel the registry does
// not know or a peak unknown.
double PeakGflopsOf(const kernels::BenchResult& result, const kernels::DeviceInfo& device);

// The exact figures of one result: GFLOPS, ms (median and spread), % of cuBLAS, % of the
// peak of its precision (when the device's is known), occupancy, verified (the look's glyphs).
std::string ResultTooltip(const kernels::BenchResult& result, const kernels::DeviceInfo& device,
                          const SweepLook& look);

// GFLOPS against size, with the FP32 peak dashed and the TF32 and BF16 tensor peaks where one
// of our kernels of that precision was measured.
LinePlotData GflopsPlot(const std::vector<kernels::BenchResult>& results, const kernels::DeviceInfo& device,
                        const SweepLook& look, Scale y_scale);
// Every kernel measured at `shape` with a correct C, as one point: the FLOP per byte it
// requests from global memory (kernels/ladder.h) against its GFLOPS, under the device's
// roofs: memory bandwidth × intensity, then the FP32 peak, and the TF32 and BF16 tensor peaks
// where one of our kernels of that precision was measured (cuBLAS of a precision shows only
// with them); an L2 roof (measured L2 bandwidth ×
// intensity up to the highest of those peaks) where the device's L2 bandwidth was measured
// (the faster of the SMs' loads and, from Hopper on, the copy engine's bulk copies).
// cuBLAS, whose loads are not ours to count, is a measured line. Kernels keep GflopsPlot's looks.
LinePlotData RooflinePlot(const std::vector<kernels::BenchResult>& results, const kernels::Shape& shape,
                          const kernels::DeviceInfo& device, const SweepLook& look);
// Why the roofline has no L2 roof (results saved before L2 bandwidth was measured), or "".
std::string NoL2RoofNote(const kernels::DeviceInfo& device);
BarChartData PercentOfCublasBars(const std::vector<kernels::BenchResult>& results, const SweepLook& look);

}  // namespace plot
