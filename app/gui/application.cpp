#include "app/gui/application.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <thread>
#include <fstream>
#include <iostream>

#include "app/gui/about.h"
#include "app/gui/palette.h"
#include "app/gui/screenshot.h"
#include "app/gui/theme.h"
#include "sim/io/atomic_file.h"
#include "sim/io/cpu_time.h"

namespace gui {
namespace {

// Presentation text follows the window's height: a line of the 4×4 lesson's figures per
// kPresentationLines of it, never below what a room reads (24 px), nor so large a panel overflows.
constexpr float kPresentationLines = 30.0f;
constexpr float kMinPresentationFontSize = 24.0f;
constexpr float kMaxPresentationFontSize = 32.0f;
constexpr float kFontStep = 2.0f;
constexpr int kMinFramesForScreenshot = 3;
// Frames a change needs to be laid out before an automated run ends on it: a window a scripted
// step opens, or text in a new font size, is measured in its first frame (ImGui's auto-size),
// sized in the next and its wrapped text final in the third. A step held back by a page (a
// tour still being prepared) can come on a run's last frame otherwise.
constexpr long kFramesToSettle = 3;
constexpr int kMaxFramesPerSecond = 60;  // a display's usual refresh
// Exit statuses, as the command line's: a bad option or script is a usage error; an output
// the run was asked for (a screenshot, a state dump) that could not be written is a failure,
// and so is a scripted step its action refused.
constexpr int kExitOutputFailed = 1;
constexpr int kExitActionRefused = 1;
constexpr int kExitUsage = 2;
constexpr double kBytesPerMiB = 1024.0 * 1024.0;
constexpr float kHelpWidthFonts = 60.0f;  // the F1 list's width where the window allows, in font heights

std::string TimestampedName(const char* prefix, const char* extension) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return std::string(prefix) + stamp + extension;
}

}  // namespace

// Resident memory from /proc/self/statm (pages: total, resident, file-backed resident), and
// malloc's own figures over every arena: bytes handed out and not had back (in use), and
// bytes it holds from the system, freed or not. In use growing pass after pass is a leak;
// resident moving while in use stays put is the allocator or a library keeping pages.
Application::SoakMemory Application::MeasureMemory() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t total_pages = 0;
  std::uint64_t resident_pages = 0;
  std::uint64_t file_pages = 0;
  statm >> total_pages >> resident_pages >> file_pages;
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  const struct mallinfo2 info = mallinfo2();
  return {resident_pages * page, file_pages * page, info.uordblks + info.hblkhd, info.arena + info.hblkhd};
}

Application::Application(cli::GuiOptions options, SettingsStore store, LoadedSettings loaded)
    : options_(std::move(options)), store_(std::move(store)), settings_(std::move(loaded.settings)) {
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
  registry_.Add({"zoom-in", "Larger text", "Rebuild the fonts one step larger.",
                 {{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL}},
                 [this](const std::string&) -> std::optional<std::string> {
                   ApplyFontSize(font_size_ + kFontStep);
                   return std::nullopt;
                 }});
  registry_.Add({"zoom-out", "Smaller text", "Rebuild the fonts one step smaller.",
                 {{GLFW_KEY_MINUS, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL}},
                 [this](const std::string&) -> std::optional<std::string> {
                   ApplyFontSize(font_size_ - kFontStep);
                   return std::nullopt;
                 }});
  registry_.Add({"help", "Keyboard shortcuts", "Show or hide the list of every key.",
                 {{GLFW_KEY_F1, 0}},
                 [this](const std::string&) -> std::optional<std::string> {
                   show_help_ = !show_help_;
                   show_about_ = false;  // One overlay at a time: ImGui 1.86 asserts on a window appearing over a modal.
                   return std::nullopt;
                 }});
  registry_.Add({"about", "About TileScope", "Versions of TileScope, ImGui, GLFW, OpenGL and CUDA.",
                 {},
                 [this](const std::string&) -> std::optional<std::string> {
                   show_about_ = !show_about_;
                   show_help_ = false;
                   return std::nullopt;
                 }});
  registry_.Add({"reset-layout", "Reset layout", "Put every panel back at its default place.",
                 {},
                 [this](const std::string&) -> std::optional<std::string> {
                   reset_layout_ = true;
                   return std::nullopt;
                 }});
  registry_.Add({"dump-state", "Write the state dump",
                 "Write what the panels show as JSON to the path given, once this frame is drawn (as --dump-state "
                 "does on exit): one scripted run can record several states.",
                 {},
                 [this](const std::string& path) -> std::optional<std::string> {
                   if (path.empty()) return std::string("dump-state wants a file path");
                   pending_dump_ = path;
                   return std::nullopt;
                 }});
  registry_.Add({"screenshot", "Save screenshot",
                 "Save the window as a PNG: in the pictures folder (XDG_PICTURES_DIR, else ~/Pictures, else home) "
                 "unless a path is given; the status bar names the file.",
                 {{GLFW_KEY_P, GLFW_MOD_CONTROL}},
                 [this](const std::string& path) -> std::optional<std::string> {
                   pending_screenshot_ =
                       path.empty() ? ScreenshotFolder() + "/" + TimestampedName("tilescope-", ".png") : path;
                   return std::nullopt;
                 }});
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

int Application::Run() {
  std::string error;
  WindowOptions window_options;
  window_options.width = settings_.window_width;
  window_options.height = settings_.window_height;
  window_options.vsync = options_.bench_frames == 0;
  window_ = Window::Create(window_options, error);
  if (!window_) {
    std::cerr << "tilescope: " << error << std::endl;
    return 1;
  }
  if (!settings_.imgui_layout.empty()) {
    ImGui::LoadIniSettingsFromMemory(settings_.imgui_layout.c_str(), settings_.imgui_layout.size());
    reset_layout_ = false;
  }
  RegisterShellActions();
  for (size_t page = 0; page < pages_.size(); ++page) {
    const size_t first = registry_.All().size();
    pages_[page].page->RegisterActions(registry_);
    for (size_t i = first; i < registry_.All().size(); ++i) page_of_action_[registry_.All()[i].name] = page;
  }
  RegisterPageActions();
  RestoreActivePage();
  if (auto script_error = ParseActionScript(options_.actions, script_.steps)) {
    std::cerr << "tilescope: " << *script_error << std::endl;
    return kExitUsage;
  }
  // A misspelt name is found before the first frame: a scripted run that would skip it and
  // still exit 0 would report success for work it never did.
  for (const ScriptStep& step : script_.steps) {
    if (step.name != "wait" && !registry_.Find(step.name)) {
      std::cerr << "tilescope: --actions: unknown action \"" << step.name << "\" (F1 in the app lists them)"
                << std::endl;
      return kExitUsage;
    }
  }
  // A soak ends at the end of a pass: a script without a step would never end one.
  if (Soaking() && script_.steps.empty()) {
    std::cerr << "tilescope: --soak: the --actions script has no step to repeat" << std::endl;
    return kExitUsage;
  }
  presentation_ = settings_.presentation;
  content_scale_ = options_.content_scale > 0.0f ? options_.content_scale : window_->ContentScale();
  ApplyFontSize(presentation_ ? PresentationFontSize() : settings_.font_size);

  bench_start_ = std::chrono::steady_clock::now();
  bench_cpu_start_ = sim::ThreadCpuSeconds();
  while (!window_->ShouldClose()) {
    const auto frame_start = std::chrono::steady_clock::now();
    DrawFrame();
    ++frame_count_;
    const bool finished = AutomatedRunFinished();
    // Read before the swap: after it, a driver may hand back an older buffer (NVIDIA's does).
    if (finished && !options_.screenshot.empty() && !SaveScreenshot(options_.screenshot)) output_failed_ = true;
    window_->Present();
    // Ready: a frame is on screen and shows what the command line asked for, so a test's real
    // keys and clicks meet that view (a tour's --stop waits for its preparation first).
    if (!ready_ && !AnyPageOpening()) {
      ready_ = true;
      std::cout << "tilescope: ready" << std::endl;
    }
    if (frame_count_ == 1 && Soaking()) {
      soak_.start = std::chrono::steady_clock::now();
      soak_.first_frame = MeasureMemory();
    }
    if (finished) break;
    PaceFrame(frame_start);
  }
  bench_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - bench_start_).count();
  bench_cpu_seconds_ = sim::ThreadCpuSeconds() - bench_cpu_start_;
  if (!options_.dump_state.empty()) WriteStateDump(options_.dump_state);
  if (options_.bench_frames > 0) PrintBenchFigures();
  if (Soaking()) PrintSoakFigures();
  SaveSettings();
  // The window shows a refusal and goes on, as for a user; a script's run still must not
  // report success for a step it did not do.
  if (scripted_refusals_ > 0) {
    std::cerr << "tilescope: --actions: " << scripted_refusals_ << " scripted action"
              << (scripted_refusals_ == 1 ? " was" : "s were") << " refused, the first \"" << first_refused_ << "\""
              << std::endl;
    return kExitActionRefused;
  }
  return output_failed_ ? kExitOutputFailed : 0;
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
    layout_changed_at_frame_ = frame_count_;
  }
  window_->BeginFrame();
  HandleKeys();
  AdvanceScript();
  if (options_.bench_frames > 0 && registry_.Find("bench-step")) queue_.Push("bench-step");
  ApplyQueuedActions();
  ImGui::PushFont(fonts_.text);
  DrawMenuBar();
  for (PageEntry& page : pages_) page.page->Update();
  if (!pages_.empty()) pages_[active_page_].page->Draw(MakeFrameContext());
  reset_layout_ = false;
  DrawStatusBar();
  DrawHelpOverlay();
  DrawAboutBox();
  ImGui::PopFont();
  window_->EndFrame();
  SaveRegionScreenshots();
  if (!pending_screenshot_.empty()) {
    SaveScreenshot(pending_screenshot_);
    pending_screenshot_.clear();
  }
  if (!pending_dump_.empty()) {
    WriteStateDump(pending_dump_);
    pending_dump_.clear();
  }
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
  // Any frame may be the last of a run that dumps its state on exit.
  const bool dumping = !pending_dump_.empty() || !options_.dump_state.empty();
  return FrameContext{fonts_, queue_, notifications_, area_min, area_max, presentation_, reset_layout_, dumping,
                      &region_screenshots_};
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

void Application::AdvanceScript() {
  // A soak plays its script again once a pass has ended and its background work is done, so
  // each pass starts from the same state.
  if (Soaking() && !soak_.finished && script_.Done() && !script_.steps.empty() && !AnyPageBusy()) EndSoakPass();
  if (script_.wait_frames > 0) {
    --script_.wait_frames;
    return;
  }
  while (script_.next < script_.steps.size()) {
    const ScriptStep& step = script_.steps[script_.next];
    if (step.name == "wait") {
      ++script_.next;
      script_.wait_frames = std::stoi(step.argument);
      return;
    }
    if (std::any_of(pages_.begin(), pages_.end(), [&](const PageEntry& p) { return p.page->HoldsScript(step.name); })) {
      return;  // again next frame; the window draws meanwhile
    }
    ++script_.next;
    layout_changed_at_frame_ = frame_count_;
    // Applied here, one by one, so the hold above sees what each step started (a lesson
    // opening) before the next one runs.
    Apply({step.name, step.argument, true});
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
    if (request.scripted && scripted_refusals_++ == 0) {
      first_refused_ = request.argument.empty() ? request.name : request.name + " " + request.argument;
    }
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
    for (const char* name : {"guide-next", "guide-prev", "guide-answer-field", "guide-lecturer", "guide-leave"}) {
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

void Application::DrawStatusBar() {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float height = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x, viewport->WorkPos.y + viewport->WorkSize.y - height));
  ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0.0f));
  if (ImGui::Begin("##status", nullptr, flags)) {
    ImGui::AlignTextToFramePadding();
    if (const Notification* latest = notifications_.Current(Notifications::Now())) {
      const bool problem = latest->severity != Severity::kInfo;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(problem ? palette::kOrange : palette::kSkyBlue), "%s %s",
                         problem ? palette::kGlyphWarning : "\u2139", latest->text.c_str());
    } else {
      ImGui::TextDisabled("F1: keyboard shortcuts%s", notifications_.All().empty() ? "" : " \u00b7 hover here: messages");
    }
    if (ImGui::IsWindowHovered()) DrawMessageLog();
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

// The last messages, newest first: one that has left the status bar can still be read.
void Application::DrawMessageLog() const {
  constexpr std::size_t kShown = 12;
  const std::vector<Notification>& all = notifications_.All();
  if (all.empty()) return;
  ImGui::BeginTooltip();
  for (std::size_t i = all.size(); i > 0 && all.size() - i < kShown; --i) {
    const Notification& n = all[i - 1];
    const bool problem = n.severity != Severity::kInfo;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(problem ? palette::kOrange : palette::kSkyBlue), "%s %s",
                       problem ? palette::kGlyphWarning : "\u2139", n.text.c_str());
  }
  ImGui::EndTooltip();
}

void Application::DrawAboutBox() {
  if (show_about_) ImGui::OpenPopup("About TileScope");
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                 viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal("About TileScope", &show_about_, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted("Step through shared-memory tiled matrix multiplication on an exact model,");
  ImGui::TextUnformatted("then run the real CUDA kernels on the GPU.");
  ImGui::Separator();
  if (ImGui::BeginTable("##versions", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    for (const AboutLine& line : CollectAboutLines(*window_)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(line.name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(line.value.c_str());
    }
    ImGui::EndTable();
  }
  if (ImGui::Button("Close")) show_about_ = false;
  ImGui::EndPopup();
}

void Application::DrawHelpOverlay() {
  if (!show_help_) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f, viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  // As wide as a line of descriptions reads well, never wider than the window: the descriptions
  // wrap in their column (at 1366 pixels they ran off the edge). The height fits the list (0:
  // ImGui fits that axis) up to the window's, then it scrolls (presentation fonts at 768 pixels).
  const float margin = ImGui::GetFontSize();
  const float width = std::min(viewport->WorkSize.x - 2.0f * margin, ImGui::GetFontSize() * kHelpWidthFonts);
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(width, viewport->WorkSize.y - 2.0f * margin));
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the panels behind must not show through the list
  if (ImGui::Begin("Keyboard shortcuts (F1 closes)", &show_help_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    help_rect_ = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowPos().x + ImGui::GetWindowSize().x,
                  ImGui::GetWindowPos().y + ImGui::GetWindowSize().y};
    help_keys_.clear();
    const TextRecordScope recording(help_text_, false);  // the list scrolls down; only sideways cuts count
    if (gui::BeginTable("##keys", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("what it does", ImGuiTableColumnFlags_WidthStretch);
      for (const Action& action : registry_.All()) {
        if (action.keys.empty()) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        std::string keys;
        for (const KeyChord& chord : action.keys) keys += (keys.empty() ? "" : " / ") + ChordName(chord);
        gui::TextUnformatted(keys.c_str());
        help_keys_.push_back(keys);
        ImGui::TableNextColumn();
        gui::TextUnformatted(action.label.c_str());
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        gui::TextWrapped("%s", action.description.c_str());
        ImGui::PopStyleColor();
      }
      gui::EndTable();
    }
  }
  ImGui::End();
}

// Where the swap does not wait for the display (Xvfb, a driver with vsync off) the window would
// redraw as fast as the cores allow and leave nothing to the workers behind it (a lesson's
// whole-run pass, a tour being prepared), which run a step below it in priority: a frame is
// then held to its share of kMaxFramesPerSecond. --bench-frames measures the unpaced rate.
void Application::PaceFrame(std::chrono::steady_clock::time_point frame_start) const {
  if (options_.bench_frames > 0) return;
  std::this_thread::sleep_until(frame_start + std::chrono::microseconds(1000000 / kMaxFramesPerSecond));
}

bool Application::AnyPageOpening() const {
  return std::any_of(pages_.begin(), pages_.end(), [](const PageEntry& p) { return p.page->Opening(); });
}

bool Application::AnyPageBusy() const {
  return std::any_of(pages_.begin(), pages_.end(), [](const PageEntry& p) { return p.page->Busy(); });
}

bool Application::AutomatedRunFinished() const {
  if (options_.bench_frames > 0) return frame_count_ >= options_.bench_frames;
  if (Soaking()) return soak_.finished;
  const bool automated = options_.frames > 0 || !options_.screenshot.empty();
  if (!automated) return false;
  const long min_frames = std::max<long>(options_.frames, kMinFramesForScreenshot);
  // An action a page queued this frame (a tour's stop that ends on the Live GPU page) is still
  // to be applied: the run ends after it, not before.
  return frame_count_ >= min_frames && script_.Done() && frame_count_ >= layout_changed_at_frame_ + kFramesToSettle &&
         !AnyPageBusy() && queue_.Empty();
}

bool Application::SaveScreenshot(const std::string& path) {
  if (auto error = WritePng(window_->ReadFramebuffer(), path)) {
    notifications_.Add(Severity::kError, *error);
    return false;
  }
  notifications_.Add(Severity::kInfo, "saved " + path);
  return true;
}

void Application::SaveRegionScreenshots() {
  if (region_screenshots_.empty()) return;
  const FramebufferPixels frame = window_->ReadFramebuffer();
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;  // ImGui's units → framebuffer pixels.
  for (const RegionScreenshot& region : region_screenshots_) {
    const FramebufferPixels crop =
        Crop(frame, static_cast<int>(region.min.x * scale.x), static_cast<int>(region.min.y * scale.y),
             static_cast<int>(region.max.x * scale.x), static_cast<int>(region.max.y * scale.y));
    if (auto error = WritePng(crop, region.path)) {
      notifications_.Add(Severity::kError, *error);
    } else {
      notifications_.Add(Severity::kInfo, "saved " + region.path);
    }
  }
  region_screenshots_.clear();
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
  state["help_visible"] = show_help_;
  if (show_help_) {  // the F1 list as drawn
    state["help"] = help_text_.ToJson();
    state["help"]["rect"] = help_rect_;
    state["help"]["keys"] = help_keys_;
  }
  state["about_visible"] = show_about_;
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

// A dump that cannot be written fails the run: a script reading it must not go on with an
// old file or none.
void Application::WriteStateDump(const std::string& path) {
  if (auto error = sim::WriteFileAtomically(path, StateDump().dump(2) + "\n")) {
    notifications_.Add(Severity::kError, "the state dump: " + *error);
    output_failed_ = true;
  }
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

double Application::SoakSeconds() const {
  if (frame_count_ < 1) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - soak_.start).count();
}

void Application::EndSoakPass() {
  const SoakMemory now = MeasureMemory();
  if (++soak_.passes == 1) soak_.first_pass = now;
  soak_.last_pass = now;
  char line[240];
  std::snprintf(line, sizeof line,
                "soak: pass %ld ended at %.0f s: resident %.1f MiB (%.1f of it files), malloc in use %.1f MiB, "
                "held %.1f MiB",
                soak_.passes, SoakSeconds(), now.resident / kBytesPerMiB, now.resident_files / kBytesPerMiB,
                now.heap_in_use / kBytesPerMiB, now.heap_held / kBytesPerMiB);
  std::cout << line << std::endl;
  if (SoakSeconds() < options_.soak_seconds) {
    script_.next = 0;
  } else {
    soak_.finished = true;
  }
}

// The growth is measured from the end of the first pass to the end of the last: the first pass
// fills what is built once and kept (the font atlas at each size, ImGui's windows, the presets
// it opened), and every figure is taken at the same point of the script.
void Application::PrintSoakFigures() const {
  const auto growth = [](std::uint64_t from, std::uint64_t to) {
    return from > 0 ? 100.0 * (static_cast<double>(to) - static_cast<double>(from)) / from : 0.0;
  };
  char line[400];
  std::snprintf(line, sizeof line,
                "soak: %ld passes of the script in %.0f s; resident memory %.1f MiB after the first frame, %.1f MiB "
                "at the end of pass 1, %.1f MiB at the end of pass %ld (%+.1f%%); malloc in use %.1f MiB, %.1f MiB, "
                "%.1f MiB (%+.1f%%)",
                soak_.passes, SoakSeconds(), soak_.first_frame.resident / kBytesPerMiB,
                soak_.first_pass.resident / kBytesPerMiB, soak_.last_pass.resident / kBytesPerMiB, soak_.passes,
                growth(soak_.first_pass.resident, soak_.last_pass.resident), soak_.first_frame.heap_in_use / kBytesPerMiB,
                soak_.first_pass.heap_in_use / kBytesPerMiB, soak_.last_pass.heap_in_use / kBytesPerMiB,
                growth(soak_.first_pass.heap_in_use, soak_.last_pass.heap_in_use));
  std::cout << line << std::endl;
}

void Application::PrintBenchFigures() const {
  const double fps = bench_seconds_ > 0.0 ? static_cast<double>(frame_count_) / bench_seconds_ : 0.0;
  int width = 0;
  int height = 0;
  window_->Size(width, height);
  std::cout << "bench-frames: " << frame_count_ << " frames in " << bench_seconds_ << " s = " << fps
            << " frames/s at " << width << "x" << height << " (renderer: " << window_->GlRenderer()
            << "); the window's thread used " << 1e3 * bench_cpu_seconds_ / std::max(frame_count_, 1L)
            << " ms of CPU a frame" << std::endl;
}

}  // namespace gui
