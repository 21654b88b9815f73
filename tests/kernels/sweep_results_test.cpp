// The live panel's results: files written by the CLI's writer (`tilescope bench --csv/--json`
// calls kernels::WriteResultsFile) load, are marked with where they came from, and a
// malformed or truncated file is refused with a message while the last good results stay.
#include "kernels/sweep_results.h"

#include <gtest/gtest.h>

#include <fstream>

namespace kernels {
namespace {

// Synthetic figures (round numbers, a made-up GPU): the loading is under test, not a device.
kernels::ResultsFile CliFile(const std::string& device_name) {
  kernels::ResultsFile file;
  file.device.name = device_name;
  file.device.cc_major = 9;
  file.device.sm_count = 100;
  file.device.clock_mhz = 1000;
  file.device.total_memory_bytes = 8'000'000'000ull;
  file.device.fp32_peak_gflops = 50000;
  file.device.memory_bandwidth_gbs = 2000;
  file.measured_at = "2000-01-01T00:00:00Z";
  for (const char* kernel : {"naive", "tiled16", "cublas_fp32"}) {
    kernels::BenchResult r;
    r.kernel = kernel;
    r.label = kernel;
    r.shape = kernels::Shape::Square(1024);
    r.reps = 5;
    r.median_ms = 1.0;
    r.gflops = 2147.483648;
    r.verified = true;
    file.results.push_back(r);
  }
  return file;
}

std::string WriteText(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(SweepResults, LoadsWhatTheCliWritesInBothFormats) {
  for (const char* name : {"cli.json", "cli.csv"}) {
    const std::string path = ::testing::TempDir() + name;
    ASSERT_EQ(kernels::WriteResultsFile(CliFile("Synthetic GPU"), path), std::nullopt);
    SweepResults sweep;
    ASSERT_EQ(sweep.Load(path), std::nullopt) << name;
    EXPECT_EQ(sweep.results().size(), 3u);
    EXPECT_EQ(sweep.device().fp32_peak_gflops, 50000);
    EXPECT_EQ(sweep.device().memory_bandwidth_gbs, 2000);
    EXPECT_EQ(sweep.Provenance(), "loaded from " + path + ", measured on Synthetic GPU at 2000-01-01T00:00:00Z");
  }
}

TEST(SweepResults, WhatThePanelSavesTheCliFormatReads) {
  SweepResults sweep;
  sweep.BeginRun(CliFile("Synthetic GPU").device);
  sweep.Add(CliFile("Synthetic GPU").results);
  EXPECT_NE(sweep.Provenance().find("(this session)"), std::string::npos);
  const std::string path = ::testing::TempDir() + "panel.csv";
  ASSERT_EQ(sweep.Save(path), std::nullopt);
  kernels::ResultsFile read;
  ASSERT_EQ(kernels::ReadResultsFile(path, read), std::nullopt);
  EXPECT_EQ(read.results.size(), 3u);
  EXPECT_EQ(read.device.name, "Synthetic GPU");
  EXPECT_EQ(read.measured_at, sweep.file().measured_at);
}

TEST(SweepResults, NothingToSaveIsAMessage) {
  SweepResults empty;
  EXPECT_NE(empty.Save(::testing::TempDir() + "empty.json"), std::nullopt);
  EXPECT_EQ(empty.Provenance(), "");
}

void ExpectRefusedAndKept(const std::string& bad_text, const char* bad_name, const char* needle) {
  SweepResults sweep;
  const std::string good = ::testing::TempDir() + "good.json";
  ASSERT_EQ(kernels::WriteResultsFile(CliFile("Good GPU"), good), std::nullopt);
  ASSERT_EQ(sweep.Load(good), std::nullopt);
  const std::string bad = WriteText(bad_name, bad_text);
  const std::optional<std::string> error = sweep.Load(bad);
  ASSERT_NE(error, std::nullopt) << bad_name;
  EXPECT_NE(error->find(bad_name), std::string::npos) << *error;
  EXPECT_NE(error->find(needle), std::string::npos) << *error;
  EXPECT_EQ(sweep.results().size(), 3u);  // The last good plot stays.
  EXPECT_EQ(sweep.loaded_from(), good);
  EXPECT_EQ(sweep.device().name, "Good GPU");
}

TEST(SweepResults, TruncatedJsonKeepsTheLastGoodResults) {
  const std::string text = kernels::ResultsToJson(CliFile("Bad GPU"));
  ExpectRefusedAndKept(text.substr(0, text.size() / 2), "truncated.json", "not valid JSON: parse error at line");
}

TEST(SweepResults, TruncatedCsvKeepsTheLastGoodResults) {
  std::string text = kernels::ResultsToCsv(CliFile("Bad GPU"));
  text = text.substr(0, text.rfind('\n', text.size() - 2) + 1);  // The last row is gone.
  ExpectRefusedAndKept(text, "truncated.csv", "truncated");
}

TEST(SweepResults, MalformedCsvKeepsTheLastGoodResults) {
  std::string text = kernels::ResultsToCsv(CliFile("Bad GPU"));
  text.replace(text.find("2147.48"), 7, "fast!!!");
  ExpectRefusedAndKept(text, "malformed.csv", "gflops");
}

TEST(SweepResults, ForeignFileKeepsTheLastGoodResults) {
  ExpectRefusedAndKept("{\"hello\": 1}", "foreign.json", "not a TileScope results file");
}

}  // namespace
}  // namespace kernels
