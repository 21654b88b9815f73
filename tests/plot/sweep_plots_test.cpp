// A sweep's results as plot data: a kernel that computed a wrong C (or was not measured) is
// never plotted as fast, in the GFLOPS lines or the % of cuBLAS bars, and the legend owns up
// to what it left out; the hover tooltip carries the exact figures.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/plot/sweep_plots.h"

namespace plot {
namespace {

constexpr ImU32 kWhite = IM_COL32_WHITE;
constexpr ImU32 kGrey = IM_COL32(128, 128, 128, 255);
constexpr ImU32 kRed = IM_COL32(255, 0, 0, 255);
constexpr ImU32 kGreen = IM_COL32(0, 255, 0, 255);
const SweepLook kLook{{kRed, kGreen}, kWhite, kGrey, "RIGHT", "WRONG"};

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
  const LinePlotData lines = GflopsPlot(SweepWithAWrongKernel(), 60000.0, kLook, Scale::kLog);
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
  const std::string good = ResultTooltip(Measured("tiled16", 1024, 8000, true), 64000.0, kLook);
  for (const char* part : {"8000.0 GFLOPS", "ms median", "10 launches", "16.0 % of cuBLAS", "12.5 % of the FP32 peak",
                           "8 blocks of 256 threads per SM", "RIGHT verified"}) {
    EXPECT_NE(good.find(part), std::string::npos) << part << " not in:\n" << good;
  }
  const std::string wrong = ResultTooltip(Measured("tiled16_nosync1", 1024, 90000, false), 64000.0, kLook);
  EXPECT_NE(wrong.find("WRONG wrong C: 1234 elements"), std::string::npos) << wrong;
}

// The plots draw in the caller's look only: kernels take its colours in turn, cuBLAS its
// reference colour, the peak and the roofs its roof colour, a legend that left results out its glyph.
TEST(SweepPlots, ColoursAndGlyphsComeFromTheLook) {
  std::vector<kernels::BenchResult> results = SweepWithAWrongKernel();
  results.push_back(Measured("tiled8", 1024, 4000, true));
  const LinePlotData lines = GflopsPlot(results, 60000.0, kLook, Scale::kLog);
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

}  // namespace
}  // namespace plot
