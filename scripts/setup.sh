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
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
