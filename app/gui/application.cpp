#include "app/gui/application.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <iostream>

#include "app/gui/about.h"
#include "app/gui/browser_page.h"
#include "app/gui/frame_loop.h"
#include "app/gui/status_bar.h"

namespace gui {
namespace {

constexpr float kFontStep = 2.0f;
// Settings are looked at four times a second; a change is written once it has held still for
// kAutosaveQuiet (dragging a panel is one write, not one a frame), or after kAutosaveLongest
// of continuous change.
constexpr std::chrono::milliseconds kAutosaveCheck{250};
constexpr std::chrono::milliseconds kAutosaveQuiet{500};
constexpr std::chrono::milliseconds kAutosaveLongest{2000};

}  // namespace

Application::Application(cli::GuiOptions options, SettingsStore store, LoadedSettings loaded)
    : options_(std::move(options)),
      store_(std::move(store)),
      settings_(std::move(loaded.settings)),
      pages_(settings_),
      driver_(options_, {registry_, queue_, notifications_, [this](const ActionRequest& request) { Apply(request); },
                         [this](const std::string& action) { return pages_.HoldsScript(action); },
                         [this] { return pages_.Busy(); }, [this] { return StateDump(); }}),
      text_(options_.content_scale) {
  if (!loaded.warning.empty()) {
    notifications_.Add(Severity::kWarning, loaded.warning);
    browser_page::KeepSettings();  // a corrupt file went aside: the next visit must not meet it again
  }
  if (loaded.from_file && loaded.warning.empty()) autosave_.saved_text = SettingsKey();
  if (options_.width > 0) settings_.window_width = options_.width;
  if (options_.height > 0) settings_.window_height = options_.height;
  if (options_.presentation) settings_.presentation = true;
}

Application::~Application() = default;

void Application::AddPage(std::string slug, std::string title, std::unique_ptr<Page> page) {
  pages_.Add(std::move(slug), std::move(title), std::move(page));
}

void Application::RegisterShellActions() {
  registry_.Add({"quit", "Quit", "Close TileScope (settings and layout are saved).",
                 {{GLFW_KEY_Q, GLFW_MOD_CONTROL}},
                 [this](const std::string&) -> std::optional<std::string> {
                   window_->RequestClose();
                   return std::nullopt;
                 }});
  registry_.Add({"presentation", "Presentation mode",
                 "Large, crisp fonts and a high-contrast theme for a projector.",
                 {{GLFW_KEY_F11, 0}},
                 [this](const std::string&) -> std::optional<std::string> {
                   SetPresentation(!text_.presentation());
                   return std::nullopt;
                 }});
  // In presentation the room reads one panel at a time: the keys zoom the focused one.
  registry_.Add({"zoom-in", "Larger text",
                 "Rebuild the fonts one step larger; in presentation, zoom the focused panel only.",
                 {{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL}},
                 [this](const std::string&) -> std::optional<std::string> {
                   if (text_.presentation() && pages_.ZoomFocusedPanel(kPanelZoomStep)) return std::nullopt;
                   text_.Zoom(kFontStep);
                   return std::nullopt;
                 }});
  registry_.Add({"zoom-out", "Smaller text",
                 "Rebuild the fonts one step smaller; in presentation, zoom the focused panel out only.",
                 {{GLFW_KEY_MINUS, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL}},
                 [this](const std::string&) -> std::optional<std::string> {
                   if (text_.presentation() && pages_.ZoomFocusedPanel(1.0f / kPanelZoomStep)) return std::nullopt;
                   text_.Zoom(-kFontStep);
                   return std::nullopt;
                 }});
  registry_.Add({"help", "Keyboard shortcuts", "Show or hide the list of every key.",
                 {{GLFW_KEY_F1, 0}},
                 [this](const std::string&) -> std::optional<std::string> {
                   help_.open = !help_.open;
                   about_.open = false;  // One overlay at a time: ImGui 1.86 asserts on a window appearing over a modal.
                   return std::nullopt;
                 }});
  registry_.Add({"about", "About TileScope", "Versions of TileScope, ImGui, GLFW, OpenGL and CUDA.",
                 {},
                 [this](const std::string&) -> std::optional<std::string> {
                   about_.open = !about_.open;
                   help_.open = false;
                   return std::nullopt;
                 }});
  registry_.Add({"reset-layout", "Reset layout", "Put every panel back at its default place.",
                 {},
                 [this](const std::string&) -> std::optional<std::string> {
                   reset_layout_ = true;
                   return std::nullopt;
                 }});
  driver_.RegisterActions();
  browser_page::AddActions(registry_);
}

void Application::SetPresentation(bool on) {
  reset_layout_ = true;  // Presentation mode has its own default layout (each page's slots).
  settings_.presentation = on;
  text_.SetPresentation(*window_, on, settings_.font_size);
}

bool Application::OpenWindow() {
  std::string error;
  WindowOptions window_options;
  window_options.width = settings_.window_width;
  window_options.height = settings_.window_height;
  window_options.fit_work_area = options_.width <= 0 && options_.height <= 0;
  window_options.vsync = options_.bench_frames == 0;
  window_ = Window::Create(window_options, error);
  if (!window_) {
    std::cerr << "tilescope: " << error << std::endl;
    return false;
  }
  if (!settings_.imgui_layout.empty()) {
    ImGui::LoadIniSettingsFromMemory(settings_.imgui_layout.c_str(), settings_.imgui_layout.size());
    reset_layout_ = false;
  }
  return true;
}

void Application::RegisterActions() {
  RegisterShellActions();
  pages_.RegisterActions(registry_);
  for (const browser_page::KeyClash& clash : browser_page::KeyClashes()) registry_.Rebind(clash.desktop, clash.instead);
}

int Application::Run(std::unique_ptr<Application> application) {
  const std::shared_ptr<Application> app = std::move(application);
  if (auto status = app->Start()) return *status;
  return RunFrameLoop({[app] { return app->Frame(); }, [app] { return app->Finish(); }, app->driver_.Paced()});
}

std::optional<int> Application::Start() {
  if (!OpenWindow()) return 1;
  RegisterActions();
  if (auto usage = driver_.Start()) return *usage;
  browser_page::ListenOn(queue_, registry_);
  text_.Start(*window_, settings_.presentation, settings_.font_size);
  // The X server gone: all but the window's size is collected afresh (X cannot be asked now).
  stop_signals_ = std::make_unique<StopSignals>([this] {
    CollectSettings(/*ask_window=*/false);
    WriteSettings(SettingsKey());
  });
  return std::nullopt;
}

bool Application::Frame() {
  if (window_->ShouldClose() || StopSignals::Received() != 0) return false;
  DrawFrame();
  ++frame_count_;
  const bool finished = driver_.FinishesWith(*window_, frame_count_);
  window_->Present();
  AnnounceReady();
  driver_.FramePresented(frame_count_);
  AutosaveSettings();
  return !finished;
}

int Application::Finish() {
  driver_.WriteFinalOutputs(*window_, frame_count_);
  SaveSettings();
  stop_signals_.reset();
  if (const int signal = StopSignals::Received()) {
    std::cerr << "tilescope: stopped by signal " << signal << "; settings saved" << std::endl;
    return ExitStatusOfSignal(signal);
  }
  return driver_.ExitStatus();
}

// Ready: a frame is on screen and shows what the command line asked for, so a test's real keys
// and clicks meet that view (a tour's --stop waits for its preparation first).
void Application::AnnounceReady() {
  if (ready_ || pages_.Opening()) return;
  ready_ = true;
  std::cout << "tilescope: ready" << std::endl;
}

void Application::RebuildFontsIfAsked() {
  if (!text_.RebuildIfAsked(*window_)) return;
  const FontSet& fonts = text_.fonts();
  if (!fonts.warning.empty() && frame_count_ == 0) notifications_.Add(Severity::kWarning, fonts.warning);
  if (!text_.presentation()) settings_.font_size = text_.user_size();
  driver_.NoteLayoutChanged(frame_count_);
}

void Application::DrawFrame() {
  RebuildFontsIfAsked();
  window_->BeginFrame();
  HandleKeys();
  driver_.AdvanceScript(frame_count_);
  ApplyQueuedActions();
  ImGui::PushFont(text_.fonts().text);
  menu_bar_.Draw(registry_, queue_, pages_, text_.presentation());
  pages_.Update();
  pages_.DrawShown(MakeFrameContext());
  reset_layout_ = false;
  DrawStatusBar(notifications_);
  help_.Draw(registry_);
  about_.Draw(*window_);
  if (text_.presentation()) {
    pointer_ring_.Draw(text_.fonts().size);
  } else {
    pointer_ring_.Hide();
  }
  ImGui::PopFont();
  window_->EndFrame();
  driver_.WriteFrameOutputs(*window_);
}

// The area between the menu bar and the status bar. Measured from the viewport and the menu
// bar drawn this frame: ImGui updates the viewport's work area only at the next NewFrame, so
// on the first frame WorkPos would still lie under the menu bar.
FrameContext Application::MakeFrameContext() {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float status_bar = ImGui::GetFrameHeight();
  const ImVec2 area_min(viewport->Pos.x, viewport->Pos.y + menu_bar_.height());
  const ImVec2 area_max(viewport->Pos.x + viewport->Size.x, viewport->Pos.y + viewport->Size.y - status_bar);
  ResetLayoutOnResize(ImVec2(area_max.x - area_min.x, area_max.y - area_min.y));
  last_area_min_ = area_min;
  return FrameContext{text_.fonts(), queue_,           notifications_, area_min, area_max, text_.presentation(),
                      reset_layout_, driver_.Dumping(), driver_.region_screenshots()};
}

// The default layout is in fractions of the area: a new window size (a laptop plugged into a
// projector) lays the panels out again rather than leaving them off-screen or overlapping.
void Application::ResetLayoutOnResize(ImVec2 area_size) {
  const bool resized = area_size.x != last_area_size_.x || area_size.y != last_area_size_.y;
  if (resized && frame_count_ > 0) {
    reset_layout_ = true;
    text_.FollowWindowHeight(*window_);
  }
  last_area_size_ = area_size;
}

void Application::HandleKeys() {
  const bool typing = ImGui::GetIO().WantTextInput;
  for (const KeyEvent& key : window_->TakeKeyEvents()) {
    const Action* action = registry_.FindByKey(key.key, key.mods);
    // While a text field has focus its keys are text, except chords with Ctrl or Alt and F-keys.
    const bool text_key =
        !(key.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT)) && !(key.key >= GLFW_KEY_F1 && key.key <= GLFW_KEY_F25);
    if (action && !(typing && text_key)) queue_.Push(action->name);
  }
}

void Application::ApplyQueuedActions() {
  for (const ActionRequest& request : queue_.Take()) Apply(request);
}

void Application::Apply(const ActionRequest& request) {
  const Action* action = registry_.Find(request.name);
  if (!action) {
    notifications_.Add(Severity::kError, "unknown action \"" + request.name + "\"");
    return;
  }
  notifications_.Dismiss();  // the user acted: the message on show has been seen
  // A page's action (a key, a script line) shows its page, so its effect is in view.
  pages_.ShowOwnerOf(request.name);
  if (auto error = action->run(request.argument)) {
    notifications_.Add(Severity::kError, *error);
    driver_.NoteRefusal(request);
  }
}

nlohmann::json Application::StateDump() const {
  int width = 0;
  int height = 0;
  window_->Size(width, height);
  nlohmann::json state;
  state["frames"] = frame_count_;
  state["window"] = {{"width", width}, {"height", height}};
  state["presentation"] = text_.presentation();
  state["font_size"] = text_.fonts().size;  // in pixels: the user's size × the content scale
  state["content_scale"] = text_.content_scale();
  state["builtin_font"] = text_.fonts().builtin_fallback;
  state["help_visible"] = help_.open;
  state["pointer_ring"] = pointer_ring_.Describe();
  if (help_.open) state["help"] = help_.Describe();
  state["about_visible"] = about_.open;
  for (const AboutLine& line : CollectAboutLines(*window_)) state["about"][line.name] = line.value;
  const Notification* shown = notifications_.Current(Notifications::Now());
  state["status_bar"] = shown ? shown->text : "";
  state["notifications"] = nlohmann::json::array();
  for (const Notification& n : notifications_.All()) {
    state["notifications"].push_back({{"severity", SeverityName(n.severity)}, {"text", n.text}});
  }
  // The free area and, in pixels, each page's default slots for the current mode.
  state["layout"]["area"] = {last_area_min_.x, last_area_min_.y, last_area_min_.x + last_area_size_.x,
                             last_area_min_.y + last_area_size_.y};
  pages_.DumpState(state, last_area_min_, last_area_size_, text_.presentation());
  return state;
}

void Application::CollectSettings(bool ask_window) {
  if (ask_window) window_->Size(settings_.window_width, settings_.window_height);
  settings_.imgui_layout = ImGui::SaveIniSettingsToMemory();
  pages_.SaveSettings(settings_);
}

void Application::AutosaveSettings() {
  const auto now = std::chrono::steady_clock::now();
  if (now < autosave_.next_check) return;
  autosave_.next_check = now + kAutosaveCheck;
  CollectSettings();
  std::string text = SettingsKey();
  if (text == autosave_.saved_text) {
    autosave_.seen_text = std::move(text);  // changed and changed back: nothing to write
    return;
  }
  if (text != autosave_.seen_text) {
    if (autosave_.seen_text == autosave_.saved_text) autosave_.unsaved_since = now;
    autosave_.seen_text = text;
    autosave_.changed_at = now;
  }
  if (now - autosave_.changed_at < kAutosaveQuiet && now - autosave_.unsaved_since < kAutosaveLongest) return;
  WriteSettings(text);
}

std::string Application::SettingsKey() const {
  return ToJsonWithoutLesson(settings_).dump() + "\nlesson changes: " + std::to_string(settings_.last_lesson_changes);
}

void Application::SaveSettings() {
  CollectSettings();
  std::string text = SettingsKey();
  if (text != autosave_.saved_text) WriteSettings(text);
}

void Application::WriteSettings(const std::string& text) {
  std::string merged;
  if (auto error = store_.Save(settings_, &merged)) {
    if (*error != autosave_.last_error) notifications_.Add(Severity::kError, "settings not saved: " + *error);
    autosave_.last_error = *error;
    return;
  }
  autosave_.last_error.clear();
  browser_page::KeepSettings();
  autosave_.saved_text = text;
  autosave_.seen_text = text;
  if (!merged.empty()) notifications_.Add(Severity::kWarning, merged);
}

}  // namespace gui
