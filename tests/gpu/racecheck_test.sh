#!/usr/bin/env bash
# NVIDIA's race detector against TileScope's model: for each real kernel variant at a small
# size, the hazard kinds and severities compute-sanitizer racecheck reports must be the
# ones the model reports for the same kernel (model_hazards).
#
#   racecheck_test.sh TILESCOPE MODEL_HAZARDS
#
# What the model's rules predict (hazard_detector.h): RAW without the first barrier, WAR
# without the second, both without either; a warning when both threads are in one warp,
# an error across warps; nothing with both barriers, nor with __syncwarp() in a one-warp
# block. TILE 2 at 4×4×4 is one warp per block; TILE 16 at 32×32×32 is eight.
# Skips (exit 0, "SKIPPED:" for CTest) where there is no GPU or no compute-sanitizer.
# RACECHECK_LOG_DIR, when set, keeps each racecheck log there.
set -uo pipefail

tilescope=${1:?usage: racecheck_test.sh TILESCOPE MODEL_HAZARDS}
model_hazards=${2:?usage: racecheck_test.sh TILESCOPE MODEL_HAZARDS}

cases=(
  "tiled2 4" "tiled2_nosync1 4" "tiled2_nosync2 4" "tiled2_nosync12 4" "tiled2_syncwarp 4"
  "tiled16 32" "tiled16_nosync1 32" "tiled16_nosync2 32" "tiled16_nosync12 32" "tiled16_syncwarp 32"
)

# One launch of KERNEL at SIZE through the real runner (cuBLAS runs first as its reference).
run_kernel() {  # KERNEL SIZE
  "$tilescope" bench --kernels "$1" --sizes "$2" --reps 1 --warmups 0
}

probe=$(run_kernel tiled2 4 2>&1)
if [ $? -eq 3 ]; then
  echo "SKIPPED: no GPU: ${probe}"
  exit 0
fi
sanitizer=$(command -v compute-sanitizer || true)
[ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [ -z "$sanitizer" ]; then
  echo "SKIPPED: compute-sanitizer not found (on PATH or in /usr/local/cuda/bin)"
  exit 0
fi

# Options this compute-sanitizer may lack are probed on a program with no kernels: only
# the teaching kernel is checked when it can filter by name (cuBLAS and the runner's fill
# and compare kernels are not the lesson); every hazard is printed, without backtraces.
accepts() { "$sanitizer" "$@" --tool racecheck true >/dev/null 2>&1; }
options=(--tool racecheck --racecheck-report hazard)
for option in "--kernel-regex kns=tiled_matmul" "--print-limit 1000000" "--show-backtrace no"; do
  # shellcheck disable=SC2086  # each entry is an option and its value
  accepts $option && options+=($option)
done
log_dir=${RACECHECK_LOG_DIR:-$(mktemp -d)}
mkdir -p "$log_dir"

# "RAW warning 3" lines, sorted, from racecheck's hazard lines
# ("========= ERROR: Potential RAW hazard detected at __shared__ ...").
racecheck_kinds() {  # LOG
  grep -oE '(ERROR|WARNING|Error|Warning): Potential (RAW|WAR|WAW) hazard' "$1" |
    awk '{ severity = tolower($1); sub(":", "", severity); print $3, severity }' | sort | uniq -c |
    awk '{ print $2, $3, $1 }'
}

# "RAW error, RAW warning" from "KIND SEVERITY COUNT" lines; "none" when there are none.
kinds_only() { awk 'NF { print $1, $2 }' | sort | awk '{ s = s (NR > 1 ? ", " : "") $0 } END { print (NR ? s : "none") }'; }
# The same with the counts: "RAW error ×12, RAW warning ×4".
with_counts() { awk 'NF { s = s (n++ ? ", " : "") $1 " " $2 " ×" $3 } END { print (n ? s : "none") }'; }

printf '%-20s %-5s %-30s %-44s %s\n' kernel size "model" "racecheck (hazards)" verdict
failures=0
for entry in "${cases[@]}"; do
  read -r kernel size <<<"$entry"
  log="$log_dir/racecheck_${kernel}_${size}.log"
  model=$("$model_hazards" "$kernel" "$size") || { echo "model_hazards failed for $kernel $size"; failures=$((failures + 1)); continue; }
  "$sanitizer" "${options[@]}" "$tilescope" bench --kernels "$kernel" --sizes "$size" --reps 1 --warmups 0 >"$log" 2>&1
  found=$(racecheck_kinds "$log")
  summary=$(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazard' "$log" | grep -oE '[0-9]+' | head -n1)
  parsed=$(printf '%s\n' "$found" | awk 'NF { n += $3 } END { print n + 0 }')
  verdict=match
  if ! grep -q 'RACECHECK SUMMARY' "$log"; then
    verdict="FAIL: racecheck did not finish (see $log)"
  elif [ "${summary:-0}" -gt 0 ] && [ "$parsed" -eq 0 ]; then
    verdict="FAIL: racecheck counted $summary hazards but none was parsed"
  elif [ -n "$model" ] && [ "$parsed" -eq 0 ]; then
    verdict="FAIL: the model has hazards, racecheck reported none"
  elif [ "$(printf '%s\n' "$model" | kinds_only)" != "$(printf '%s\n' "$found" | kinds_only)" ]; then
    verdict="FAIL: kinds or severities differ"
  fi
  [ "$verdict" = match ] || failures=$((failures + 1))
  printf '%-20s %-5s %-30s %-44s %s\n' "$kernel" "$size" "$(printf '%s\n' "$model" | kinds_only)" \
    "$(printf '%s\n' "$found" | with_counts)" "$verdict"
done
echo "model hazard counts (kind severity count), for reference:"
for entry in "${cases[@]}"; do
  read -r kernel size <<<"$entry"
  echo "  $kernel $size: $("$model_hazards" "$kernel" "$size" | with_counts)"
done
echo "racecheck ${options[*]}; logs: $log_dir"
if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures of ${#cases[@]} variants differ from the model"
  exit 1
fi
echo "PASS: racecheck agrees with the model on all ${#cases[@]} variants"
