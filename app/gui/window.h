// window.h — the GLFW window, its OpenGL 3.3 core context (through glad; in a browser, the
// page's canvas on WebGL 2) and ImGui's GLFW and OpenGL3 backends. Nothing else in the app
// calls GLFW or GL, except the textures panels draw pictures with (image_texture.h); the shell
// and the pages include GLFW's header for its key names only.
#pragma once
#include <imgui.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace gui {

struct WindowOptions {
  int width = 1600;
  int height = 900;
  bool vsync = true;
  // Shrink to the primary monitor's work area (the screen less its panels and docks) when larger:
  // the 1600×900 default or a size saved on a larger screen, on a 1366×768 laptop. A size asked
  // for on the command line is kept as it is.
  bool fit_work_area = true;
  std::string title = "TileScope";
};

struct KeyEvent {
  int key = 0;   // GLFW_KEY_*
  int mods = 0;  // GLFW_MOD_* bits
};

struct FramebufferPixels {
  int width = 0;
  int height = 0;
  std::vector<unsigned char> rgba;  // Top row first.
};

class Window {
 public:
  // Creates the window and its GL context, or returns null with `error` naming what failed
  // (no display, no OpenGL 3.3, loader failure): the caller reports it and exits 1.
  static std::unique_ptr<Window> Create(const WindowOptions& options, std::string& error);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool ShouldClose() const;
  void RequestClose();
  void BeginFrame();  // Polls events, starts an ImGui frame.
  void EndFrame();    // Renders ImGui into the back buffer (does not swap).
  void Present();     // Swaps buffers.
  void RebuildFontTexture();
  FramebufferPixels ReadFramebuffer() const;

  void Size(int& width, int& height) const;
  // The screen's scale for this window (2 on a typical high-DPI laptop), as GLFW reports it.
  float ContentScale() const;
  std::string GlRenderer() const;
  std::string GlVersion() const;
  static std::string GlfwVersion();

  // Key presses (and repeats) in arrival order since the last call; read through GLFW
  // because ImGui 1.86 has no named keys for letters and F-keys.
  std::vector<KeyEvent> TakeKeyEvents();

 private:
  explicit Window(GLFWwindow* handle);
  static void OnKey(GLFWwindow* handle, int key, int scancode, int action, int mods);
  static void OnCursorMove(GLFWwindow* handle, double x, double y);
  // Hands ImGui the releases held back last frame (see OnKey).
  void ReleaseHeldKeys();
  void FollowBrowserWindow();

  struct HeldRelease {
    int key = 0;
    int scancode = 0;
    int mods = 0;
  };

  GLFWwindow* handle_ = nullptr;
  std::vector<KeyEvent> pending_keys_;
  std::vector<int> pressed_this_frame_;  // GLFW keys pressed since this frame's poll began.
  std::vector<HeldRelease> held_releases_;
  std::optional<ImVec2> first_pointer_;  // where GLFW first saw the pointer
  bool pointer_moved_ = false;
  bool follow_screen_ = false;  // the size was not asked for: a browser's canvas follows its tab
};

}  // namespace gui
