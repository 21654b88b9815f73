// image_texture.h — an RGBA picture the GPU holds, which ImGui draws as one textured quad
// (ImDrawList::AddImage): a heat map of a million cells costs one quad a frame, not a
// rectangle per cell. Made, replaced and freed on the UI thread, where the window's GL context
// is current; a texture outliving the context is left to the context's end.
#pragma once
#include <imgui.h>

#include <vector>

namespace gui {

class ImageTexture {
 public:
  ImageTexture() = default;
  ~ImageTexture();
  ImageTexture(const ImageTexture&) = delete;
  ImageTexture& operator=(const ImageTexture&) = delete;

  // Replaces the picture: width × height pixels, top row first, each an ImU32 (IM_COL32's
  // byte order is GL_RGBA's). Pixels show as they are: no smoothing between them.
  void Upload(int width, int height, const std::vector<ImU32>& pixels);
  ImTextureID id() const;

 private:
  unsigned texture_ = 0;  // GLuint; 0 until the first upload
  int width_ = 0;
  int height_ = 0;
};

}  // namespace gui
