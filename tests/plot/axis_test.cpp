// The plot's axis maths: extents, padded ranges, log2 and linear ticks, value → fraction,
// and the corners a sweep produces (no results yet, one size, zeros, NaN from a failed run).
#include "app/plot/axis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace plot {
namespace {

std::vector<std::string> Labels(const std::vector<Tick>& ticks) {
  std::vector<std::string> labels;
  for (const Tick& tick : ticks) labels.push_back(tick.label);
  return labels;
}

TEST(Extent, EmptyInputIsEmpty) { EXPECT_TRUE(Extent({}).empty); }

TEST(Extent, SkipsNonFiniteAndOnLogAxesNonPositive) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Range all = Extent({nan, -3.0, 0.0, 8.0, std::numeric_limits<double>::infinity()});
  EXPECT_FALSE(all.empty);
  EXPECT_EQ(all.lo, -3.0);
  EXPECT_EQ(all.hi, 8.0);
  const Range positive = Extent({-3.0, 0.0, 8.0, 2.0}, true);
  EXPECT_EQ(positive.lo, 2.0);
  EXPECT_EQ(positive.hi, 8.0);
  EXPECT_TRUE(Extent({0.0, -1.0, nan}, true).empty);
}

TEST(Extent, UnionKeepsTheNonEmptySide) {
  EXPECT_TRUE(Union(Range{}, Range{}).empty);
  const Range r = Union(Range{}, Range::Of(1, 2));
  EXPECT_EQ(r.lo, 1);
  const Range both = Union(Range::Of(5, 6), Range::Of(1, 2));
  EXPECT_EQ(both.lo, 1);
  EXPECT_EQ(both.hi, 6);
}

TEST(Log2Axis, PadsHalfAnOctaveEachSide) {
  const Range axis = Log2AxisRange(Range::Of(256, 4096));
  EXPECT_NEAR(std::log2(axis.lo), 7.5, 1e-12);
  EXPECT_NEAR(std::log2(axis.hi), 12.5, 1e-12);
  EXPECT_EQ(Labels(Log2Ticks(axis, 10)), (std::vector<std::string>{"256", "512", "1024", "2048", "4096"}));
}

TEST(Log2Axis, EmptyDataShowsTheUsualSweep) {
  const Range axis = Log2AxisRange(Range{});
  EXPECT_FALSE(axis.empty);
  EXPECT_EQ(Log2Ticks(axis, 10).front().label, "256");
  EXPECT_EQ(Log2Ticks(axis, 10).back().label, "4096");
}

TEST(Log2Axis, SinglePointSitsInTheMiddleWithOneTick) {
  const Range axis = Log2AxisRange(Range::Of(1024, 1024));
  EXPECT_NEAR(Log2Fraction(axis, 1024), 0.5, 1e-12);
  EXPECT_EQ(Labels(Log2Ticks(axis, 10)), (std::vector<std::string>{"1024"}));
}

TEST(Log2Axis, ManyOctavesThinOutTheTicks) {
  const std::vector<Tick> ticks = Log2Ticks(Range::Of(1, 65536), 5);  // 17 powers of two.
  EXPECT_LE(ticks.size(), 5u);
  EXPECT_EQ(ticks.front().label, "1");
  EXPECT_EQ(ticks[1].label, "16");  // Every 4th octave.
}

TEST(Log2Axis, FractionsBelowOneAndEndsExactlyOnPowers) {
  EXPECT_EQ(Labels(Log2Ticks(Range::Of(0.25, 1), 10)), (std::vector<std::string>{"0.25", "0.5", "1"}));
  EXPECT_TRUE(Log2Ticks(Range{}, 10).empty());
  EXPECT_TRUE(Log2Ticks(Range::Of(-1, 8), 10).empty());
}

TEST(Log2Axis, FractionIsLinearInOctaves) {
  const Range axis = Range::Of(256, 4096);
  EXPECT_DOUBLE_EQ(Log2Fraction(axis, 256), 0.0);
  EXPECT_DOUBLE_EQ(Log2Fraction(axis, 1024), 0.5);
  EXPECT_DOUBLE_EQ(Log2Fraction(axis, 4096), 1.0);
  EXPECT_TRUE(std::isnan(Log2Fraction(axis, 0.0)));
}

TEST(LogAxis, DecadesOnlyWhenThereAreEnoughOfThem) {
  // A default H100 sweep: naive at 2 TFLOPS up to TF32 at 400 TFLOPS.
  const Range axis = LogAxisRange(Range::Of(2000, 400000));
  EXPECT_NEAR(std::log10(axis.lo), std::log10(2000.0) - 0.2, 1e-12);
  EXPECT_NEAR(std::log10(axis.hi), std::log10(400000.0) + 0.2, 1e-12);
  EXPECT_EQ(Labels(LogTicks(Range::Of(500, 2e6))), (std::vector<std::string>{"1000", "10000", "100000", "1000000"}));
}

TEST(LogAxis, FewDecadesGetTwoAndFiveTimesToo) {
  EXPECT_EQ(Labels(LogTicks(LogAxisRange(Range::Of(2000, 400000)))),
            (std::vector<std::string>{"2000", "5000", "10000", "20000", "50000", "100000", "200000", "500000"}));
  EXPECT_EQ(Labels(LogTicks(Range::Of(0.015, 0.6))), (std::vector<std::string>{"0.02", "0.05", "0.1", "0.2", "0.5"}));
}

TEST(LogAxis, EmptyOrNonPositiveDataGetsThreeDecades) {
  for (const Range data : {Range{}, Range::Of(-5, 10)}) {
    const Range axis = LogAxisRange(data);
    EXPECT_EQ(axis.lo, 1.0);
    EXPECT_EQ(axis.hi, 1000.0);
  }
  EXPECT_TRUE(LogTicks(Range{}).empty());
  EXPECT_TRUE(LogTicks(Range::Of(0, 10)).empty());
}

TEST(LogAxis, FractionIsLinearInDecades) {
  const Range axis = Range::Of(100, 100000);
  EXPECT_NEAR(Fraction(Scale::kLog, axis, 1000), 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(Fraction(Scale::kLinear, axis, 1000), 900.0 / 99900.0, 1e-12);
  EXPECT_TRUE(std::isnan(Fraction(Scale::kLog, axis, 0.0)));
}

TEST(LinearAxis, FromZeroToARoundTop) {
  const Range axis = LinearAxisRange(Range::Of(1234, 66900), true, 5);
  EXPECT_EQ(axis.lo, 0.0);
  EXPECT_EQ(axis.hi, 80000.0);  // 5 ticks wanted: steps of 20000, the top one above the data.
  EXPECT_EQ(Labels(LinearTicks(axis, 5)), (std::vector<std::string>{"0", "20000", "40000", "60000", "80000"}));
}

TEST(LinearAxis, EmptyAndAllZeroGiveZeroToOne) {
  const Range empty = LinearAxisRange(Range{}, true, 5);
  EXPECT_EQ(empty.lo, 0.0);
  EXPECT_EQ(empty.hi, 1.0);
  const Range zero = LinearAxisRange(Range::Of(0, 0), true, 5);
  EXPECT_EQ(zero.hi, 1.0);
  EXPECT_EQ(Labels(LinearTicks(zero, 5)), (std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
}

TEST(LinearAxis, SingleValueNotFromZeroGetsAWindowAroundIt) {
  const Range axis = LinearAxisRange(Range::Of(50, 50), false, 5);
  EXPECT_LT(axis.lo, 50.0);
  EXPECT_GT(axis.hi, 50.0);
  EXPECT_GT(LinearFraction(axis, 50), 0.0);
  EXPECT_LT(LinearFraction(axis, 50), 1.0);
}

TEST(LinearAxis, TicksHaveTheDecimalsTheStepNeeds) {
  EXPECT_EQ(Labels(LinearTicks(Range::Of(0, 0.3), 3)), (std::vector<std::string>{"0.0", "0.1", "0.2", "0.3"}));
  EXPECT_EQ(Labels(LinearTicks(Range::Of(-10, 10), 4)), (std::vector<std::string>{"-10", "-5", "0", "5", "10"}));
  EXPECT_TRUE(LinearTicks(Range::Of(3, 3), 5).empty());
}

TEST(NiceStep, OneTwoFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(NiceStep(100, 5), 20);
  EXPECT_DOUBLE_EQ(NiceStep(100, 10), 10);
  EXPECT_DOUBLE_EQ(NiceStep(7, 5), 2);
  EXPECT_DOUBLE_EQ(NiceStep(0.3, 3), 0.1);
  EXPECT_DOUBLE_EQ(NiceStep(0, 5), 1);
  EXPECT_DOUBLE_EQ(NiceStep(std::numeric_limits<double>::quiet_NaN(), 5), 1);
}

TEST(LinearFraction, ZeroWidthAxisPutsValuesInTheMiddle) {
  EXPECT_DOUBLE_EQ(LinearFraction(Range::Of(2, 2), 2), 0.5);
  EXPECT_DOUBLE_EQ(LinearFraction(Range{}, 7), 0.5);
  EXPECT_DOUBLE_EQ(LinearFraction(Range::Of(0, 10), 2.5), 0.25);
}

// A saved result can hold any double (1e308, the largest there is): padding its axis once
// overflowed to inf, and log10(inf) reached an int cast (undefined behaviour, found by UBSan);
// 300 decades are a few labels, not 300.
TEST(HugeAndInfiniteValues, AxesStayFiniteAndTicksStayFewAndInside) {
  constexpr double kLargest = std::numeric_limits<double>::max();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const auto check = [](const std::vector<Tick>& ticks, Range axis, const char* what) {
    EXPECT_LE(ticks.size(), 40u) << what;
    for (const Tick& tick : ticks) {
      EXPECT_TRUE(std::isfinite(tick.value)) << what;
      EXPECT_TRUE(tick.value >= axis.lo - 1e-9 * std::fabs(axis.lo) && tick.value <= axis.hi + 1e-9 * axis.hi)
          << what << ": " << tick.value;
    }
  };
  const Range log = LogAxisRange(Range::Of(1.0, kLargest));
  EXPECT_TRUE(std::isfinite(log.hi));
  check(LogTicks(log), log, "log");
  const Range log2 = Log2AxisRange(Range::Of(1.0, kLargest));
  EXPECT_TRUE(std::isfinite(log2.hi));
  check(Log2Ticks(log2, 8), log2, "log2");
  const Range linear = LinearAxisRange(Range::Of(-kLargest, kLargest), true, 5);
  EXPECT_TRUE(std::isfinite(linear.Span()));
  check(LinearTicks(linear, 5), linear, "linear");
  EXPECT_TRUE(LogTicks(Range::Of(1.0, kInf)).empty());
  EXPECT_TRUE(Log2Ticks(Range::Of(1.0, kInf), 8).empty());
  EXPECT_TRUE(LinearTicks(Range::Of(-kInf, kInf), 5).empty());
  EXPECT_TRUE(LinearTicks(Range::Of(0.0, std::nan("")), 5).empty());
}

}  // namespace
}  // namespace plot
