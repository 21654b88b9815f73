// page.h — what the shell asks of a page (a group of panels that share one source of truth:
// the lesson's model, the GPU runner). The application owns the pages and calls them in the
// main loop's order: actions first, then drawing; it never reaches into their panels. The
// pages themselves live in app/pages/.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "app/gui/actions.h"
#include "app/gui/frame_context.h"
#include "app/gui/panel_window.h"
#include "app/gui/settings_store.h"

namespace gui {

class Page {
 public:
  virtual ~Page() = default;
  // Adds this page's actions (and their keys) to the registry, once at start-up.
  virtual void RegisterActions(ActionRegistry& registry) = 0;
  // Once a frame for every page, shown or not: takes what background work finished, so a
  // page's work completes while another page is on screen.
  virtual void Update() {}
  // The shown page only: steps what plays, then draws its panels.
  virtual void Draw(const FrameContext& frame) = 0;
  // The page's panels: the View menu, the default layout and --dump-state read them.
  virtual PanelTable& Panels() = 0;
  virtual const PanelTable& Panels() const = 0;
  // What the panels show, for --dump-state and GUI tests.
  virtual void DumpState(nlohmann::json& state) const = 0;
  // True while a background job (GPU sweep, seed sweep) runs: automated runs wait for it.
  virtual bool Busy() const { return false; }
  // True while a script's next action must wait for this page, as a user would wait: a lesson
  // being opened is not there yet for the actions after it. `action` is the action due next
  // (the one that stops the wait passes).
  virtual bool HoldsScript(const std::string& /*action*/) const { return false; }
  // True while what the command line asked this page to open is not on screen yet (a lesson
  // whose tour is being prepared before its --stop/--step apply): the app is not ready.
  virtual bool Opening() const { return false; }
  virtual void SaveSettings(Settings& /*settings*/) const {}
};

}  // namespace gui
