#!/usr/bin/env bash
# Writes docs/cli.md, the command-line reference, from the program's own help: `tilescope
# --help`, then `--help` of each subcommand that help lists, each in its own section. The
# help is the one source; this file is never edited by hand.
# Usage:
#   scripts/cli-reference.sh [TILESCOPE]           write docs/cli.md (default: build/tilescope)
#   scripts/cli-reference.sh --check [TILESCOPE]   regenerate into a temporary file and compare:
#                                                  PASS, or FAIL: with the difference (the test
#                                                  docs.cli_reference_current runs this)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
doc="$root/docs/cli.md"
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
app=${1:-$root/build/tilescope}
[ -x "$app" ] || { echo "FAIL: $app is not an executable (build first, or name the binary)"; exit 1; }

# The subcommands as the top-level help lists them: the indented names under "Subcommands:".
subcommands() {
  "$app" --help | awk '/^Subcommands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

section() {  # TITLE ARGS...
  local title=$1; shift
  printf '\n## `%s`\n\n```\n' "$title"
  "$app" "$@" --help
  printf '```\n'
}

generate() {
  printf '# Command-line reference\n\n'
  printf 'Generated from the program'"'"'s own `--help` by `scripts/cli-reference.sh`: do not edit by\n'
  printf 'hand. After changing a flag or its help, run `scripts/cli-reference.sh` (the test\n'
  printf '`docs.cli_reference_current` fails until you do). What each flag answers to a bad value is\n'
  printf 'in [bad inputs](bad-inputs.md); the window'"'"'s keys are in the [user guide](user-guide.md).\n'
  section "tilescope"
  local command
  for command in $(subcommands); do section "tilescope $command" "$command"; done
}

if [ "$check" -eq 0 ]; then
  generate > "$doc.tmp"
  mv "$doc.tmp" "$doc"
  echo "wrote $doc"
  exit 0
fi

fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
generate > "$fresh"
if diff -u "$doc" "$fresh" > "$fresh.diff"; then
  rm -f "$fresh.diff"
  echo "PASS: docs/cli.md matches the program's --help"
else
  cat "$fresh.diff"
  rm -f "$fresh.diff"
  echo "FAIL: docs/cli.md differs from the program's --help: run scripts/cli-reference.sh $app"
  exit 1
fi
