// live_page.h — the live GPU page: owns what the live panel shows (this machine's
// GPU, the runner and its sweep, the results and where they came from, the model's counts)
// and the named actions that change it: live-run, live-cancel, live-load,
// live-export-{csv,json,png}, live-choose-file, live-kernels, live-student, live-student-choose,
// live-sizes, live-reps, live-view, live-gflops-axis, live-model-size, live-ladder-size,
// live-rung-source, live-panel.
//
// A sweep in flight is the SweepRun's; each frame takes what it collected.
#pragma once
#include <optional>
#include <string>

#include "app/gui/page.h"
#include "app/pages/live_student.h"
#include "app/pages/sweep_run.h"
#include "app/panels/live_gpu_panel.h"
#include "kernels/global_reads.h"
#include "kernels/sweep_results.h"

namespace gui {

class LivePage : public Page {
 public:
  // `kernel_path`: the window's --kernel file ("" none), offered to the sweep with its flags.
  explicit LivePage(const std::string& kernel_path = "", const sim::KernelLessonOptions& kernel_options = {});
  void RegisterActions(ActionRegistry& registry) override;
  void Update() override;
  void Draw(const FrameContext& frame) override;
  PanelTable& Panels() override { return panels_; }
  const PanelTable& Panels() const override { return panels_; }
  void DumpState(nlohmann::json& state) const override;
  // A sweep in flight, or the model still counting the reads on show.
  bool Busy() const override;

 private:
  std::optional<std::string> Run(const std::string& save_to);
  std::optional<std::string> Cancel();
  std::optional<std::string> Load(const std::string& path);
  // Opens the file dialog at `folder` ("" the current folder), or closes it ("none").
  std::optional<std::string> ChooseFile(const std::string& folder);
  std::optional<std::string> ShowShippedRun();
  std::optional<std::string> Export(const std::string& path, const char* extension);
  std::optional<std::string> ExportPng(const std::string& path);
  std::optional<std::string> SetKernels(const std::string& list);
  std::optional<std::string> SetSizes(const std::string& spec);
  std::optional<std::string> SetReps(const std::string& text);
  std::optional<std::string> SetView(const std::string& name);
  std::optional<std::string> SetGflopsAxis(const std::string& name);
  std::optional<std::string> SetModelSize(const std::string& size);
  std::optional<std::string> SetLadderSize(const std::string& size);
  // `text` read as one size (1024, 512x256x128) that the results hold: `size` as the panel
  // names it, or what is wrong (not a size, or no result at it, with the sizes there are).
  std::optional<std::string> FindResultSize(const char* action, const std::string& text, std::string& size) const;
  // Opens a rung's source under the ladder (and the ladder view); "none" closes it.
  std::optional<std::string> SetRungSource(const std::string& name);
  void UpdateModelLink();
  // The ladder at its size, as the ladder view shows it, for --dump-state.
  void DumpLadder(nlohmann::json& live) const;
  // Shows the outcome in the panel and hands errors on to the status bar.
  std::optional<std::string> Report(std::optional<std::string> error, const std::string& success);

  const kernels::GpuStatus& gpu_;  // This machine's GPU, or why there is none.
  SweepRun sweep_run_;
  bool shown_ = false;  // drawn at least once
  bool presenting_ = false;  // presentation mode, as of the last frame: which open flag an action toggles
  kernels::SweepResults sweep_;
  kernels::GlobalReadsCounter reads_;
  panels::ModelLink model_link_;
  panels::LiveGpuPanel panel_;
  LiveStudent student_;  // after the panel: it offers --kernel's file in the panel's row
  PanelTable panels_;  // after the panel: its row draws it
};

}  // namespace gui
