// sweep_results.h — the benchmark results the live panel shows and where they came from:
// this session's run on this machine's GPU, growing as the runner hands results over, or a
// file saved by the panel or by `tilescope bench --csv/--json`. One format for both
// (kernels/results_file.h), so a classroom without a GPU shows a run made elsewhere.
//
// Loading is all or nothing: a malformed or truncated file gives a message naming the
// problem and the results on screen stay as they were (the last good plot stays).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/results_file.h"

namespace kernels {

class SweepResults {
 public:
  const kernels::ResultsFile& file() const { return file_; }
  const std::vector<kernels::BenchResult>& results() const { return file_.results; }
  // The GPU the results were measured on: this machine's for a run, the file's for a load.
  const kernels::DeviceInfo& device() const { return file_.device; }
  bool empty() const { return file_.results.empty(); }
  bool loaded() const { return !loaded_from_.empty(); }
  const std::string& loaded_from() const { return loaded_from_; }

  // "loaded from FILE, measured on DEVICE at DATE", or "measured on DEVICE at DATE (this
  // session)"; "" before any result.
  std::string Provenance() const;

  // Starts a new run on `device`: clears the results and stamps the time.
  void BeginRun(const kernels::DeviceInfo& device);
  void Add(std::vector<kernels::BenchResult> fresh);
  // The run's device with the L2 bandwidth its runner measured (0: not measured).
  void SetMeasuredL2Bandwidth(double gbs) { file_.device.l2_bandwidth_gbs = gbs; }

  // Replaces the results with the file's, or returns why not and changes nothing. `shown_as`
  // names the file in the provenance line instead of its path (the run shipped with the app,
  // whose install path says nothing to a student).
  std::optional<std::string> Load(const std::string& path, const std::string& shown_as = "");
  // CSV or JSON by the extension; an error when there is nothing to save.
  std::optional<std::string> Save(const std::string& path) const;

 private:
  kernels::ResultsFile file_;
  std::string loaded_from_;
  std::string shown_as_;
};

}  // namespace kernels
