// text_sizing.h — how large the GUI's text is: the user's size (the zoom keys, kept in the
// settings), or in presentation mode a size that follows the window's height; either times the
// screen's content scale. A new size is only noted when asked for; the fonts are rebuilt at the
// start of the next frame, never inside one (ImGui's atlas is locked while a frame is built).
#pragma once
#include "app/gui/fonts.h"
#include "app/gui/window.h"

namespace gui {

class TextSizing {
 public:
  // `forced_content_scale` is --content-scale: above 0 it replaces the window's own scale.
  explicit TextSizing(float forced_content_scale) : forced_content_scale_(forced_content_scale) {}

  // Once the window is open: the mode and the user's size saved at the last exit.
  void Start(const Window& window, bool presentation, float user_size);
  // The user's size by `step` points (the zoom keys), within the fonts' range.
  void Zoom(float step) { Request(user_size_ + step); }
  // Presentation mode on or off; off returns to `user_size`.
  void SetPresentation(const Window& window, bool on, float user_size);
  // The window was resized: presentation mode's size follows its height.
  void FollowWindowHeight(const Window& window);
  // At the start of a frame: follows the content scale, and rebuilds the fonts, the theme and
  // the font texture when a new size was asked for. True when it rebuilt them.
  bool RebuildIfAsked(Window& window);

  const FontSet& fonts() const { return fonts_; }
  bool presentation() const { return presentation_; }
  float user_size() const { return user_size_; }  // in the user's units, before the scale
  float content_scale() const { return content_scale_; }

 private:
  void Request(float size);
  void FollowContentScale(const Window& window);
  float ContentScaleOf(const Window& window) const;
  float PresentationSize(const Window& window) const;

  float forced_content_scale_;
  FontSet fonts_;
  float requested_size_ = 0.0f;  // 0: no rebuild asked for
  float user_size_ = 0.0f;
  float content_scale_ = 1.0f;
  bool presentation_ = false;
};

}  // namespace gui
