// application.h — the GUI's main loop: poll → apply queued actions → new frame → menu bar,
// the active page, overlays → render. Owns the window, settings, the shell's actions and the
// parts it runs: the pages (PageSet), the text's size (TextSizing), the menu bar (MenuBar);
// what drives a run without a user (scripts, soak, benchmarks, screenshots, state dumps) is the
// ScriptedDriver's, called at fixed points of each frame.
#pragma once
#include <imgui.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "app/gui/actions.h"
#include "app/gui/about.h"
#include "app/gui/help_overlay.h"
#include "app/cli/gui_options.h"
#include "app/gui/menu_bar.h"
#include "app/gui/notifications.h"
#include "app/gui/page_set.h"
#include "app/gui/pointer_ring.h"
#include "app/gui/settings_store.h"
#include "app/gui/window.h"
#include "app/gui/scripted_driver.h"
#include "app/gui/stop_signals.h"
#include "app/gui/text_sizing.h"

namespace gui {

class Application {
 public:
  Application(cli::GuiOptions options, SettingsStore store, LoadedSettings loaded);
  ~Application();
  // Opens the window and runs it until it closes. The frame loop owns the application: in a
  // browser it outlives this call, which returns only when the window could not open
  // (frame_loop.h). Returns the process exit status: 0, or 1 when no window could be opened.
  static int Run(std::unique_ptr<Application> application);

  Settings& settings() { return settings_; }
  Notifications& notifications() { return notifications_; }
  // Adds a page: `slug` names it in actions ("page-<slug>"), settings and --dump-state.
  void AddPage(std::string slug, std::string title, std::unique_ptr<Page> page);

 private:
  bool OpenWindow();
  // The shell's actions, then each page's and the page tabs'.
  void RegisterActions();
  void RegisterShellActions();
  void ResetLayoutOnResize(ImVec2 area_size);
  FrameContext MakeFrameContext();
  void SetPresentation(bool on);
  void RebuildFontsIfAsked();
  void HandleKeys();
  void ApplyQueuedActions();
  void Apply(const ActionRequest& request);
  std::optional<int> Start();  // before the first frame: an exit status when the run cannot start
  bool Frame();  // draws and presents one frame; false once the run is over
  int Finish();  // after the last frame: the final outputs and settings; the exit status
  void DrawFrame();  // into the back buffer; Frame() presents it
  // "tilescope: ready" once a frame shows what the command line asked for.
  void AnnounceReady();
  nlohmann::json StateDump() const;
  // The window's settings as they are now: ImGui's layout, each page's and, unless the X
  // server is gone (`ask_window` false: the size collected last stays), the window's size.
  void CollectSettings(bool ask_window = true);
  // Saved when they change (debounced), so a signal, a crash or a lost X server costs at most
  // the last moment's changes; at exit, whatever changed.
  void AutosaveSettings();
  void SaveSettings();
  // The settings as autosave compares them: the last lesson by its change count, not its text.
  std::string SettingsKey() const;
  void WriteSettings(const std::string& text);

  cli::GuiOptions options_;
  SettingsStore store_;
  Settings settings_;
  Notifications notifications_;
  std::unique_ptr<Window> window_;
  PageSet pages_;  // after the settings it keeps the shown page in
  MenuBar menu_bar_;
  ImVec2 last_area_min_{0.0f, 0.0f};
  ImVec2 last_area_size_{0.0f, 0.0f};
  ActionRegistry registry_;
  ActionQueue queue_;
  ScriptedDriver driver_;  // after what it is given: the registry, the queue, the notifications
  TextSizing text_;
  HelpOverlay help_;
  AboutBox about_;
  PointerRing pointer_ring_;  // presentation: the pointer a projector does not show
  std::unique_ptr<StopSignals> stop_signals_;  // from the first frame to the last
  bool reset_layout_ = true;
  long frame_count_ = 0;
  bool ready_ = false;  // "tilescope: ready" printed
  struct Autosave {
    std::string saved_text;   // the settings as last written (or read), as SettingsKey() gives them
    std::string seen_text;    // as last collected
    std::chrono::steady_clock::time_point next_check;
    std::chrono::steady_clock::time_point changed_at;    // when seen_text last changed
    std::chrono::steady_clock::time_point unsaved_since;  // the first change not yet written
    std::string last_error;   // said once, not at every attempt
  };
  Autosave autosave_;
};

}  // namespace gui
