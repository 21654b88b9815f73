// Saved sweeps: CSV and JSON round trips keep every figure, and a malformed or truncated
// file is an error naming where, leaving the caller's sweep untouched (the last good plot).
#include "app/plot/sweep_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace plot {
namespace {

// Synthetic figures (round numbers, a made-up GPU): the format is under test, not a device.
SweepFile Synthetic() {
  SweepFile sweep;
  sweep.device = {true, "", "Synthetic GPU, \"test\" edition", "9.0", 100, 1000.0, 8.0e9, 50000.0};
  sweep.measured_at = "2000-01-01T00:00:00Z";
  kernels::BenchResult ok;
  ok.kernel = "tiled16";
  ok.label = "tiled, TILE 16";
  ok.shape = kernels::Shape::Square(1024);
  ok.reps = 5;
  ok.median_ms = 0.25;
  ok.min_ms = 0.125;
  ok.max_ms = 0.5;
  ok.gflops = 8589.934592;
  ok.percent_of_cublas = 17.5;
  ok.tolerance = 0.00048828125;
  ok.verified = true;
  ok.occupancy_blocks_per_sm = 8;
  ok.threads_per_block = 256;
  kernels::BenchResult failed;
  failed.kernel = "naive";
  failed.label = "naive, with a comma";
  failed.shape = {37, 29, 53};
  failed.error = "out of memory at 37x29x53, \"made up\"";
  failed.max_abs_error = std::nan("");
  sweep.results = {ok, failed};
  return sweep;
}

void ExpectSame(const SweepFile& a, const SweepFile& b) {
  EXPECT_EQ(a.device.name, b.device.name);
  EXPECT_EQ(a.device.fp32_peak_gflops, b.device.fp32_peak_gflops);
  EXPECT_EQ(a.device.sms, b.device.sms);
  EXPECT_EQ(a.measured_at, b.measured_at);
  ASSERT_EQ(a.results.size(), b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i) {
    const auto& x = a.results[i];
    const auto& y = b.results[i];
    EXPECT_EQ(x.kernel, y.kernel);
    EXPECT_EQ(x.label, y.label);
    EXPECT_TRUE(x.shape == y.shape);
    EXPECT_EQ(x.error, y.error);
    EXPECT_EQ(x.gflops, y.gflops);
    EXPECT_EQ(x.median_ms, y.median_ms);
    EXPECT_EQ(x.percent_of_cublas, y.percent_of_cublas);
    EXPECT_EQ(x.verified, y.verified);
    EXPECT_EQ(x.occupancy_blocks_per_sm, y.occupancy_blocks_per_sm);
    EXPECT_EQ(std::isnan(x.max_abs_error), std::isnan(y.max_abs_error));
  }
}

TEST(SweepFile, JsonRoundTrip) {
  SweepFile back;
  ASSERT_EQ(SweepFromJson(SweepToJson(Synthetic()), back), std::nullopt);
  ExpectSame(Synthetic(), back);
}

TEST(SweepFile, CsvRoundTripWithQuotedFields) {
  SweepFile back;
  ASSERT_EQ(SweepFromCsv(SweepToCsv(Synthetic()), back), std::nullopt);
  ExpectSame(Synthetic(), back);
}

TEST(SweepFile, FilesByExtension) {
  const std::string dir = ::testing::TempDir();
  for (const char* name : {"sweep.csv", "sweep.JSON"}) {
    const std::string path = dir + name;
    ASSERT_EQ(WriteSweepFile(Synthetic(), path), std::nullopt);
    SweepFile back;
    ASSERT_EQ(ReadSweepFile(path, back), std::nullopt);
    ExpectSame(Synthetic(), back);
    std::remove(path.c_str());
  }
  SweepFile unused;
  EXPECT_NE(WriteSweepFile(Synthetic(), dir + "sweep.txt"), std::nullopt);
  EXPECT_NE(ReadSweepFile(dir + "missing.json", unused), std::nullopt);
}

// A failed read must leave the sweep on screen as it was.
void ExpectRejectedAndKept(const std::optional<std::string>& error, const SweepFile& kept, const char* needle) {
  ASSERT_NE(error, std::nullopt);
  EXPECT_NE(error->find(needle), std::string::npos) << *error;
  ExpectSame(Synthetic(), kept);
}

TEST(SweepFile, TruncatedJsonIsRejected) {
  const std::string text = SweepToJson(Synthetic());
  SweepFile kept = Synthetic();
  ExpectRejectedAndKept(SweepFromJson(text.substr(0, text.size() / 2), kept), kept, "parse");
}

TEST(SweepFile, JsonWithAMissingFieldNamesIt) {
  std::string text = SweepToJson(Synthetic());
  text.replace(text.find("\"gflops\""), 8, "\"gflips\"");
  SweepFile kept = Synthetic();
  ExpectRejectedAndKept(SweepFromJson(text, kept), kept, "gflops");
}

TEST(SweepFile, ForeignJsonIsRejected) {
  SweepFile kept = Synthetic();
  ExpectRejectedAndKept(SweepFromJson("{\"hello\": 1}", kept), kept, "not a TileScope sweep");
}

TEST(SweepFile, CsvCutMidRowNamesTheLine) {
  const std::string text = SweepToCsv(Synthetic());
  SweepFile kept = Synthetic();
  ExpectRejectedAndKept(SweepFromCsv(text.substr(0, text.size() - 20), kept), kept, "line 12");
}

TEST(SweepFile, CsvMissingWholeRowsIsCaughtByTheCount) {
  const std::string text = SweepToCsv(Synthetic());
  const std::string without_last_row = text.substr(0, text.rfind('\n', text.size() - 2) + 1);
  SweepFile kept = Synthetic();
  ExpectRejectedAndKept(SweepFromCsv(without_last_row, kept), kept, "truncated");
}

TEST(SweepFile, CsvWithABadNumberNamesTheField) {
  std::string text = SweepToCsv(Synthetic());
  text.replace(text.find("8589.9"), 6, "lots!!");
  SweepFile kept = Synthetic();
  ExpectRejectedAndKept(SweepFromCsv(text, kept), kept, "gflops");
}

TEST(SweepFile, TimestampIsIso8601Utc) {
  const std::string now = NowIso8601();
  ASSERT_EQ(now.size(), 20u);
  EXPECT_EQ(now[10], 'T');
  EXPECT_EQ(now.back(), 'Z');
}

}  // namespace
}  // namespace plot
