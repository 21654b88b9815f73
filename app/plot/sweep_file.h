// sweep_file.h — a benchmark sweep saved to disk and read back, so a classroom without a
// GPU can still show a real run: the results, the GPU they were measured on and when.
//
// JSON: {"format": "tilescope-sweep", "version": 1, "device": {...}, "measured_at": ...,
// "results": [...]}. CSV: "# key: value" lines for the device and date, a header row, then
// one row per result. Reading checks everything and fails whole: a malformed or truncated
// file gives a message naming the line or key, and the caller keeps what it had.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"

namespace plot {

// A GPU's facts, or the plain reason there is none.
struct DeviceFacts {
  bool available = false;
  std::string reason;              // Why there is no device; "" when there is one.
  std::string name;
  std::string compute_capability;  // "9.0"
  int sms = 0;
  double clock_mhz = 0.0;
  double memory_bytes = 0.0;
  double fp32_peak_gflops = 0.0;  // SMs × FP32 lanes per SM × 2 × clock; 0 when unknown.
};

struct SweepFile {
  DeviceFacts device;
  std::string measured_at;  // ISO 8601 UTC, "2026-11-22T15:40:00Z".
  std::vector<kernels::BenchResult> results;
};

// The current time as measured_at writes it.
std::string NowIso8601();

// By extension: ".csv" or ".json" (any case); others are an error naming the file.
std::optional<std::string> WriteSweepFile(const SweepFile& sweep, const std::string& path);
std::optional<std::string> ReadSweepFile(const std::string& path, SweepFile& sweep);

// The formats as text, for the writers above and for tests.
std::string SweepToJson(const SweepFile& sweep);
std::string SweepToCsv(const SweepFile& sweep);
std::optional<std::string> SweepFromJson(const std::string& text, SweepFile& sweep);
std::optional<std::string> SweepFromCsv(const std::string& text, SweepFile& sweep);

}  // namespace plot
