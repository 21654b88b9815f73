#include "kernels/sweep_results.h"

namespace kernels {

std::string SweepResults::Provenance() const {
  if (file_.results.empty() && !loaded()) return "";
  const std::string measured = "measured on " + file_.device.name + " at " + file_.measured_at;
  return loaded() ? "loaded from " + (shown_as_.empty() ? loaded_from_ : shown_as_) + ", " + measured
                  : measured + " (this session)";
}

void SweepResults::BeginRun(const kernels::DeviceInfo& device) {
  file_ = {device, kernels::NowIso8601(), {}};
  loaded_from_.clear();
  shown_as_.clear();
}

void SweepResults::Add(std::vector<kernels::BenchResult> fresh) {
  for (kernels::BenchResult& result : fresh) file_.results.push_back(std::move(result));
}

std::optional<std::string> SweepResults::Load(const std::string& path, const std::string& shown_as) {
  kernels::ResultsFile read;
  if (auto error = kernels::ReadResultsFile(path, read)) return error;
  file_ = std::move(read);
  loaded_from_ = path;
  shown_as_ = shown_as;
  return std::nullopt;
}

std::optional<std::string> SweepResults::Save(const std::string& path) const {
  if (file_.results.empty()) return std::string("nothing to save: no results yet");
  return kernels::WriteResultsFile(file_, path);
}

}  // namespace kernels
