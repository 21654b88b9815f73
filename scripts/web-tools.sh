# web-tools.sh — sourced by setup.sh, build.sh and the browser test: where the browser build's
# tools and sources are, said once.
#
# Dear ImGui's sources for the browser build come from Debian's source package of the version
# the desktop app links (libimgui-dev), unpacked once by setup.sh into a cache folder outside
# the checkout; nothing is downloaded while building.
imgui_source_version=$(dpkg-query -W -f='${source:Version}' libimgui-dev 2>/dev/null || true)
imgui_source_dir="${XDG_CACHE_HOME:-$HOME/.cache}/tilescope/imgui-${imgui_source_version:-missing}"
# Debian's emcc finds its JavaScript optimizer's parser (acorn) only through NODE_PATH, and runs
# under Debian's python3 (another python on PATH lacks the modules its HTML tools import).
export NODE_PATH=/usr/share/nodejs EMSDK_PYTHON=/usr/bin/python3

# True when this machine can build and test the site: Emscripten, Chromium and ImGui's sources.
web_tools_present() {
  command -v emcmake >/dev/null && command -v chromium >/dev/null && [ -f "$imgui_source_dir/imgui.cpp" ]
}
