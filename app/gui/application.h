// application.h — the GUI's main loop: poll → apply queued actions → new frame → menu bar,
// the active page, overlays → render. Owns the window, fonts, settings and the pages.
// Each page ("Lesson", "Live GPU") chosen by the tabs in the menu bar or
// Ctrl+1, Ctrl+2…; only the active page's panels are drawn, so pages never overlap.
#pragma once
#include <imgui.h>

#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/fonts.h"
#include "app/cli/gui_options.h"
#include "app/gui/notifications.h"
#include "app/gui/settings_store.h"
#include "app/gui/text_item.h"
#include "app/gui/window.h"
#include "app/gui/page.h"

namespace gui {

class Application {
 public:
  Application(cli::GuiOptions options, SettingsStore store, LoadedSettings loaded);
  ~Application();
  // Returns the process exit status: 0, or 1 when no window could be opened.
  int Run();

  Settings& settings() { return settings_; }
  Notifications& notifications() { return notifications_; }
  // Adds a page: `slug` names it in actions ("page-<slug>"), settings and --dump-state.
  void AddPage(std::string slug, std::string title, std::unique_ptr<Page> page);

 private:
  struct ScriptState {
    std::vector<ScriptStep> steps;
    size_t next = 0;
    int wait_frames = 0;
    bool Done() const { return next >= steps.size() && wait_frames == 0; }
  };

  struct PageEntry {
    std::string slug;
    std::string title;
    std::unique_ptr<Page> page;
  };

  void RegisterShellActions();
  void RegisterPageActions();
  void ShowPage(size_t page);
  void RestoreActivePage();
  void ResetLayoutOnResize(ImVec2 area_size);
  FrameContext MakeFrameContext();
  void ApplyFontSize(float size);
  void FollowContentScale();
  float PresentationFontSize() const;
  void SetPresentation(bool on);
  void HandleKeys();
  void AdvanceScript();
  void ApplyQueuedActions();
  void Apply(const ActionRequest& request);
  void DrawFrame();  // into the back buffer; Run() presents it
  void DrawMenuBar();
  void DrawPageTabs();
  void DrawStatusBar();
  void DrawMessageLog() const;
  void DrawAboutBox();
  void DrawHelpOverlay();
  bool AnyPageBusy() const;
  bool AnyPageOpening() const;
  void PaceFrame(std::chrono::steady_clock::time_point frame_start) const;
  bool AutomatedRunFinished() const;
  bool SaveScreenshot(const std::string& path);  // false (and a message) when it failed
  void SaveRegionScreenshots();
  void WriteStateDump(const std::string& path);
  nlohmann::json StateDump() const;
  void SaveSettings();
  void PrintBenchFigures() const;

  cli::GuiOptions options_;
  SettingsStore store_;
  Settings settings_;
  Notifications notifications_;
  std::unique_ptr<Window> window_;
  std::vector<PageEntry> pages_;
  size_t active_page_ = 0;
  std::map<std::string, size_t> page_of_action_;  // Running a page's action shows that page.
  float menu_bar_height_ = 0.0f;
  ImVec2 last_area_min_{0.0f, 0.0f};
  ImVec2 last_area_size_{0.0f, 0.0f};
  ActionRegistry registry_;
  ActionQueue queue_;
  ScriptState script_;
  FontSet fonts_;
  float pending_font_size_ = 0.0f;  // Fonts are rebuilt between frames, never inside one.
  float font_size_ = 0.0f;          // In the user's units; fonts are this × the content scale.
  float content_scale_ = 1.0f;
  std::string pending_dump_;        // --dump-state's JSON, written once this frame is drawn
  bool presentation_ = false;
  bool show_about_ = false;
  bool show_help_ = false;
  std::array<float, 4> help_rect_{};    // where the F1 list was drawn (min x, min y, max x, max y)
  std::vector<std::string> help_keys_;  // its key column, as drawn
  TextCount help_text_;                 // its text, counted as a panel's is
  bool reset_layout_ = true;
  std::string pending_screenshot_;
  std::vector<RegionScreenshot> region_screenshots_;  // Asked for by pages while drawing.
  long frame_count_ = 0;
  bool ready_ = false;  // "tilescope: ready" printed
  long layout_changed_at_frame_ = 0;  // frames drawn before a scripted step or a new font size last changed what is laid out
  std::chrono::steady_clock::time_point bench_start_;
  double bench_seconds_ = 0.0;
  // CPU seconds of the window's thread over the same frames: the frame rate depends on what
  // else the cores run, this much less (--bench-frames prints both).
  double bench_cpu_start_ = 0.0;
  double bench_cpu_seconds_ = 0.0;
  long scripted_refusals_ = 0;  // --actions steps whose action refused its argument or could not run
  std::string first_refused_;
  bool output_failed_ = false;  // a --screenshot or state dump could not be written: Run() exits non-zero
  // --soak: the script runs again each time it ends, until the time is up; the pass under way
  // then finishes, so every figure is taken at the same point of the script: its end, with
  // background work done. A pass's end prints resident memory and what malloc holds in use,
  // which tells a leak (in use grows pass after pass) from the allocator keeping freed pages.
  struct SoakMemory {
    std::uint64_t resident = 0;
    std::uint64_t resident_files = 0;  // of it, pages of mapped files (code, fonts, drivers)
    std::uint64_t heap_in_use = 0;
    std::uint64_t heap_held = 0;
  };
  static SoakMemory MeasureMemory();
  struct SoakState {
    std::chrono::steady_clock::time_point start;
    long passes = 0;
    bool finished = false;
    SoakMemory first_frame;
    SoakMemory first_pass;
    SoakMemory last_pass;
  } soak_;
  bool Soaking() const { return options_.soak_seconds > 0; }
  double SoakSeconds() const;
  void EndSoakPass();
  void PrintSoakFigures() const;
};

}  // namespace gui
