// A sweep's results as plot data: a kernel that computed a wrong C (or was not measured) is
// never plotted as fast, in the GFLOPS lines or the % of cuBLAS bars, and the legend owns up
// to what it left out; the hover tooltip carries the exact figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "app/plot/sweep_plots.h"

namespace plot {
namespace {

constexpr ImU32 kWhite = IM_COL32_WHITE;
constexpr ImU32 kGrey = IM_COL32(128, 128, 128, 255);
constexpr ImU32 kRed = IM_COL32(255, 0, 0, 255);
constexpr ImU32 kGreen = IM_COL32(0, 255, 0, 255);
const SweepLook kLook{{kRed, kGreen}, kWhite, kGrey, "RIGHT", "WRONG"};

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// A device whose FP32 peak is `fp32_peak`, with no tensor-core figures (an unknown capability).
kernels::DeviceInfo DeviceWithPeak(double fp32_peak) {
  kernels::DeviceInfo device;
  device.fp32_peak_gflops = fp32_peak;
  return device;
}

// The H100 SXM's figures as the GPU module reports them: 132 SMs of compute capability 9.0 at 1980 MHz.
kernels::DeviceInfo Hopper() {
  kernels::DeviceInfo device;
  device.cc_major = 9;
  device.sm_count = 132;
  device.clock_mhz = 1980.0;
  device.fp32_lanes_per_sm = kernels::Fp32LanesPerSm(9, 0);
  device.fp32_peak_gflops = device.sm_count * device.fp32_lanes_per_sm * 2.0 * device.clock_mhz / 1e3;
  device.memory_bandwidth_gbs = 3352.0;
  return device;
}

kernels::BenchResult Measured(const char* kernel, std::int64_t n, double gflops, bool verified) {
  kernels::BenchResult r;
  r.kernel = kernel;
  r.label = kernel;
  r.shape = {n, n, n};
  r.reps = 10;
  r.median_ms = 2.0 * double(n) * double(n) * double(n) / (gflops * 1e6);
  r.min_ms = r.median_ms * 0.9;
  r.max_ms = r.median_ms * 1.1;
  r.gflops = gflops;
  r.percent_of_cublas = gflops / 500.0;
  r.verified = verified;
  r.wrong_elements = verified ? 0 : 1234;
  r.tolerance = 1e-3;
  r.occupancy_blocks_per_sm = 8;
  r.threads_per_block = 256;
  return r;
}

std::vector<kernels::BenchResult> SweepWithAWrongKernel() {
  kernels::BenchResult failed = Measured("tiled16", 4096, 0.0, false);
  failed.error = "out of memory at 4096";
  return {Measured("cublas_fp32", 1024, 50000, true), Measured("cublas_fp32", 2048, 50000, true),
          Measured("tiled16", 1024, 8000, true),
          // Fast because it skips work: its C is wrong, so it must not appear as fast.
          Measured("tiled16_nosync1", 1024, 90000, false), Measured("tiled16_nosync1", 2048, 95000, false),
          Measured("tiled16", 2048, 9000, false), failed};
}

const Series* Find(const LinePlotData& data, const std::string& prefix) {
  for (const Series& s : data.series) {
    if (s.style.name.rfind(prefix, 0) == 0) return &s;
  }
  return nullptr;
}

TEST(SweepPlots, WrongOrUnmeasuredResultsAreNeverPlotted) {
  const LinePlotData lines = GflopsPlot(SweepWithAWrongKernel(), DeviceWithPeak(60000.0), kLook, Scale::kLog);
  const Series* tiled = Find(lines, "tiled16 ");
  ASSERT_NE(tiled, nullptr);
  ASSERT_EQ(tiled->points.size(), 1u);
  EXPECT_EQ(tiled->points[0].y, 8000.0);
  EXPECT_NE(tiled->style.name.find("2 not plotted"), std::string::npos) << tiled->style.name;
  const Series* racing = Find(lines, "tiled16_nosync1");
  ASSERT_NE(racing, nullptr);
  EXPECT_TRUE(racing->points.empty());
  for (const Series& s : lines.series) {
    for (const Point& p : s.points) EXPECT_LE(p.y, 50000.0) << s.style.name << " plotted a wrong result";
  }
  const BarChartData bars = PercentOfCublasBars(SweepWithAWrongKernel(), kLook);
  for (const BarSeries& s : bars.series) {
    const long drawn = std::count_if(s.bars.begin(), s.bars.end(), [](const auto& b) { return b.has_value(); });
    EXPECT_EQ(drawn, s.style.name.rfind("tiled16_nosync1", 0) == 0 ? 0 : 1) << s.style.name;
  }
}

TEST(SweepPlots, LowerPrecisionBarsAreOffTheScale) {
  kernels::BenchResult tf32 = Measured("cublas_tf32", 1024, 390000, true);
  tf32.percent_of_cublas = 780.0;
  const BarChartData bars = PercentOfCublasBars({Measured("cublas_fp32", 1024, 50000, true), tf32}, kLook);
  ASSERT_EQ(bars.series.size(), 1u);
  EXPECT_TRUE(bars.series[0].off_scale);
  EXPECT_NE(bars.series[0].style.name.find("off the scale"), std::string::npos) << bars.series[0].style.name;
}

// A result timed against cuBLAS of its own precision sits on the common scale, its cuBLAS
// row (100 % of itself) is the dashed line, not a bar, and the tooltip names the reference.
TEST(SweepPlots, SamePrecisionBarsShareTheScaleAndSayWhichCublas) {
  kernels::BenchResult bf16 = Measured("wgmma_bf16", 4096, 700000, true);
  bf16.percent_of_cublas = 100.5;
  bf16.percent_of = "cublas_bf16";
  kernels::BenchResult cublas = Measured("cublas_bf16", 4096, 696500, true);
  cublas.percent_of_cublas = 100.0;
  cublas.percent_of = "cublas_bf16";
  const BarChartData bars = PercentOfCublasBars({Measured("cublas_fp32", 4096, 50000, true), bf16, cublas}, kLook);
  ASSERT_EQ(bars.series.size(), 1u);
  EXPECT_FALSE(bars.series[0].off_scale);
  ASSERT_TRUE(bars.series[0].bars[0].has_value());
  EXPECT_EQ(bars.series[0].bars[0]->value, 100.5);
  EXPECT_NE(bars.series[0].bars[0]->tooltip.find("100.5 % of cuBLAS BF16"), std::string::npos)
      << bars.series[0].bars[0]->tooltip;
}

TEST(SweepPlots, TooltipHasTheExactFigures) {
  const std::string good = ResultTooltip(Measured("tiled16", 1024, 8000, true), DeviceWithPeak(64000.0), kLook);
  for (const char* part : {"8000.0 GFLOPS", "ms median", "10 launches", "16.0 % of cuBLAS", "12.5 % of the FP32 peak",
                           "8 blocks of 256 threads per SM", "RIGHT verified"}) {
    EXPECT_NE(good.find(part), std::string::npos) << part << " not in:\n" << good;
  }
  const std::string wrong = ResultTooltip(Measured("tiled16_nosync1", 1024, 90000, false), DeviceWithPeak(64000.0), kLook);
  EXPECT_NE(wrong.find("WRONG wrong C: 1234 elements"), std::string::npos) << wrong;
}

// The plots draw in the caller's look only: kernels take its colours in turn, cuBLAS its
// reference colour, the peak and the roofs its roof colour, a legend that left results out its glyph.
TEST(SweepPlots, ColoursAndGlyphsComeFromTheLook) {
  std::vector<kernels::BenchResult> results = SweepWithAWrongKernel();
  results.push_back(Measured("tiled8", 1024, 4000, true));
  const LinePlotData lines = GflopsPlot(results, DeviceWithPeak(60000.0), kLook, Scale::kLog);
  std::vector<ImU32> kernel_colours;
  for (const Series& s : lines.series) {
    if (s.style.name.rfind("cublas_fp32", 0) == 0) {
      EXPECT_EQ(s.style.colour, kWhite);
    } else {
      kernel_colours.push_back(s.style.colour);
    }
  }
  EXPECT_EQ(kernel_colours, (std::vector<ImU32>{kRed, kGreen, kRed}));  // three kernels, two colours in turn
  ASSERT_EQ(lines.lines.size(), 1u);
  EXPECT_EQ(lines.lines[0].style.colour, kGrey);
  EXPECT_NE(Find(lines, "tiled16 ")->style.name.find("2 not plotted WRONG"), std::string::npos);

  kernels::DeviceInfo device;
  device.memory_bandwidth_gbs = 3350.0;
  device.fp32_peak_gflops = 60000.0;
  const LinePlotData roofline = RooflinePlot(results, kernels::Shape::Square(1024), device, kLook);
  ASSERT_FALSE(roofline.series.empty());
  EXPECT_EQ(roofline.series.front().style.colour, kGrey) << roofline.series.front().style.name;
  ASSERT_EQ(roofline.lines.size(), 1u);
  EXPECT_EQ(roofline.lines[0].style.colour, kWhite) << "cuBLAS's measured line";
}

// The student's kernel beside the rungs: its own colour, which no rung's turn gives, a wrong
// size left out and owned up to, and "% of peak" of the FP32 peak; its tooltip does not say
// cuBLAS chose its occupancy.
TEST(SweepPlots, TheStudentsKernelHasItsOwnColourAndFp32Peak) {
  constexpr ImU32 kMagenta = IM_COL32(255, 0, 255, 255);
  SweepLook look = kLook;
  look.student = kMagenta;
  std::vector<kernels::BenchResult> results = SweepWithAWrongKernel();
  for (const auto& [n, verified] : {std::pair<std::int64_t, bool>{1024, true}, {2048, false}}) {
    kernels::BenchResult mine = Measured(kernels::kStudentKernelName, n, 6000, verified);
    mine.label = "your kernel: tiled (tiled.cu)";
    mine.occupancy_blocks_per_sm = 0;
    results.push_back(mine);
  }
  const LinePlotData lines = GflopsPlot(results, DeviceWithPeak(60000.0), look, Scale::kLog);
  const Series* mine = Find(lines, "your kernel: tiled (tiled.cu)");
  ASSERT_NE(mine, nullptr);
  EXPECT_EQ(mine->style.colour, kMagenta);
  EXPECT_EQ(mine->points.size(), 1u);
  EXPECT_NE(mine->style.name.find("1 not plotted WRONG"), std::string::npos) << mine->style.name;
  for (const Series& s : lines.series) {
    if (&s != mine) EXPECT_NE(s.style.colour, kMagenta) << s.style.name;
  }
  EXPECT_DOUBLE_EQ(PeakGflopsOf(results[results.size() - 2], DeviceWithPeak(60000.0)), 60000.0);
  const std::string tooltip = ResultTooltip(results[results.size() - 2], DeviceWithPeak(60000.0), look);
  EXPECT_NE(tooltip.find("10.0 % of the FP32"), std::string::npos) << tooltip;
  EXPECT_NE(tooltip.find("occupancy: not measured (256 threads per block)"), std::string::npos) << tooltip;
}

// A tensor rung's "% of peak" is of its own precision's tensor peak, not the FP32 peak (which
// gave 596 % for TF32): SMs · dense flops per SM per clock · clock, at the FP32 peak's clock.
TEST(SweepPlots, ATensorRowIsAPercentOfItsOwnPrecisionsPeak) {
  const kernels::DeviceInfo device = Hopper();
  const double tf32_peak = 132 * 2048 * 1980.0 / 1e3, bf16_peak = 132 * 4096 * 1980.0 / 1e3;
  EXPECT_DOUBLE_EQ(PeakGflopsOf(Measured("wgmma_tf32", 4096, 400000, true), device), tf32_peak);
  EXPECT_DOUBLE_EQ(PeakGflopsOf(Measured("cublas_bf16", 4096, 700000, true), device), bf16_peak);
  EXPECT_DOUBLE_EQ(PeakGflopsOf(Measured("all_async", 4096, 50000, true), device), device.fp32_peak_gflops);
  EXPECT_EQ(PeakGflopsOf(Measured("no_such_kernel", 4096, 50000, true), device), 0.0);
  const std::string tf32 = ResultTooltip(Measured("wgmma_tf32", 4096, 0.5 * tf32_peak, true), device, kLook);
  EXPECT_NE(tf32.find("50.0 % of the TF32 tensor peak"), std::string::npos) << tf32;
  // Where the table does not know the capability's tensor rate, no percentage is made up.
  const std::string unknown = ResultTooltip(Measured("wgmma_tf32", 4096, 400000, true), DeviceWithPeak(64000.0), kLook);
  EXPECT_EQ(unknown.find("peak"), std::string::npos) << unknown;
}

TEST(SweepPlots, TheGflopsPlotDrawsThePeakOfEachPrecisionMeasured) {
  const kernels::DeviceInfo device = Hopper();
  // The default sweep: FP32 kernels and cuBLAS TF32 beside them draw the FP32 peak alone.
  std::vector<kernels::BenchResult> results = {Measured("cublas_fp32", 4096, 50000, true),
                                               Measured("cublas_tf32", 4096, 390000, true)};
  EXPECT_EQ(GflopsPlot(results, device, kLook, Scale::kLog).lines.size(), 1u);
  results.push_back(Measured("wgmma_bf16", 4096, 700000, true));
  results.push_back(Measured("wgmma_tf32", 4096, 400000, false));  // a wrong C draws no TF32 peak
  const LinePlotData lines = GflopsPlot(results, device, kLook, Scale::kLog);
  ASSERT_EQ(lines.lines.size(), 2u);
  EXPECT_EQ(lines.lines[0].style.name.rfind("FP32 peak", 0), 0u) << lines.lines[0].style.name;
  EXPECT_EQ(lines.lines[1].style.name.rfind("BF16 tensor peak", 0), 0u) << lines.lines[1].style.name;
  EXPECT_DOUBLE_EQ(lines.lines[1].y, kernels::PeakGflops(device, kernels::Precision::kBf16));
}

// The roofs the roofline is given: DRAM's meeting each measured precision's peak at its ridge,
// and an L2 roof only where the device's L2 bandwidth was measured.
TEST(SweepPlots, TheRooflineHasATensorRoofPerPrecisionAndAnL2RoofWhenMeasured) {
  kernels::DeviceInfo device = Hopper();
  const std::vector<kernels::BenchResult> results = {
      Measured("cublas_fp32", 4096, 50000, true), Measured("all_async", 4096, 48000, true),
      Measured("wgmma_tf32", 4096, 400000, true), Measured("cublas_tf32", 4096, 395000, true),
      Measured("warp_specialized", 4096, 730000, true), Measured("cublas_bf16", 4096, 735000, true)};
  const kernels::Shape shape = kernels::Shape::Square(4096);
  LinePlotData roofline = RooflinePlot(results, shape, device, kLook);
  ASSERT_GE(roofline.series.size(), 3u);
  EXPECT_EQ(roofline.series[0].style.name.rfind("roofs: memory 3352 GB/s × FLOP/byte, then peaks FP32 ", 0), 0u)
      << roofline.series[0].style.name;
  const kernels::Precision order[] = {kernels::Precision::kFp32, kernels::Precision::kTf32, kernels::Precision::kBf16};
  for (int i = 0; i < 3; ++i) {
    const Series& roof = roofline.series[static_cast<std::size_t>(i)];
    const double peak = kernels::PeakGflops(device, order[i]);
    if (i > 0) EXPECT_NE(roof.style.name.find(kernels::PeakName(order[i])), std::string::npos) << roof.style.name;
    // The first roof's legend entry names every peak; the others share it.
    EXPECT_NE(roofline.series[0].style.name.find(Format(" %.0f", peak)), std::string::npos)
        << roofline.series[0].style.name;
    EXPECT_EQ(roof.in_legend, i == 0);
    EXPECT_FALSE(roof.markers);
    ASSERT_EQ(roof.points.size(), 3u) << roof.style.name;
    EXPECT_DOUBLE_EQ(roof.points[0].y, device.memory_bandwidth_gbs * roof.points[0].x);
    EXPECT_DOUBLE_EQ(roof.points[1].x, peak / device.memory_bandwidth_gbs);  // the ridge
    EXPECT_DOUBLE_EQ(roof.points[2].y, peak);
  }
  // Every kernel of each precision is a point; the three cuBLAS rows are measured lines.
  EXPECT_EQ(roofline.series.size(), 3u + 3u);
  EXPECT_EQ(roofline.lines.size(), 3u);
  EXPECT_NE(NoL2RoofNote(device).find("No L2 roof"), std::string::npos);

  // cuBLAS TF32 beside FP32 kernels only (the default sweep): no tensor roof, no TF32 line.
  const std::vector<kernels::BenchResult> fp32_sweep = {results[0], results[1], results[3]};
  const LinePlotData fp32_roofline = RooflinePlot(fp32_sweep, shape, device, kLook);
  EXPECT_EQ(fp32_roofline.series.size(), 1u + 1u);
  ASSERT_EQ(fp32_roofline.lines.size(), 1u);
  EXPECT_EQ(fp32_roofline.lines[0].y, 50000.0);

  device.l2_bandwidth_gbs = 10000.0;
  roofline = RooflinePlot(results, shape, device, kLook);
  ASSERT_EQ(roofline.series.size(), 3u + 1u + 3u);
  const Series& l2 = roofline.series[3];
  EXPECT_NE(l2.style.name.find("L2 roof: 10000 GB/s (measured, loads and copies)"), std::string::npos) << l2.style.name;
  ASSERT_EQ(l2.points.size(), 2u);
  EXPECT_DOUBLE_EQ(l2.points[0].y, 10000.0 * l2.points[0].x);
  EXPECT_DOUBLE_EQ(l2.points[1].y, kernels::PeakGflops(device, kernels::Precision::kBf16));
  EXPECT_EQ(NoL2RoofNote(device), "");
}

}  // namespace
}  // namespace plot
