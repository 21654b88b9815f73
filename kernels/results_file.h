// results_file.h — benchmark results saved as CSV or JSON and read back.
//
// The format is the live panel's "tilescope-sweep", version 1 (app/plot/sweep_file.h reads
// and writes the same files), so `tilescope bench --json run.json` loads in the GUI:
// JSON {"format": "tilescope-sweep", "version": 1, "device": {...}, "measured_at": ...,
// "results": [...]}; CSV: "# key: value" lines (format, device facts, measured_at,
// results: N), a header row, then one row per result. Readers check everything and fail
// whole with a message naming the line or result: a truncated file is never half-read.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench.h"
#include "kernels/device.h"

namespace kernels {

struct ResultsFile {
  DeviceInfo device;        // name, cc, SMs, clock, memory, FP32 peak and a measured L2 bandwidth are stored
  std::string measured_at;  // ISO 8601 UTC, "2026-11-22T15:40:00Z"
  std::vector<BenchResult> results;
};

// The current time as measured_at stores it.
std::string NowIso8601();

std::string ResultsToJson(const ResultsFile& file);
std::string ResultsToCsv(const ResultsFile& file);
std::optional<std::string> ResultsFromJson(const std::string& text, ResultsFile& file);
std::optional<std::string> ResultsFromCsv(const std::string& text, ResultsFile& file);

// The largest results file read: a full default sweep saves about 20 KiB.
constexpr std::uint64_t kMaxResultsFileBytes = 64ull << 20;

// By the path's extension, .csv or .json (any case); the error names the file. Reading
// goes through sim::ReadInputFile (folders, limit), writing through sim::AtomicFile.
std::optional<std::string> WriteResultsFile(const ResultsFile& file, const std::string& path);
std::optional<std::string> ReadResultsFile(const std::string& path, ResultsFile& file);

}  // namespace kernels
