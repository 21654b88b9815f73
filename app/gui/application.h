// application.h — the GUI's main loop: poll → apply queued actions → new frame → menu bar,
// the active page, overlays → render. Owns the window, fonts, settings and the pages; what
// drives a run without a user (scripts, soak, benchmarks, screenshots, state dumps) is the
// ScriptedDriver's, called at fixed points of each frame.
// Each page ("Lesson", "Live GPU") chosen by the tabs in the menu bar or
// Ctrl+1, Ctrl+2…; only the active page's panels are drawn, so pages never overlap.
#pragma once
#include <imgui.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/about.h"
#include "app/gui/fonts.h"
#include "app/gui/help_overlay.h"
#include "app/cli/gui_options.h"
#include "app/gui/notifications.h"
#include "app/gui/pointer_ring.h"
#include "app/gui/settings_store.h"
#include "app/gui/window.h"
#include "app/gui/page.h"
#include "app/gui/scripted_driver.h"

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
  struct PageEntry {
    std::string slug;
    std::string title;
    std::unique_ptr<Page> page;
  };

  bool OpenWindow();
  // The shell's actions, each page's, and the page tabs'; the page saved at the last exit.
  void RegisterActions();
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
  void ApplyQueuedActions();
  void Apply(const ActionRequest& request);
  void DrawFrame();  // into the back buffer; Run() presents it
  void DrawMenuBar();
  void DrawPageTabs();
  bool AnyPageBusy() const;
  bool AnyPageOpening() const;
  // "tilescope: ready" once a frame shows what the command line asked for.
  void AnnounceReady();
  void PaceFrame(std::chrono::steady_clock::time_point frame_start) const;
  nlohmann::json StateDump() const;
  void SaveSettings();

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
  ScriptedDriver driver_;  // after what it is given: the registry, the queue, the notifications
  FontSet fonts_;
  float pending_font_size_ = 0.0f;  // Fonts are rebuilt between frames, never inside one.
  float font_size_ = 0.0f;          // In the user's units; fonts are this × the content scale.
  float content_scale_ = 1.0f;
  bool presentation_ = false;
  HelpOverlay help_;
  AboutBox about_;
  PointerRing pointer_ring_;  // presentation: the pointer a projector does not show
  bool reset_layout_ = true;
  long frame_count_ = 0;
  bool ready_ = false;  // "tilescope: ready" printed
};

}  // namespace gui
