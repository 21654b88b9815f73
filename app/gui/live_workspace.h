// live_workspace.h — the live GPU workspace: owns what the live panel shows (this machine's
// GPU, the sweep's results and where they came from) and the named actions that change it:
// live-run, live-cancel, live-load, live-export-{csv,json,png}, live-kernels, live-sizes,
// live-reps, live-view, live-panel.
#pragma once
#include <optional>
#include <string>

#include "app/gui/workspace.h"
#include "app/panels/live_gpu_panel.h"
#include "app/plot/sweep_file.h"

namespace gui {

class LiveWorkspace : public Workspace {
 public:
  LiveWorkspace();
  void RegisterActions(ActionRegistry& registry) override;
  void DrawViewMenu() override;
  void Draw(const FrameContext& frame) override;
  void DumpState(nlohmann::json& state) const override;

 private:
  std::optional<std::string> Run();
  std::optional<std::string> Load(const std::string& path);
  std::optional<std::string> Export(const std::string& path, const char* extension);
  std::optional<std::string> ExportPng(const std::string& path);
  std::optional<std::string> SetKernels(const std::string& list);
  std::optional<std::string> SetSizes(const std::string& spec);
  std::optional<std::string> SetReps(const std::string& text);
  std::optional<std::string> SetView(const std::string& name);
  // Shows the outcome in the panel and hands errors on to the status bar.
  std::optional<std::string> Report(std::optional<std::string> error, const std::string& success);

  panels::LiveGpuPanel panel_;
  plot::DeviceFacts device_;  // This machine's GPU, or why there is none.
  plot::SweepFile sweep_;     // The results on screen and the GPU they were measured on.
  panels::ResultsSource source_;
  panels::SweepProgress progress_;
};

}  // namespace gui
