#!/usr/bin/env bash
# Installs, from Debian 12's packages, whatever TileScope needs that this machine lacks.
# Idempotent: asks apt for nothing when everything is present, and runs `apt-get update`
# at most once, only when something must be installed.
set -euo pipefail

packages=(
  cmake g++ ninja-build ccache pkg-config
  libglfw3-dev libimgui-dev python3-glad libstb-dev
  libgtest-dev libcli11-dev nlohmann-json3-dev fonts-dejavu-core
  libcairo2-dev libgif-dev libwebp-dev  # tour --slides (PDF) and --record (GIF, WebP)
  xvfb xauth libgl1-mesa-dri xdotool
  help2man librsvg2-bin dpkg-dev file lintian desktop-file-utils
  clang libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer and the sanitizer runtimes
  emscripten chromium  # scripts/build.sh web, and the browser tests that load its page
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The browser build compiles Dear ImGui from Debian's source package of the installed
# libimgui-dev's version. apt reads a deb-src line of the same suite from a private list in a
# temporary folder: the machine's own apt sources and state are left as they are.
. "$(dirname "$0")/web-tools.sh"
if [ ! -f "$imgui_source_dir/imgui.cpp" ]; then
  echo "setup: unpacking Debian's imgui $imgui_source_version sources into $imgui_source_dir"
  apt_dir=$(mktemp -d)
  trap 'rm -rf "$apt_dir"' EXIT
  suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
  echo "deb-src http://deb.debian.org/debian $suite main" >"$apt_dir/sources.list"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  apt_private=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
               -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User="$(id -un)")
  apt-get "${apt_private[@]}" update -qq
  (cd "$apt_dir" && apt-get "${apt_private[@]}" source -qq --download-only "imgui=$imgui_source_version" &&
     dpkg-source -x --skip-debianization ./*.dsc unpacked >/dev/null)
  mkdir -p "$(dirname "$imgui_source_dir")"
  mv "$apt_dir/unpacked" "$imgui_source_dir"
fi
