// The plot widgets drawn into a headless ImGui context (no window, no GL): what they report
// having drawn, for empty, single-point and ordinary data, and that they draw something.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>

#include "app/plot/bar_chart.h"
#include "app/plot/line_plot.h"

namespace plot {
namespace {

// One ImGui frame in a context of its own, with the font atlas built so text can be measured.
class HeadlessFrame : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 720);
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1000, 600));
    ImGui::Begin("plot");
  }
  void TearDown() override {
    ImGui::End();
    ImGui::Render();
    ImGui::DestroyContext();
  }
  int VerticesSoFar() { return ImGui::GetWindowDrawList()->VtxBuffer.Size; }
};

Series Kernel(const char* name, std::vector<Point> points) {
  return {{name, IM_COL32(230, 159, 0, 255), Marker::kCircle, 2.0f}, std::move(points)};
}

TEST_F(HeadlessFrame, EmptyPlotStillDrawsAxesAndReportsNoSeries) {
  const int before = VerticesSoFar();
  const PlotState state = DrawLinePlot("##empty", LinePlotData{"n", "GFLOPS", {}, {}}, ImVec2(600, 300));
  EXPECT_TRUE(state.series.empty());
  EXPECT_FALSE(state.x_axis.empty);  // The usual 256…4096 sweep, so the frame is meaningful.
  EXPECT_GT(VerticesSoFar(), before);
  EXPECT_FLOAT_EQ(state.widget_max.x - state.widget_min.x, 600.0f);
}

TEST_F(HeadlessFrame, SinglePointSeriesCountsOnePoint) {
  LinePlotData data{"n", "GFLOPS", {Kernel("naive", {{1024, 5000, "5000 GFLOPS"}})}, {}};
  const PlotState state = DrawLinePlot("##one", data, ImVec2(600, 300));
  ASSERT_EQ(state.series.size(), 1u);
  EXPECT_EQ(state.series[0].points, 1);
  EXPECT_LT(state.x_axis.lo, 1024.0);
  EXPECT_GT(state.x_axis.hi, 1024.0);
}

TEST_F(HeadlessFrame, UnplottablePointsAreNotCountedAndPeakWidensTheYAxis) {
  LinePlotData data{"n", "GFLOPS",
                    {Kernel("tiled16", {{256, 100, ""}, {0, 5, "no size"}, {1024, std::nan(""), "failed"}, {4096, 8000, ""}})},
                    {{{"FP32 peak", IM_COL32_WHITE, Marker::kCircle, 1.5f}, 66900.0, true}}};
  const PlotState state = DrawLinePlot("##two", data, ImVec2(600, 300));
  EXPECT_EQ(state.series[0].points, 2);
  ASSERT_EQ(state.reference_lines.size(), 1u);
  EXPECT_EQ(state.reference_lines[0], "FP32 peak");
  EXPECT_GE(state.y_axis.hi, 66900.0);
  EXPECT_EQ(state.y_axis.lo, 0.0);
}

TEST_F(HeadlessFrame, LogAxisSkipsZeroAndSpansTheDecades) {
  LinePlotData data{"n", "GFLOPS", {Kernel("tiled16", {{256, 0.0, "zero"}, {1024, 5000, ""}, {4096, 400000, ""}})}, {}};
  data.y_scale = Scale::kLog;
  const PlotState state = DrawLinePlot("##log", data, ImVec2(600, 300));
  EXPECT_EQ(state.series[0].points, 2);  // 0 GFLOPS has no place on a log axis.
  EXPECT_GT(state.y_axis.lo, 0.0);
  EXPECT_LT(state.y_axis.lo, 5000.0);
  EXPECT_GT(state.y_axis.hi, 400000.0);
}

TEST_F(HeadlessFrame, BarChartCountsMeasuredBarsOnly) {
  BarSeries naive;
  naive.style = {"naive", IM_COL32(0, 114, 178, 255), Marker::kSquare, 2.0f};
  naive.bars = {Bar{12.5, ""}, std::nullopt};
  const BarChartData data{"n", "% of cuBLAS", {"256", "1024"}, {naive}, 100.0, "cuBLAS = 100 %"};
  const PlotState state = DrawBarChart("##bars", data, ImVec2(600, 300));
  ASSERT_EQ(state.series.size(), 1u);
  EXPECT_EQ(state.series[0].points, 1);
  EXPECT_GE(state.y_axis.hi, 100.0);
  EXPECT_EQ(state.x_axis.hi, 1.0);
}

// TF32 at 780 % of cuBLAS FP32 once squashed every FP32 bar to a sliver: a lower-precision
// series is off the scale, so the axis fits the FP32 kernels and the reference line.
TEST_F(HeadlessFrame, OffScaleSeriesDoNotStretchTheAxis) {
  BarSeries tiled;
  tiled.style = {"tiled32", IM_COL32(0, 114, 178, 255), Marker::kSquare, 2.0f};
  tiled.bars = {Bar{18.0, ""}};
  BarSeries tf32;
  tf32.style = {"cuBLAS TF32", IM_COL32(230, 159, 0, 255), Marker::kCircle, 2.0f};
  tf32.bars = {Bar{780.0, ""}};
  tf32.off_scale = true;
  const BarChartData data{"n", "% of cuBLAS", {"4096"}, {tiled, tf32}, 100.0, "cuBLAS = 100 %"};
  const PlotState state = DrawBarChart("##offscale", data, ImVec2(600, 300));
  EXPECT_GE(state.y_axis.hi, 100.0);
  EXPECT_LT(state.y_axis.hi, 200.0);
  ASSERT_EQ(state.series.size(), 2u);
  EXPECT_EQ(state.series[1].points, 1) << "the cut bar is still drawn";
}

TEST_F(HeadlessFrame, EmptyBarChartDoesNotFail) {
  const PlotState state = DrawBarChart("##nobars", BarChartData{}, ImVec2(0, 0));
  EXPECT_TRUE(state.series.empty());
  EXPECT_TRUE(state.x_axis.empty);
}

// A reference line's name goes above its right end unless something drawn there would run
// through it: the roofline's compute roof just above cuBLAS's line at 4096 (it did), or the
// top of the data area. Then below, then at the left end.
// Six entries beside a plot too short for them in one column (the Live GPU page's roofline at
// 1366×768 with its setup open): a second column, none over the x axis' label below the frame.
TEST_F(HeadlessFrame, ALongLegendBesideAShortPlotStaysBesideIt) {
  LinePlotData data{"n", "GFLOPS", {}, {}};
  for (const char* name : {"naive", "tiled 16", "tiled 32", "register 2D", "vectorized", "cuBLAS"}) {
    data.series.push_back(Kernel(name, {{1024, 100, ""}}));
  }
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const PlotState tall = DrawLinePlot("##tall", data, ImVec2(600, 12.0f * line));
  const PlotState short_plot = DrawLinePlot("##short", data, ImVec2(600, 6.0f * line));
  const float x_label_top = short_plot.widget_max.y - 2.0f * ImGui::GetTextLineHeight();
  EXPECT_LE(short_plot.legend_max.y, x_label_top) << "the legend runs into the x axis' label";
  EXPECT_LE(short_plot.legend_max.x, short_plot.widget_max.x) << "the second column runs past the widget";
  EXPECT_LE(tall.legend_max.y, tall.widget_max.y - 2.0f * ImGui::GetTextLineHeight());
  EXPECT_GE(tall.legend_max.y, tall.widget_min.y + 6.0f * line) << "a legend with the room keeps one column";
}

TEST_F(HeadlessFrame, LineLabelStaysClearOfWhatIsDrawn) {
  const PlotFrame frame{ImVec2(0, 0), ImVec2(400, 200)};
  const ImVec2 text(100, 14);
  const ImVec2 free = LineLabelAt(frame, 100, text);
  EXPECT_LT(free.y + text.y, 100.0f) << "above the line";
  EXPECT_GT(free.x, 250.0f) << "at its right end";
  EXPECT_GT(LineLabelAt(frame, 5, text).y, 5.0f) << "below a line along the top";

  const std::vector<ImVec2> roof = {{200, 95}, {400, 95}};  // just above the line, on the right
  const ImVec2 under = LineLabelAt(frame, 100, text, {roof});
  EXPECT_GT(under.y, 100.0f) << "below the line, the roof being above it";
  EXPECT_GT(under.x, 250.0f);

  const std::vector<ImVec2> steep = {{340, 160}, {360, 40}};  // through both sides of the right end
  const ImVec2 left = LineLabelAt(frame, 100, text, {steep});
  EXPECT_LT(left.x + text.x, 200.0f) << "at the left end";
  EXPECT_LT(left.y + text.y, 100.0f);

  const std::vector<ImVec2> marker = {{free.x + 10, free.y + 5}};  // a lone point where the label would go
  EXPECT_GT(LineLabelAt(frame, 100, text, {marker}).y, 100.0f);
  EXPECT_GT(LineLabelAt(frame, 100, text, {{{free.x - 3, free.y}}}, 5.0f).y, 100.0f) << "kept clear by the clearance";
}

}  // namespace
}  // namespace plot
