#include "kernels/results_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/ladder.h"
#include "kernels/registry.h"

namespace kernels {
namespace {

ResultsFile SampleFile() {
  ResultsFile file;
  file.device.name = "Test GPU, \"rev 2\"";
  file.device.cc_major = 9;
  file.device.cc_minor = 0;
  file.device.sm_count = 132;
  file.device.clock_mhz = 1980;
  file.device.total_memory_bytes = 85'000'000'000ull;
  file.device.fp32_peak_gflops = 66908.16;
  file.device.memory_bandwidth_gbs = 3352.3;
  file.device.fp32_lanes_per_sm = 128;
  file.measured_at = "2026-11-22T15:40:00Z";

  BenchResult ok;
  ok.kernel = "tiled16";
  ok.label = "tiled, TILE 16";
  ok.math = "FP32 FFMA (CUDA cores)";
  ok.shape = Shape::Square(4096);
  ok.reps = 10;
  ok.median_ms = 16.75;
  ok.min_ms = 16.5;
  ok.max_ms = 17.25;
  ok.q1_ms = 16.625;
  ok.q3_ms = 16.875;
  ok.gflops = 8205.5;
  ok.percent_of_cublas = 16.25;
  ok.percent_of = "cublas_fp32";
  ok.max_abs_error = 1.0 / 4096;
  ok.tolerance = 0.0009765625;
  ok.verified = true;
  ok.occupancy_blocks_per_sm = 8;
  ok.threads_per_block = 256;

  BenchResult wrong = ok;
  wrong.kernel = "tiled16_nosync1";
  wrong.label = "tiled 16, no 1st barrier";
  wrong.shape = {37, 29, 53};
  wrong.max_abs_error = std::nan("");  // an element never written
  wrong.wrong_elements = 1073;
  wrong.verified = false;

  BenchResult failed;
  failed.kernel = "naive";
  failed.label = "naive (global memory only)";
  failed.shape = Shape::Square(200000);
  failed.error = "out of memory at n = 200000: A, B and two C need 596.0 GiB, the device has 79.1 GiB free";
  file.results = {ok, wrong, failed};
  return file;
}

void ExpectSame(const ResultsFile& a, const ResultsFile& b) {
  EXPECT_EQ(a.device.name, b.device.name);
  EXPECT_EQ(a.device.cc_major, b.device.cc_major);
  EXPECT_EQ(a.device.cc_minor, b.device.cc_minor);
  EXPECT_EQ(a.device.sm_count, b.device.sm_count);
  EXPECT_EQ(a.device.total_memory_bytes, b.device.total_memory_bytes);
  EXPECT_DOUBLE_EQ(a.device.fp32_peak_gflops, b.device.fp32_peak_gflops);
  EXPECT_DOUBLE_EQ(a.device.memory_bandwidth_gbs, b.device.memory_bandwidth_gbs);
  EXPECT_DOUBLE_EQ(a.device.l2_bandwidth_gbs, b.device.l2_bandwidth_gbs);
  EXPECT_EQ(a.measured_at, b.measured_at);
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    const BenchResult& x = a.results[i];
    const BenchResult& y = b.results[i];
    EXPECT_EQ(x.kernel, y.kernel);
    EXPECT_EQ(x.label, y.label);
    EXPECT_EQ(x.math, y.math);
    EXPECT_EQ(x.shape, y.shape);
    EXPECT_EQ(x.error, y.error);
    EXPECT_EQ(x.reps, y.reps);
    EXPECT_DOUBLE_EQ(x.median_ms, y.median_ms);
    EXPECT_DOUBLE_EQ(x.q3_ms, y.q3_ms);
    EXPECT_DOUBLE_EQ(x.gflops, y.gflops);
    EXPECT_DOUBLE_EQ(x.percent_of_cublas, y.percent_of_cublas);
    EXPECT_EQ(std::isnan(x.max_abs_error), std::isnan(y.max_abs_error));
    if (!std::isnan(x.max_abs_error)) {
      EXPECT_DOUBLE_EQ(x.max_abs_error, y.max_abs_error);
    }
    EXPECT_EQ(x.wrong_elements, y.wrong_elements);
    EXPECT_EQ(x.verified, y.verified);
    EXPECT_EQ(x.occupancy_blocks_per_sm, y.occupancy_blocks_per_sm);
    EXPECT_EQ(x.threads_per_block, y.threads_per_block);
  }
}

TEST(ResultsFile, JsonRoundTrip) {
  const ResultsFile original = SampleFile();
  ResultsFile loaded;
  const auto error = ResultsFromJson(ResultsToJson(original), loaded);
  ASSERT_FALSE(error) << *error;
  ExpectSame(original, loaded);
}

// bench --json carries what the ladder view shows beside each result; reading ignores it.
TEST(ResultsFile, JsonCarriesTheLadderFigures) {
  const nlohmann::json j = nlohmann::json::parse(ResultsToJson(SampleFile()));
  const nlohmann::json& tiled = j.at("results").at(0);
  EXPECT_EQ(tiled.at("idea").get<std::string>(), IdeaOf(*FindKernel("tiled16")));
  // TILE 16 at 4096³: A read 256 times over, B 256 times; 2·4096³ flops over the bytes of those and C.
  const double n = 4096, loads = 2 * (n / 16) * n * n;
  EXPECT_DOUBLE_EQ(tiled.at("flop_per_byte").get<double>(), 2 * n * n * n / (4 * (loads + n * n)));
}

TEST(ResultsFile, CsvRoundTripWithQuotedText) {
  const ResultsFile original = SampleFile();
  const std::string csv = ResultsToCsv(original);
  EXPECT_NE(csv.find("# results: 3"), std::string::npos);
  ResultsFile loaded;
  const auto error = ResultsFromCsv(csv, loaded);
  ASSERT_FALSE(error) << *error;
  ExpectSame(original, loaded);
}

TEST(ResultsFile, FilesByExtension) {
  const ResultsFile original = SampleFile();
  for (const std::string extension : {".csv", ".JSON"}) {
    const std::string path = ::testing::TempDir() + "kernels_results" + extension;
    ASSERT_FALSE(WriteResultsFile(original, path));
    ResultsFile loaded;
    const auto error = ReadResultsFile(path, loaded);
    ASSERT_FALSE(error) << *error;
    ExpectSame(original, loaded);
    std::remove(path.c_str());
  }
  EXPECT_TRUE(WriteResultsFile(original, ::testing::TempDir() + "results.txt"));
  ResultsFile untouched;
  const auto missing = ReadResultsFile(::testing::TempDir() + "no_such_results.json", untouched);
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->find("cannot open"), std::string::npos);
}

TEST(ResultsFile, TruncatedCsvIsReportedAndNothingIsKept) {
  const std::string csv = ResultsToCsv(SampleFile());
  ResultsFile loaded = SampleFile();
  loaded.results.resize(1);
  // Cut the last row off entirely, then cut a row in the middle of its quoted label.
  const std::string without_last_row = csv.substr(0, csv.rfind("naive,"));
  auto error = ResultsFromCsv(without_last_row, loaded);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("truncated"), std::string::npos) << *error;
  EXPECT_EQ(loaded.results.size(), 1u);

  const std::string mid_quote = csv.substr(0, csv.find("Test GPU") + 2);
  EXPECT_TRUE(ResultsFromCsv(mid_quote, loaded));
}

TEST(ResultsFile, MalformedCsvNamesTheLine) {
  std::string csv = ResultsToCsv(SampleFile());
  const auto pos = csv.find(",16.75,");
  ASSERT_NE(pos, std::string::npos);
  csv.replace(pos, 7, ",fast,");
  ResultsFile loaded;
  const auto error = ResultsFromCsv(csv, loaded);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("line 13"), std::string::npos) << *error;
  EXPECT_NE(error->find("median_ms"), std::string::npos) << *error;
  EXPECT_TRUE(ResultsFromCsv("kernel,label\n", loaded));
}

TEST(ResultsFile, MalformedAndTruncatedJson) {
  const std::string json = ResultsToJson(SampleFile());
  ResultsFile loaded;
  EXPECT_TRUE(ResultsFromJson(json.substr(0, json.size() / 2), loaded));
  EXPECT_TRUE(ResultsFromJson("{\"format\": \"something-else\"}", loaded));
  EXPECT_TRUE(ResultsFromJson("[1, 2, 3]", loaded));
  std::string missing_field = json;
  const auto pos = missing_field.find("\"gflops\"");
  missing_field.replace(pos, 8, "\"gflopz\"");
  const auto error = ResultsFromJson(missing_field, loaded);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("result 1"), std::string::npos) << *error;
}

// Files written before results carried their math and the reference of their percentage
// (docs/results/h100-bench.*) still load, with those left empty; a file that has a column
// must have it in every row.
TEST(ResultsFile, FilesWithoutTheMathFieldStillLoad) {
  const std::string csv = ResultsToCsv(SampleFile());
  std::string old_csv;
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# ", 0) != 0) {  // drop the last two columns
      line = line.substr(0, line.rfind(','));
      line = line.substr(0, line.rfind(','));
    }
    old_csv += line + "\n";
  }
  ResultsFile loaded;
  auto error = ResultsFromCsv(old_csv, loaded);
  ASSERT_FALSE(error) << *error;
  ASSERT_EQ(loaded.results.size(), 3u);
  EXPECT_EQ(loaded.results[0].math, "");
  EXPECT_EQ(loaded.results[0].percent_of, "");
  EXPECT_EQ(loaded.results[0].median_ms, 16.75);

  std::string old_json;  // the JSON without those lines (keys are sorted: never the last)
  std::istringstream json_lines(ResultsToJson(SampleFile()));
  for (std::string line; std::getline(json_lines, line);) {
    if (line.find("\"math\":") == std::string::npos && line.find("\"percent_of\":") == std::string::npos) {
      old_json += line + "\n";
    }
  }
  ASSERT_EQ(old_json.find("\"math\""), std::string::npos) << old_json;
  error = ResultsFromJson(old_json, loaded);
  ASSERT_FALSE(error) << *error;
  EXPECT_EQ(loaded.results[1].math, "");

  std::string short_row = csv.substr(0, csv.rfind(','));  // the header names math, the last row lacks it
  EXPECT_TRUE(ResultsFromCsv(short_row + "\n", loaded));
}

// Replaces the first `from` in `text` by `to`.
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// A results file made bad in one place, and the words its refusal must contain.
struct BadResults {
  std::string text;
  bool csv;
  const char* named;
};

template <std::size_t N>
void ExpectEachRefusedNaming(const BadResults (&cases)[N]) {
  ResultsFile loaded;
  for (const BadResults& bad : cases) {
    const auto error = bad.csv ? ResultsFromCsv(bad.text, loaded) : ResultsFromJson(bad.text, loaded);
    ASSERT_TRUE(error) << bad.named;
    EXPECT_NE(error->find(bad.named), std::string::npos) << *error;
  }
}

// -1e300 cast to uint64 (memory_bytes) and 1e300 cast to int are undefined behaviour: each
// out-of-range number is an error naming the field instead.
TEST(ResultsFile, NumbersOutOfRangeAreNamedNotCast) {
  const std::string json = ResultsToJson(SampleFile());
  const std::string csv = ResultsToCsv(SampleFile());
  const BadResults cases[] = {
      {Replace(json, "\"memory_bytes\": 85000000000.0", "\"memory_bytes\": -1e300"), false,
       "memory_bytes = -1.0000000000000001e+300 is not a byte count"},
      {Replace(csv, "# memory_bytes: 85000000000", "# memory_bytes: -1e300"), true,
       "memory_bytes = -1.0000000000000001e+300 is not a byte count"},
      {Replace(json, "\"sms\": 132", "\"sms\": 1e300"), false, "1e+300 is not an integer"},
      {Replace(csv, "# sms: 132", "# sms: 4294967296"), true, "line 4: '# sms: 4294967296' has no valid number"},
      {Replace(json, "\"reps\": 10", "\"reps\": 4294967296"), false,
       "result 1: reps: 4294967296 is out of range"},
      {Replace(json, "\"m\": 4096", "\"m\": 0"), false, "0 is not a size from 1 to 2147483647"},
      {Replace(csv, "tiled16,\"tiled, TILE 16\",4096", "tiled16,\"tiled, TILE 16\",-5"), true,
       "field m = '-5' is not valid: -5 is not a size from 1 to 2147483647"},
      {Replace(json, "\"version\": 1", "\"version\": 1.5"), false, "unknown version 1.5"},
  };
  ExpectEachRefusedNaming(cases);
}

// A measured figure is never negative or infinite: a GFLOPS of -5 once loaded and was plotted.
// NaN is how a file says "none" (a result with an error, an element never written), so it
// still loads.
TEST(ResultsFile, NegativeOrInfiniteFiguresAreNamedAndNoneStillLoads) {
  const std::string json = ResultsToJson(SampleFile());
  const std::string csv = ResultsToCsv(SampleFile());
  ResultsFile loaded;
  const BadResults cases[] = {
      {Replace(json, "\"gflops\": 8205.5", "\"gflops\": -5"), false,
       "result 1: gflops: -5 is negative: a measured figure is at least 0"},
      {Replace(csv, "16.875,8205.5,", "16.875,-5,"), true,
       "line 13: field gflops = '-5' is not valid: -5 is negative: a measured figure is at least 0"},
      {Replace(csv, "16.875,8205.5,", "16.875,inf,"), true, "field gflops = 'inf' is not valid: inf is not a finite figure"},
      {Replace(json, "\"median_ms\": 16.75", "\"median_ms\": -0.5"), false, "result 1: median_ms: -0.5 is negative"},
      {Replace(csv, "# fp32_peak_gflops: ", "# fp32_peak_gflops: -"), true,
       "line 7: '# fp32_peak_gflops: -66908.160000000003' has no valid number: -66908.160000000003 is negative"},
      {Replace(json, "\"fp32_peak_gflops\": 66908.16", "\"fp32_peak_gflops\": -1"), false, "-1 is negative"},
  };
  ExpectEachRefusedNaming(cases);
  // The sample's second result has a NaN error and its third no times at all: both formats
  // read them back as none.
  ASSERT_FALSE(ResultsFromCsv(csv, loaded));
  EXPECT_TRUE(std::isnan(loaded.results[1].max_abs_error));
  ASSERT_FALSE(ResultsFromJson(json, loaded));
  EXPECT_TRUE(std::isnan(loaded.results[1].max_abs_error));
}

TEST(ResultsFile, DeepNestingIsRefusedWithoutRecursing) {
  constexpr int kLevels = 100000;
  const std::string deep =
      "{\"format\": \"tilescope-sweep\", \"version\": " + std::string(kLevels, '[') + std::string(kLevels, ']') + "}";
  ResultsFile loaded;
  const auto error = ResultsFromJson(deep, loaded);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("nested deeper than 64 levels"), std::string::npos) << *error;
}

TEST(ResultsFile, FolderIsRefusedByName) {
  ResultsFile loaded;
  const std::string folder = ::testing::TempDir() + "results_folder.json";
  std::filesystem::create_directories(folder);
  const auto from_folder = ReadResultsFile(folder, loaded);
  ASSERT_TRUE(from_folder);
  EXPECT_EQ(*from_folder, folder + ": cannot read: it is a folder, not a file");
  std::filesystem::remove(folder);
}

// Issue 32: "device": {} gave "[json.exception.out_of_range.403] key 'name' not found".
TEST(ResultsFile, AMissingKeyIsNamedWithoutTheLibrarysTag) {
  nlohmann::json json = nlohmann::json::parse(ResultsToJson(SampleFile()));
  ResultsFile loaded;
  json["device"] = nlohmann::json::object();
  EXPECT_EQ(ResultsFromJson(json.dump(), loaded), std::optional<std::string>("device: no \"name\" key"));
  json = nlohmann::json::parse(ResultsToJson(SampleFile()));
  json["results"][0].erase("m");
  EXPECT_EQ(ResultsFromJson(json.dump(), loaded), std::optional<std::string>("result 1: no \"m\" key"));
}

// A run's measured L2 bandwidth is kept in the device section, in both formats; a file from a
// run that did not measure it has no such key and reads back as 0 (no L2 roof).
TEST(ResultsFile, TheMeasuredL2BandwidthIsKeptOnlyWhereMeasured) {
  ResultsFile measured = SampleFile();
  measured.device.l2_bandwidth_gbs = 9876.5;
  for (const bool csv : {false, true}) {
    ResultsFile loaded;
    const std::string text = csv ? ResultsToCsv(measured) : ResultsToJson(measured);
    EXPECT_NE(text.find("l2_bandwidth_gbs"), std::string::npos);
    const auto error = csv ? ResultsFromCsv(text, loaded) : ResultsFromJson(text, loaded);
    ASSERT_FALSE(error) << *error;
    EXPECT_DOUBLE_EQ(loaded.device.l2_bandwidth_gbs, 9876.5);
    const std::string unmeasured = csv ? ResultsToCsv(SampleFile()) : ResultsToJson(SampleFile());
    EXPECT_EQ(unmeasured.find("l2_bandwidth_gbs"), std::string::npos);
    loaded.device.l2_bandwidth_gbs = 1.0;
    ASSERT_FALSE(csv ? ResultsFromCsv(unmeasured, loaded) : ResultsFromJson(unmeasured, loaded));
    EXPECT_EQ(loaded.device.l2_bandwidth_gbs, 0.0);
  }
  // A negative figure is named, as every other measured figure is.
  ResultsFile loaded;
  const std::string bad = Replace(ResultsToJson(measured), "\"l2_bandwidth_gbs\": 9876.5", "\"l2_bandwidth_gbs\": -1");
  const auto error = ResultsFromJson(bad, loaded);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("-1 is negative"), std::string::npos) << *error;
}

}  // namespace
}  // namespace kernels
