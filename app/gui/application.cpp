#include "app/gui/application.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include "app/gui/about.h"
#include "app/gui/status_bar.h"
#include "app/gui/theme.h"

namespace gui {
namespace {

// Presentation text follows the window's height: a line of the 4×4 lesson's figures per
// kPresentationLines of it, never below what a room reads (24 px), nor so large a panel overflows.
constexpr float kPresentationLines = 30.0f;
constexpr float kMinPresentationFontSize = 24.0f;
constexpr float kMaxPresentationFontSize = 32.0f;
constexpr float kFontStep = 2.0f;
constexpr int kMaxFramesPerSecond = 60;  // a display's usual refresh

}  // namespace

Application::Application(cli::GuiOptions options, SettingsStore store, LoadedSettings loaded)
    : options_(std::move(options)),
      store_(std::move(store)),
      settings_(std::move(loaded.settings)),
      driver_(options_, {registry_, queue_, notifications_, [this](const ActionRequest& request) { Apply(request); },
                         [this](const std::string& action) {
                           return std::any_of(pages_.begin(), pages_.end(),
                                              [&](const PageEntry& p) { return p.page->HoldsScript(action); });
                         },
                         [this] { return AnyPageBusy(); }, [this] { return StateDump(); }}) {
  if (!loaded.warning.empty()) notifications_.Add(Severity::kWarning, loaded.warning);
  if (options_.width > 0) settings_.window_width = options_.width;
  if (options_.height > 0) settings_.window_height = options_.height;
  if (options_.presentation) settings_.presentation = true;
}

Application::~Application() = default;

void Application::AddPage(std::string slug, std::string title, std::unique_ptr<Page> page) {
  pages_.push_back({std::move(slug), std::move(title), std::move(page)});
}

void Application::RegisterPageActions() {
  for (size_t page = 0; page < pages_.size(); ++page) {
    std::vector<KeyChord> keys;
    if (page < 9) keys.push_back({GLFW_KEY_1 + static_cast<int>(page), GLFW_MOD_CONTROL});
    registry_.Add({"page-" + pages_[page].slug, "Show the " + pages_[page].title + " page",
                   "Switch the window to the " + pages_[page].title + " page (its own panels and layout).",
                   std::move(keys), [this, page](const std::string&) -> std::optional<std::string> {
                     ShowPage(page);
                     return std::nullopt;
                   }});
  }
}

void Application::ShowPage(size_t page) {
  active_page_ = page;
  settings_.panels["page"] = pages_[page].slug;
}

void Application::RestoreActivePage() {
  const nlohmann::json& saved = settings_.panels;
  if (!saved.is_object() || !saved.contains("page") || !saved["page"].is_string()) return;
  for (size_t page = 0; page < pages_.size(); ++page) {
    if (pages_[page].slug == saved["page"].get<std::string>()) active_page_ = page;
  }
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
                   SetPresentation(!presentation_);
                   return std::nullopt;
                 }});
  // In presentation the room reads one panel at a time: the keys zoom the focused one.
  registry_.Add({"zoom-in", "Larger text",
                 "Rebuild the fonts one step larger; in presentation, zoom the focused panel only.",
                 {{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL}},
                 [this](const std::string&) -> std::optional<std::string> {
                   if (presentation_ && !pages_.empty() &&
                       pages_[active_page_].page->Panels().ZoomFocused(kPanelZoomStep)) {
                     return std::nullopt;
                   }
                   ApplyFontSize(font_size_ + kFontStep);
                   return std::nullopt;
                 }});
  registry_.Add({"zoom-out", "Smaller text",
                 "Rebuild the fonts one step smaller; in presentation, zoom the focused panel out only.",
                 {{GLFW_KEY_MINUS, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL}},
                 [this](const std::string&) -> std::optional<std::string> {
                   if (presentation_ && !pages_.empty() &&
                       pages_[active_page_].page->Panels().ZoomFocused(1.0f / kPanelZoomStep)) {
                     return std::nullopt;
                   }
                   ApplyFontSize(font_size_ - kFontStep);
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
}

void Application::ApplyFontSize(float size) {
  pending_font_size_ = std::clamp(size, kMinFontSize, kMaxFontSize);
}

// A high-DPI screen (or the window moved to one) gets fonts, and with them every size the
// theme and the panels derive from the font, scaled by its content scale.
void Application::FollowContentScale() {
  const float scale = options_.content_scale > 0.0f ? options_.content_scale : window_->ContentScale();
  if (scale == content_scale_) return;
  content_scale_ = scale;
  if (pending_font_size_ == 0.0f) ApplyFontSize(font_size_);
}

void Application::SetPresentation(bool on) {
  presentation_ = on;
  reset_layout_ = true;  // Presentation mode has its own default layout (each page's slots).
  settings_.presentation = on;
  ApplyFontSize(on ? PresentationFontSize() : settings_.font_size);
}

float Application::PresentationFontSize() const {
  int width = 0;
  int height = 0;
  window_->Size(width, height);
  // Window sizes are in pixels on X11; fonts are the user's size times the content scale.
  const float lines_of = static_cast<float>(height) / content_scale_ / kPresentationLines;
  return std::clamp(lines_of, kMinPresentationFontSize, kMaxPresentationFontSize);
}

bool Application::OpenWindow() {
  std::string error;
  WindowOptions window_options;
  window_options.width = settings_.window_width;
  window_options.height = settings_.window_height;
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
  for (size_t page = 0; page < pages_.size(); ++page) {
    const size_t first = registry_.All().size();
    pages_[page].page->RegisterActions(registry_);
    for (size_t i = first; i < registry_.All().size(); ++i) page_of_action_[registry_.All()[i].name] = page;
  }
  RegisterPageActions();
  RestoreActivePage();
}

int Application::Run() {
  if (!OpenWindow()) return 1;
  RegisterActions();
  if (auto usage = driver_.Start()) return *usage;
  presentation_ = settings_.presentation;
  content_scale_ = options_.content_scale > 0.0f ? options_.content_scale : window_->ContentScale();
  ApplyFontSize(presentation_ ? PresentationFontSize() : settings_.font_size);
  while (!window_->ShouldClose()) {
    const auto frame_start = std::chrono::steady_clock::now();
    DrawFrame();
    ++frame_count_;
    const bool finished = driver_.FinishesWith(*window_, frame_count_);
    window_->Present();
    AnnounceReady();
    driver_.FramePresented(frame_count_);
    if (finished) break;
    if (driver_.Paced()) PaceFrame(frame_start);
  }
  driver_.WriteFinalOutputs(*window_, frame_count_);
  SaveSettings();
  return driver_.ExitStatus();
}

// Ready: a frame is on screen and shows what the command line asked for, so a test's real keys
// and clicks meet that view (a tour's --stop waits for its preparation first).
void Application::AnnounceReady() {
  if (ready_ || AnyPageOpening()) return;
  ready_ = true;
  std::cout << "tilescope: ready" << std::endl;
}

void Application::DrawFrame() {
  FollowContentScale();
  if (pending_font_size_ > 0.0f) {
    font_size_ = pending_font_size_;
    fonts_ = LoadFonts(font_size_ * content_scale_);
    if (!fonts_.warning.empty() && frame_count_ == 0) notifications_.Add(Severity::kWarning, fonts_.warning);
    if (!presentation_) settings_.font_size = font_size_;
    ApplyTheme(presentation_ ? ThemeKind::kHighContrast : ThemeKind::kNormal, fonts_.size);
    window_->RebuildFontTexture();
    pending_font_size_ = 0.0f;
    driver_.NoteLayoutChanged(frame_count_);
  }
  window_->BeginFrame();
  HandleKeys();
  driver_.AdvanceScript(frame_count_);
  ApplyQueuedActions();
  ImGui::PushFont(fonts_.text);
  DrawMenuBar();
  for (PageEntry& page : pages_) page.page->Update();
  if (!pages_.empty()) pages_[active_page_].page->Draw(MakeFrameContext());
  reset_layout_ = false;
  DrawStatusBar(notifications_);
  help_.Draw(registry_);
  about_.Draw(*window_);
  if (presentation_) {
    pointer_ring_.Draw(fonts_.size);
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
  const ImVec2 area_min(viewport->Pos.x, viewport->Pos.y + menu_bar_height_);
  const ImVec2 area_max(viewport->Pos.x + viewport->Size.x, viewport->Pos.y + viewport->Size.y - status_bar);
  ResetLayoutOnResize(ImVec2(area_max.x - area_min.x, area_max.y - area_min.y));
  last_area_min_ = area_min;
  return FrameContext{fonts_,        queue_,           notifications_, area_min, area_max, presentation_,
                      reset_layout_, driver_.Dumping(), driver_.region_screenshots()};
}

// The default layout is in fractions of the area: a new window size (a laptop plugged into a
// projector) lays the panels out again rather than leaving them off-screen or overlapping.
void Application::ResetLayoutOnResize(ImVec2 area_size) {
  const bool resized = area_size.x != last_area_size_.x || area_size.y != last_area_size_.y;
  if (resized && frame_count_ > 0) {
    reset_layout_ = true;
    if (presentation_ && pending_font_size_ == 0.0f) ApplyFontSize(PresentationFontSize());
  }
  last_area_size_ = area_size;
}

void Application::HandleKeys() {
  const bool typing = ImGui::GetIO().WantTextInput;
  for (const KeyEvent& key : window_->TakeKeyEvents()) {
    const Action* action = registry_.FindByKey(key.key, key.mods);
    // While a text field has focus its keys are text, except chords with Ctrl and F-keys.
    const bool text_key = !(key.mods & GLFW_MOD_CONTROL) && !(key.key >= GLFW_KEY_F1 && key.key <= GLFW_KEY_F25);
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
  if (auto owner = page_of_action_.find(request.name); owner != page_of_action_.end()) ShowPage(owner->second);
  if (auto error = action->run(request.argument)) {
    notifications_.Add(Severity::kError, *error);
    driver_.NoteRefusal(request);
  }
}

void Application::DrawMenuBar() {
  if (!ImGui::BeginMainMenuBar()) return;
  menu_bar_height_ = ImGui::GetWindowHeight();
  auto item = [this](const char* name) {
    const Action* action = registry_.Find(name);
    if (!action) return;
    const std::string shortcut = action->keys.empty() ? "" : ChordName(action->keys.front());
    if (ImGui::MenuItem(action->label.c_str(), shortcut.c_str())) queue_.Push(action->name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", action->description.c_str());
  };
  if (ImGui::BeginMenu("File")) {
    item("lesson-list");
    item("screenshot");
    item("copy-command");
    ImGui::Separator();
    item("quit");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Presentation mode", "F11", presentation_)) queue_.Push("presentation");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", registry_.Find("presentation")->description.c_str());
    item("zoom-in");
    item("zoom-out");
    item("reset-layout");
    if (!pages_.empty()) {
      ImGui::Separator();
      pages_[active_page_].page->Panels().DrawMenuItems(presentation_);
    }
    ImGui::EndMenu();
  }
  // A page's tour, when it has one (the lesson page): the same actions as its keys.
  if (registry_.Find("guide-next") && ImGui::BeginMenu("Guide")) {
    for (const char* name : {"lesson-list", "guide-next", "guide-prev", "guide-answer-field", "guide-lecturer",
                             "guide-reveal", "guide-leave"}) {
      item(name);
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    item("help");
    item("about");
    ImGui::EndMenu();
  }
  DrawPageTabs();
  ImGui::EndMainMenuBar();
}

// The pages as tabs in the menu bar: the active one highlighted and underlined (not by
// colour alone), each with its Ctrl+digit key in the tooltip.
void Application::DrawPageTabs() {
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
  ImGui::TextDisabled("|");
  for (size_t page = 0; page < pages_.size(); ++page) {
    const bool active = page == active_page_;
    const std::string label = pages_[page].title + "##page";
    const ImVec2 text = ImGui::CalcTextSize(pages_[page].title.c_str());
    if (ImGui::Selectable(label.c_str(), active, 0, text)) queue_.Push("page-" + pages_[page].slug);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Show the %s page (Ctrl+%zu)", pages_[page].title.c_str(), page + 1);
    }
    if (active) {
      const ImVec2 min = ImGui::GetItemRectMin();
      const ImVec2 max = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddLine(ImVec2(min.x, max.y - 1.0f), ImVec2(max.x, max.y - 1.0f),
                                          ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
    }
  }
}

// Where the swap does not wait for the display (Xvfb, a driver with vsync off) the window would
// redraw as fast as the cores allow and leave nothing to the workers behind it (a lesson's
// whole-run pass, a tour being prepared), which run a step below it in priority: a frame is
// then held to its share of kMaxFramesPerSecond. --bench-frames measures the unpaced rate.
void Application::PaceFrame(std::chrono::steady_clock::time_point frame_start) const {
  std::this_thread::sleep_until(frame_start + std::chrono::microseconds(1000000 / kMaxFramesPerSecond));
}

bool Application::AnyPageOpening() const {
  return std::any_of(pages_.begin(), pages_.end(), [](const PageEntry& p) { return p.page->Opening(); });
}

bool Application::AnyPageBusy() const {
  return std::any_of(pages_.begin(), pages_.end(), [](const PageEntry& p) { return p.page->Busy(); });
}

nlohmann::json Application::StateDump() const {
  int width = 0;
  int height = 0;
  window_->Size(width, height);
  nlohmann::json state;
  state["frames"] = frame_count_;
  state["window"] = {{"width", width}, {"height", height}};
  state["presentation"] = presentation_;
  state["font_size"] = fonts_.size;  // in pixels: the user's size × the content scale
  state["content_scale"] = content_scale_;
  state["builtin_font"] = fonts_.builtin_fallback;
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
  nlohmann::json& layout = state["layout"];
  layout["area"] = {last_area_min_.x, last_area_min_.y, last_area_min_.x + last_area_size_.x,
                    last_area_min_.y + last_area_size_.y};
  state["pages"] = nlohmann::json::array();
  for (const PageEntry& page : pages_) {
    state["pages"].push_back(page.slug);
    layout[page.slug + "_slots"] = page.page->Panels().Slots(last_area_min_, last_area_size_, presentation_);
    // Where each panel was drawn; the page adds what its panels show to the same entries.
    state[page.slug + "_panels"] = page.page->Panels().Placement(presentation_);
    page.page->DumpState(state);
  }
  if (!pages_.empty()) state["page"] = pages_[active_page_].slug;
  return state;
}

void Application::SaveSettings() {
  int width = 0;
  int height = 0;
  window_->Size(width, height);
  settings_.window_width = width;
  settings_.window_height = height;
  settings_.imgui_layout = ImGui::SaveIniSettingsToMemory();
  for (const PageEntry& page : pages_) page.page->SaveSettings(settings_);
  if (auto error = store_.Save(settings_)) std::cerr << "tilescope: " << *error << std::endl;
}

}  // namespace gui
