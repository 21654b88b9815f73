#!/usr/bin/env bash
# Regenerates the README's screenshots under docs/screenshots/ with the app's own
# --screenshot, in a real window under Xvfb, from a clean settings folder.
# Usage: scripts/screenshots.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
app=${1:-build}/tilescope
out=docs/screenshots
mkdir -p "$out"
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT

shoot() {  # NAME [ARGS...]
  local name=$1; shift
  XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$app" --width 1920 --height 1080 --frames 10 --screenshot "$out/$name.png" "$@"
  rm -rf "${config:?}"/*
  echo "wrote $out/$name.png"
}

shoot window --lesson default
