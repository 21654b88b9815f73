# The same outside libraries for the browser build (scripts/build.sh web), under the same target
# names, from Debian's packages too:
# - Dear ImGui 1.86 compiled from Debian's source package of the version libimgui-dev is
#   (scripts/setup.sh unpacks it; scripts/web-tools.sh says where), with its GLFW and OpenGL 3
#   backends, the latter for OpenGL ES 3 ("#version 300 es"), which is WebGL 2;
# - GLFW 3 and WebGL 2 are Emscripten's own (its JavaScript libraries, not a port to download);
# - the header-only libraries (nlohmann/json, CLI11, stb) from Debian's /usr/include, through a
#   folder of links to their own folders: /usr/include itself would bring the host's C library
#   headers in front of Emscripten's.

set(TILESCOPE_IMGUI_SOURCE_DIR "" CACHE PATH "Dear ImGui's unpacked sources (scripts/web-tools.sh)")
if(NOT EXISTS "${TILESCOPE_IMGUI_SOURCE_DIR}/imgui.cpp")
  message(FATAL_ERROR "TILESCOPE_IMGUI_SOURCE_DIR='${TILESCOPE_IMGUI_SOURCE_DIR}' holds no imgui.cpp: "
                      "run scripts/setup.sh, which unpacks Debian's imgui sources")
endif()
set(imgui ${TILESCOPE_IMGUI_SOURCE_DIR})
add_library(third_party_imgui STATIC
  ${imgui}/imgui.cpp ${imgui}/imgui_draw.cpp ${imgui}/imgui_tables.cpp ${imgui}/imgui_widgets.cpp
  ${imgui}/backends/imgui_impl_glfw.cpp ${imgui}/backends/imgui_impl_opengl3.cpp ${imgui}/misc/cpp/imgui_stdlib.cpp)
target_include_directories(third_party_imgui SYSTEM PUBLIC ${imgui} ${imgui}/misc/cpp)
target_compile_definitions(third_party_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_link_options(third_party_imgui PUBLIC -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sFULL_ES3=1)
add_library(ThirdParty::imgui ALIAS third_party_imgui)

# The OpenGL functions: WebGL 2 through Emscripten's GLES 3 headers; nothing to load.
add_library(third_party_gl INTERFACE)
add_library(ThirdParty::gl ALIAS third_party_gl)

set(DEBIAN_HEADERS ${CMAKE_CURRENT_BINARY_DIR}/debian-headers)
foreach(folder nlohmann CLI stb)
  if(NOT IS_DIRECTORY /usr/include/${folder})
    message(FATAL_ERROR "/usr/include/${folder} is missing: run scripts/setup.sh")
  endif()
  file(MAKE_DIRECTORY ${DEBIAN_HEADERS})
  file(CREATE_LINK /usr/include/${folder} ${DEBIAN_HEADERS}/${folder} SYMBOLIC)
endforeach()
add_library(third_party_json INTERFACE)
target_include_directories(third_party_json SYSTEM INTERFACE ${DEBIAN_HEADERS})
add_library(nlohmann_json::nlohmann_json ALIAS third_party_json)
add_library(third_party_cli11 INTERFACE)
target_include_directories(third_party_cli11 SYSTEM INTERFACE ${DEBIAN_HEADERS})
add_library(CLI11::CLI11 ALIAS third_party_cli11)
# stb_image_write's code, which Debian's libstb compiles for the host, compiled here from its header.
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/stb_image_write.c
     CONTENT "#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb_image_write.h>\n")
add_library(third_party_stb STATIC ${CMAKE_CURRENT_BINARY_DIR}/stb_image_write.c)
target_include_directories(third_party_stb SYSTEM PUBLIC ${DEBIAN_HEADERS}/stb)
add_library(ThirdParty::stb ALIAS third_party_stb)

find_package(Threads REQUIRED GLOBAL)
