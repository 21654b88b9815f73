#!/usr/bin/env bash
# Soak: the app under Xvfb plays lessons, changes sizes and runs model sweeps over and over
# for SECONDS (default 600); the pass under way when the time is up finishes. At the end of
# every pass (the same point of the script, background work done) it prints resident memory
# and what malloc has in use and holds, then the growth from the end of pass 1 to the end of
# the last pass (tilescope --soak). Not a CI test: a figure for the notes (issue 17 asks for
# under 5% growth over 10 minutes). A refused step of the script makes the soak exit 1.
#   scripts/soak.sh [SECONDS] [BINARY]   (default: 600, build/tilescope)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
binary=${2:-build/tilescope}
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT

# One pass: each preset played or scrubbed, sizes changed, a seed sweep of the race lesson on
# the model, a saved H100 sweep loaded (its global reads counted by the model), and back.
script="lesson-preset default; play; wait 40; run-until phase 2; jump-to 3; step-back; reset;
lesson-preset tile4_8x8x8; lesson-set m=24 n=20 k=16 tile=4; play; wait 60; jump-to 100;
lesson-preset padded_6x5x7; toggle-barrier1; play; wait 30; toggle-barrier1;
lesson-preset race_tile16; seeds-run 20; wait 30;
live-load docs/screenshots/live-h100.json; live-model-size 256; page-live; wait 20;
lesson-preset rect_4x2x4; lesson-set m=9 n=7 k=5; run-until phase 1; presentation; wait 10; presentation;
lesson-preset naive; play; wait 20; lesson-preset default"

XDG_CONFIG_HOME=$config xvfb-run -a -s "-screen 0 1920x1080x24" \
  "$binary" --width 1920 --height 1080 --soak "$seconds" --actions "$script"
