#include "app/gui/text_sizing.h"

#include <algorithm>

#include "app/gui/settings_store.h"
#include "app/gui/theme.h"

namespace gui {
namespace {

// Presentation text follows the window's height: a line of the 4×4 lesson's figures per
// kPresentationLines of it, never below what a room reads (24 px), nor so large a panel overflows.
constexpr float kPresentationLines = 30.0f;
constexpr float kMinPresentationFontSize = 24.0f;
constexpr float kMaxPresentationFontSize = 32.0f;

}  // namespace

void TextSizing::Start(const Window& window, bool presentation, float user_size) {
  presentation_ = presentation;
  content_scale_ = ContentScaleOf(window);
  Request(presentation_ ? PresentationSize(window) : user_size);
}

void TextSizing::SetPresentation(const Window& window, bool on, float user_size) {
  presentation_ = on;
  Request(on ? PresentationSize(window) : user_size);
}

void TextSizing::FollowWindowHeight(const Window& window) {
  if (presentation_ && requested_size_ == 0.0f) Request(PresentationSize(window));
}

bool TextSizing::RebuildIfAsked(Window& window) {
  FollowContentScale(window);
  if (requested_size_ == 0.0f) return false;
  user_size_ = requested_size_;
  fonts_ = LoadFonts(user_size_ * content_scale_);
  ApplyTheme(presentation_ ? ThemeKind::kHighContrast : ThemeKind::kNormal, fonts_.size);
  window.RebuildFontTexture();
  requested_size_ = 0.0f;
  return true;
}

void TextSizing::Request(float size) { requested_size_ = std::clamp(size, kMinFontSize, kMaxFontSize); }

// A high-DPI screen (or the window moved to one) gets fonts, and with them every size the
// theme and the panels derive from the font, scaled by its content scale.
void TextSizing::FollowContentScale(const Window& window) {
  const float scale = ContentScaleOf(window);
  if (scale == content_scale_) return;
  content_scale_ = scale;
  if (requested_size_ == 0.0f) Request(user_size_);
}

float TextSizing::ContentScaleOf(const Window& window) const {
  return forced_content_scale_ > 0.0f ? forced_content_scale_ : window.ContentScale();
}

float TextSizing::PresentationSize(const Window& window) const {
  int width = 0;
  int height = 0;
  window.Size(width, height);
  // Window sizes are in pixels on X11; fonts are the user's size times the content scale.
  const float lines_of = static_cast<float>(height) / content_scale_ / kPresentationLines;
  return std::clamp(lines_of, kMinPresentationFontSize, kMaxPresentationFontSize);
}

}  // namespace gui
