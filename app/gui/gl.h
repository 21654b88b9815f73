// gl.h — the OpenGL functions the window and the textures call: OpenGL 3.3 core through glad's
// loader on the desktop; in a browser, OpenGL ES 3 (WebGL 2) from Emscripten, with nothing to
// load. Include it before GLFW, so GLFW does not pull in the system GL header.
#pragma once
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif
