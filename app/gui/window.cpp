#include "app/gui/window.h"

#include "app/gui/gl.h"  // before GLFW (see gl.h)

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

namespace gui {
namespace {

#ifdef __EMSCRIPTEN__
// In a browser the window is the page's canvas, on WebGL 2 (OpenGL ES 3's shading language).
// GLFW is Emscripten's, of GLFW 3.2: no monitor work area nor content scale to ask. The canvas
// takes the tab's inner size and follows it (Window::FollowBrowserWindow), in the screen's
// pixels: the page lays it out in CSS pixels (web/shell.html), devicePixelRatio screen pixels
// each, and the fonts are scaled by that ratio as by a desktop's content scale, so text is as
// crisp as the screen allows. A zoomed page changes the ratio, and the text follows.
constexpr const char* kGlslVersion = "#version 300 es";

void AskForContext() {
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
}

bool LoadGl() { return true; }  // WebGL's functions need no loader

void SetSwapInterval(bool) {}  // the page's frame callback follows the display (frame_loop.h)

float DevicePixelRatio() { return static_cast<float>(EM_ASM_DOUBLE({ return window.devicePixelRatio || 1; })); }

void BrowserWindowSize(int& width, int& height) {
  const double ratio = DevicePixelRatio();
  width = static_cast<int>(std::lround(EM_ASM_DOUBLE({ return window.innerWidth; }) * ratio));
  height = static_cast<int>(std::lround(EM_ASM_DOUBLE({ return window.innerHeight; }) * ratio));
}

void FitToScreen(bool fit, int& width, int& height) {
  if (fit) BrowserWindowSize(width, height);
}

float ScreenScale(GLFWwindow*) { return DevicePixelRatio(); }
#else
constexpr const char* kGlslVersion = "#version 330 core";

void AskForContext() {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
}

bool LoadGl() { return gladLoadGL(glfwGetProcAddress) != 0; }

void SetSwapInterval(bool vsync) { glfwSwapInterval(vsync ? 1 : 0); }

void FitToScreen(bool fit, int& width, int& height) {
  GLFWmonitor* monitor = fit ? glfwGetPrimaryMonitor() : nullptr;
  if (!monitor) return;
  int x = 0;
  int y = 0;
  int work_width = 0;
  int work_height = 0;
  glfwGetMonitorWorkarea(monitor, &x, &y, &work_width, &work_height);
  if (work_width > 0 && work_height > 0) {
    width = std::min(width, work_width);
    height = std::min(height, work_height);
  }
}

float ScreenScale(GLFWwindow* handle) {
  float x = 1.0f;
  float y = 1.0f;
  glfwGetWindowContentScale(handle, &x, &y);
  return x > 0.0f ? x : 1.0f;
}
#endif

// GLFW reports errors through a callback; keep the last one so Create can name it.
std::string& LastGlfwError() {
  static std::string message;
  return message;
}

void OnGlfwError(int code, const char* description) {
  LastGlfwError() = "GLFW error " + std::to_string(code) + ": " + description;
}

}  // namespace

std::unique_ptr<Window> Window::Create(const WindowOptions& options, std::string& error) {
  glfwSetErrorCallback(OnGlfwError);
  if (!glfwInit()) {
    error = "cannot open a window (" + LastGlfwError() +
            "); is a display available? The command line (tilescope --help) works without one";
    return nullptr;
  }
  AskForContext();
  int width = options.width;
  int height = options.height;
  FitToScreen(options.fit_work_area, width, height);
  GLFWwindow* handle = glfwCreateWindow(width, height, options.title.c_str(), nullptr, nullptr);
  if (!handle) {
    error = "cannot create an OpenGL 3.3 core window (" + LastGlfwError() + ")";
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(handle);
  if (!LoadGl()) {
    error = "cannot load OpenGL functions through glad";
    glfwDestroyWindow(handle);
    glfwTerminate();
    return nullptr;
  }
  SetSwapInterval(options.vsync);

  std::unique_ptr<Window> window(new Window(handle));
  window->follow_screen_ = options.fit_work_area;
  glfwSetWindowUserPointer(handle, window.get());
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // Settings are saved atomically by SettingsStore.
  ImGui_ImplGlfw_InitForOpenGL(handle, true);
  // Replaces the backend's key callback (installed after it, so the backend chains to
  // nothing); OnKey hands keys on to the backend itself.
  glfwSetKeyCallback(handle, OnKey);
  glfwSetCursorPosCallback(handle, OnCursorMove);  // ImGui 1.86's backend polls instead
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  return window;
}

Window::Window(GLFWwindow* handle) : handle_(handle) {}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(handle_);
  glfwTerminate();
}

// ImGui 1.86 reads keys as "down now", once per frame: a key pressed and released within one
// poll (a quick tap on a slow PC, or xdotool) would never be seen down, and Enter in a text
// field would be lost. Such a release is held back to the next frame, as ImGui 1.87's input
// queue later does.
void Window::OnKey(GLFWwindow* handle, int key, int scancode, int action, int mods) {
  auto* window = static_cast<Window*>(glfwGetWindowUserPointer(handle));
  if (action == GLFW_RELEASE) {
    const auto pressed = std::find(window->pressed_this_frame_.begin(), window->pressed_this_frame_.end(), key);
    if (pressed != window->pressed_this_frame_.end()) {
      window->held_releases_.push_back({key, scancode, mods});
      return;
    }
  } else {
    window->pending_keys_.push_back({key, mods});
    if (action == GLFW_PRESS) window->pressed_this_frame_.push_back(key);
  }
  ImGui_ImplGlfw_KeyCallback(handle, key, scancode, action, mods);
}

// A window that opens under a pointer that has not moved shows no hover: a tooltip nobody
// asked for would cover a cell (and every scripted screenshot, where the pointer sits
// mid-screen). GLFW reports the pointer once when the window appears; only a later, different
// position counts as a move.
void Window::OnCursorMove(GLFWwindow* handle, double x, double y) {
  auto* window = static_cast<Window*>(glfwGetWindowUserPointer(handle));
  if (!window->first_pointer_) {
    window->first_pointer_ = ImVec2(static_cast<float>(x), static_cast<float>(y));
  } else if (window->first_pointer_->x != static_cast<float>(x) || window->first_pointer_->y != static_cast<float>(y)) {
    window->pointer_moved_ = true;
  }
}

void Window::ReleaseHeldKeys() {
  std::vector<HeldRelease> releases;
  releases.swap(held_releases_);
  pressed_this_frame_.clear();
  for (const HeldRelease& release : releases) {
    ImGui_ImplGlfw_KeyCallback(handle_, release.key, release.scancode, GLFW_RELEASE, release.mods);
  }
}

std::vector<KeyEvent> Window::TakeKeyEvents() {
  std::vector<KeyEvent> keys;
  keys.swap(pending_keys_);
  return keys;
}

bool Window::ShouldClose() const { return glfwWindowShouldClose(handle_); }

void Window::RequestClose() { glfwSetWindowShouldClose(handle_, GLFW_TRUE); }

void Window::BeginFrame() {
  ReleaseHeldKeys();
  glfwPollEvents();
  FollowBrowserWindow();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (!pointer_moved_) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // see OnCursorMove
  ImGui::NewFrame();
}

void Window::EndFrame() {
  ImGui::Render();
  int width = 0;
  int height = 0;
  glfwGetFramebufferSize(handle_, &width, &height);
  glViewport(0, 0, width, height);
  // The window background colour: panels in their slots draw none (panel_window.h).
  const ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(background.x, background.y, background.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::Present() { glfwSwapBuffers(handle_); }

void Window::RebuildFontTexture() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

FramebufferPixels Window::ReadFramebuffer() const {
  FramebufferPixels pixels;
  glfwGetFramebufferSize(handle_, &pixels.width, &pixels.height);
  const size_t row_bytes = static_cast<size_t>(pixels.width) * 4;
  std::vector<unsigned char> bottom_up(row_bytes * pixels.height);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, pixels.width, pixels.height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  // OpenGL's rows start at the bottom; images start at the top.
  pixels.rgba.resize(bottom_up.size());
  for (int y = 0; y < pixels.height; ++y) {
    std::copy_n(bottom_up.begin() + (pixels.height - 1 - y) * row_bytes, row_bytes,
                pixels.rgba.begin() + y * row_bytes);
  }
  return pixels;
}

void Window::Size(int& width, int& height) const { glfwGetWindowSize(handle_, &width, &height); }

float Window::ContentScale() const { return ScreenScale(handle_); }

// A desktop window is resized by its frame, which GLFW reports; a browser's canvas is sized by
// the page, so a tab that changes size asks for a canvas of its new size here.
void Window::FollowBrowserWindow() {
#ifdef __EMSCRIPTEN__
  if (!follow_screen_) return;
  int width = 0;
  int height = 0;
  BrowserWindowSize(width, height);
  int now_width = 0;
  int now_height = 0;
  glfwGetWindowSize(handle_, &now_width, &now_height);
  if (width > 0 && height > 0 && (width != now_width || height != now_height)) glfwSetWindowSize(handle_, width, height);
#endif
}

std::string Window::GlRenderer() const {
  return reinterpret_cast<const char*>(glGetString(GL_RENDERER));
}

std::string Window::GlVersion() const {
  return reinterpret_cast<const char*>(glGetString(GL_VERSION));
}

std::string Window::GlfwVersion() { return glfwGetVersionString(); }

}  // namespace gui
