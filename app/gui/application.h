// application.h — the GUI's main loop: poll → apply queued actions → new frame → menu bar,
// workspaces, overlays → render. Owns the window, fonts, settings and the workspaces.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/fonts.h"
#include "app/gui/gui_options.h"
#include "app/gui/notifications.h"
#include "app/gui/settings_store.h"
#include "app/gui/window.h"
#include "app/gui/workspace.h"

namespace gui {

class Application {
 public:
  Application(GuiOptions options, SettingsStore store, LoadedSettings loaded);
  ~Application();
  // Returns the process exit status: 0, or 1 when no window could be opened.
  int Run();

  Settings& settings() { return settings_; }
  Notifications& notifications() { return notifications_; }
  void AddWorkspace(std::unique_ptr<Workspace> workspace);

 private:
  struct ScriptState {
    std::vector<ScriptStep> steps;
    size_t next = 0;
    int wait_frames = 0;
    bool Done() const { return next >= steps.size() && wait_frames == 0; }
  };

  void RegisterShellActions();
  void ApplyFontSize(float size);
  void SetPresentation(bool on);
  void HandleKeys();
  void AdvanceScript();
  void ApplyQueuedActions();
  void DrawFrame();
  void DrawMenuBar();
  void DrawStatusBar();
  void DrawAboutBox();
  void DrawHelpOverlay();
  bool AnyWorkspaceBusy() const;
  bool AutomatedRunFinished() const;
  void SaveScreenshot(const std::string& path);
  void SaveRegionScreenshots();
  void WriteStateDump(const std::string& path);
  nlohmann::json StateDump() const;
  void SaveSettings();
  void PrintBenchFigures() const;

  GuiOptions options_;
  SettingsStore store_;
  Settings settings_;
  Notifications notifications_;
  std::unique_ptr<Window> window_;
  std::vector<std::unique_ptr<Workspace>> workspaces_;
  ActionRegistry registry_;
  ActionQueue queue_;
  ScriptState script_;
  FontSet fonts_;
  float pending_font_size_ = 0.0f;  // Fonts are rebuilt between frames, never inside one.
  bool presentation_ = false;
  bool show_about_ = false;
  bool show_help_ = false;
  bool reset_layout_ = true;
  std::string pending_screenshot_;
  std::vector<RegionScreenshot> region_screenshots_;  // Asked for by workspaces while drawing.
  long frame_count_ = 0;
  std::chrono::steady_clock::time_point bench_start_;
  double bench_seconds_ = 0.0;
};

}  // namespace gui
