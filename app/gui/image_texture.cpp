#include "app/gui/image_texture.h"

#include "app/gui/gl.h"  // before GLFW (see gl.h)

#include <GLFW/glfw3.h>

#include <cstdint>

namespace gui {

ImageTexture::~ImageTexture() {
  if (texture_ != 0 && glfwGetCurrentContext() != nullptr) glDeleteTextures(1, &texture_);
}

void ImageTexture::Upload(int width, int height, const std::vector<ImU32>& pixels) {
  if (texture_ == 0) {
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, texture_);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (width == width_ && height == height_) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    width_ = width;
    height_ = height;
  }
}

// ImGui's OpenGL3 backend binds a draw command's texture id as a GLuint.
ImTextureID ImageTexture::id() const { return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture_)); }

}  // namespace gui
