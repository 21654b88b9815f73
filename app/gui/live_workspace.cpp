#include "app/gui/live_workspace.h"

#include <GLFW/glfw3.h>

#include <sstream>

#include "kernels/registry.h"

namespace gui {
namespace {

// kernels/ has no runner front end yet (no DeviceInfo, no ProbeGpu, no Runner in its public
// headers), so this build cannot reach a GPU; the panel says so and loading saved sweeps works.
constexpr const char* kNoRunnerReason = "this build has no GPU runner (kernels/ offers no runner API yet)";

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(list);
  while (std::getline(in, item, ',')) {
    const auto first = item.find_first_not_of(" \t");
    if (first != std::string::npos) items.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
  }
  return items;
}

bool EndsWith(const std::string& text, const char* end) {
  const std::string tail(end);
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

LiveWorkspace::LiveWorkspace() {
  device_.reason = kNoRunnerReason;
  panel_.ValidateSizes(device_);
}

void LiveWorkspace::RegisterActions(ActionRegistry& registry) {
  auto add = [&](const char* name, const char* label, const char* description, std::vector<KeyChord> keys,
                 std::function<std::optional<std::string>(const std::string&)> run) {
    registry.Add({name, label, description, std::move(keys), std::move(run)});
  };
  add("live-panel", "Live GPU panel", "Show or hide the live GPU panel.", {{GLFW_KEY_G, GLFW_MOD_CONTROL}},
      [this](const std::string&) -> std::optional<std::string> {
        panel_.open = !panel_.open;
        return std::nullopt;
      });
  add("live-run", "Run the sweep", "Time the chosen kernels at the chosen sizes on the GPU.",
      {{GLFW_KEY_R, GLFW_MOD_CONTROL}}, [this](const std::string&) { return Run(); });
  add("live-cancel", "Cancel the sweep", "Stop the sweep after the current launch.", {},
      [this](const std::string&) { return Report(std::nullopt, "no sweep is running"); });
  add("live-load", "Load results", "Show a saved sweep (CSV or JSON) in place of the current one.", {},
      [this](const std::string& path) { return Load(path); });
  add("live-export-csv", "Export results as CSV", "Save the sweep's results as CSV.", {},
      [this](const std::string& path) { return Export(path, ".csv"); });
  add("live-export-json", "Export results as JSON", "Save the sweep's results as JSON.", {},
      [this](const std::string& path) { return Export(path, ".json"); });
  add("live-export-png", "Export plot as PNG", "Save the plot as a PNG, as this frame draws it (after the frame's other actions).", {},
      [this](const std::string& path) { return ExportPng(path); });
  add("live-kernels", "Choose kernels", "Kernels to run: registry names, comma-separated (or none).", {},
      [this](const std::string& list) { return SetKernels(list); });
  add("live-sizes", "Choose sizes", "Sizes to run: 256,1024 or 256:4096 (powers of two) or MxNxK.", {},
      [this](const std::string& spec) { return SetSizes(spec); });
  add("live-reps", "Choose repetitions", "Timed launches per kernel and size.", {},
      [this](const std::string& text) { return SetReps(text); });
  add("live-view", "Plot or bars", "GFLOPS plot (plot) or % of cuBLAS bars (bars).", {},
      [this](const std::string& name) { return SetView(name); });
}

void LiveWorkspace::DrawViewMenu() {
  ImGui::Separator();
  ImGui::MenuItem("Live GPU panel", "Ctrl+G", &panel_.open);
}

void LiveWorkspace::Draw(const FrameContext& frame) {
  const panels::LiveSweepView view{device_, sweep_.results, source_, progress_, sweep_.device.fp32_peak_gflops};
  panel_.Draw(frame, view);
}

void LiveWorkspace::DumpState(nlohmann::json& state) const {
  nlohmann::json& live = state["live"];
  live["device"] = {{"available", device_.available}, {"reason", device_.reason}, {"name", device_.name}};
  live["results"] = sweep_.results.size();
  live["running"] = progress_.running;
  live["loaded_from"] = source_.loaded ? source_.file : "";
  live["measured_on"] = source_.loaded ? source_.device : "";
  live["measured_at"] = source_.loaded ? source_.date : "";
  panel_.DumpState(live);
}

std::optional<std::string> LiveWorkspace::Report(std::optional<std::string> error, const std::string& success) {
  panel_.status_is_error = error.has_value();
  panel_.status_message = error ? *error : success;
  return error;
}

std::optional<std::string> LiveWorkspace::Run() {
  if (panel_.kernels.empty()) return Report("choose at least one kernel", "");
  if (panel_.ValidateSizes(device_).empty()) return Report("sizes: " + panel_.sizes_message, "");
  if (!device_.available) return Report("cannot run: " + device_.reason, "");
  return Report("cannot run: " + std::string(kNoRunnerReason), "");
}

std::optional<std::string> LiveWorkspace::Load(const std::string& path) {
  if (path.empty()) return Report("live-load needs a file name (type it in the File field)", "");
  plot::SweepFile loaded;
  // On failure the sweep on screen stays as it was: a bad file never blanks a good plot.
  if (auto error = plot::ReadSweepFile(path, loaded)) return Report("not loaded: " + *error, "");
  sweep_ = std::move(loaded);
  source_ = {true, path, sweep_.device.name, sweep_.measured_at};
  panel_.file_path = path;
  return Report(std::nullopt, "loaded " + std::to_string(sweep_.results.size()) + " results from " + path);
}

std::optional<std::string> LiveWorkspace::Export(const std::string& path, const char* extension) {
  if (path.empty() || !EndsWith(path, extension)) {
    return Report(std::string("the file name must end in ") + extension, "");
  }
  if (sweep_.results.empty()) return Report("nothing to export: no results yet", "");
  return Report(plot::WriteSweepFile(sweep_, path), "saved " + std::to_string(sweep_.results.size()) + " results to " + path);
}

std::optional<std::string> LiveWorkspace::ExportPng(const std::string& path) {
  if (path.empty() || !EndsWith(path, ".png")) return Report("the file name must end in .png", "");
  if (!panel_.open) return Report("open the live GPU panel first: the PNG is the plot as drawn", "");
  panel_.pending_png = path;  // Cropped from this frame once it is rendered (FrameContext::region_screenshots).
  return Report(std::nullopt, "saving the plot to " + path);
}

std::optional<std::string> LiveWorkspace::SetKernels(const std::string& list) {
  std::vector<std::string> chosen;
  if (list != "none") {
    for (const std::string& name : SplitList(list)) {
      if (!kernels::FindKernel(name)) return Report("unknown kernel '" + name + "'", "");
      if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
    }
  }
  std::sort(chosen.begin(), chosen.end(), [](const std::string& a, const std::string& b) {
    return kernels::KernelIndex(*kernels::FindKernel(a)) < kernels::KernelIndex(*kernels::FindKernel(b));
  });
  panel_.kernels = std::move(chosen);
  return std::nullopt;
}

std::optional<std::string> LiveWorkspace::SetSizes(const std::string& spec) {
  panel_.sizes_text = spec;
  // The panel shows the problem beside the field; the status bar gets it too.
  if (panel_.ValidateSizes(device_).empty()) return "sizes: " + panel_.sizes_message;
  return std::nullopt;
}

std::optional<std::string> LiveWorkspace::SetReps(const std::string& text) {
  try {
    size_t used = 0;
    const int reps = std::stoi(text, &used);
    if (used != text.size() || reps < 1 || reps > kernels::kMaxReps) throw std::out_of_range("reps");
    panel_.reps = reps;
    return std::nullopt;
  } catch (const std::exception&) {
    return Report("repetitions must be a whole number from 1 to " + std::to_string(kernels::kMaxReps), "");
  }
}

std::optional<std::string> LiveWorkspace::SetView(const std::string& name) {
  if (name == "plot") {
    panel_.view = panels::LiveView::kPlot;
  } else if (name == "bars") {
    panel_.view = panels::LiveView::kBars;
  } else {
    return Report("live-view takes plot or bars, not '" + name + "'", "");
  }
  return std::nullopt;
}

}  // namespace gui
