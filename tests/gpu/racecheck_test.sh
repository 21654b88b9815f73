#!/usr/bin/env bash
# NVIDIA's race detector against TileScope's model: for each real kernel variant at a small
# size, compute-sanitizer racecheck must flag the same pairs of source lines, with the same
# severities, as the model does for the same kernel (model_hazards), and nothing where the
# model has nothing.
#
#   racecheck_test.sh TILESCOPE MODEL_HAZARDS
#
# The model's rules (hazard_detector.h): RAW without the first barrier, WAR without the
# second; a warning when both threads are in one warp, an error across warps; nothing with
# both barriers, nor with __syncwarp() in a one-warp block. TILE 2 at 4×4×4 is one warp
# per block; TILE 16 at 32×32×32 is eight.
#
# What is compared, and why:
#  - (severity, the two lines) sets must be equal: which accesses race, and whether within
#    a warp or across warps, does not depend on the schedule.
#  - kinds of warnings must be equal too: a warp runs in lockstep, so racecheck sees the
#    two accesses in program order, which is the order the model names a hazard by.
#  - kinds of errors are printed, not asserted: racecheck names a hazard by the order it
#    saw the accesses in, and across warps that is the schedule's choice. A read that ran
#    before the store it should have waited for (no first barrier) is a RAW hazard to the
#    model and a WAR to racecheck; the table says "seen as".
# Skips (exit 0, "SKIPPED:" for CTest) where there is no GPU or no compute-sanitizer.
# RACECHECK_LOG_DIR, when set, keeps each racecheck log there.
set -uo pipefail

tilescope=${1:?usage: racecheck_test.sh TILESCOPE MODEL_HAZARDS}
model_hazards=${2:?usage: racecheck_test.sh TILESCOPE MODEL_HAZARDS}

cases=(
  "tiled2 4" "tiled2_nosync1 4" "tiled2_nosync2 4" "tiled2_nosync12 4" "tiled2_syncwarp 4"
  "tiled16 32" "tiled16_nosync1 32" "tiled16_nosync2 32" "tiled16_nosync12 32" "tiled16_syncwarp 32"
)

probe=$("$tilescope" bench --kernels tiled2 --sizes 4 --reps 1 --warmups 0 2>&1)
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
log_dir=${RACECHECK_LOG_DIR:-$(mktemp -d)}
mkdir -p "$log_dir"

# One launch of KERNEL at SIZE through the real runner, under racecheck: cuBLAS runs first
# as the runner's reference, so racecheck is told to check the teaching kernel only. The
# launches happen in the runner's GPU worker, a child process: racecheck must follow it.
racecheck() {  # LOG KERNEL SIZE [SANITIZER OPTIONS...]
  local log=$1 kernel=$2 size=$3
  shift 3
  "$sanitizer" --tool racecheck --racecheck-report hazard --target-processes all "$@" \
    "$tilescope" bench --kernels "$kernel" --sizes "$size" --reps 1 --warmups 0 >"$log" 2>&1
  grep -q 'RACECHECK SUMMARY' "$log"
}

# Options a compute-sanitizer version may lack, kept where a real run with them finishes:
# the kernel filter, every hazard printed (the default stops at 100), no host backtraces.
options=()
for option in "--kernel-regex kns=tiled_matmul" "--print-limit 10000000" "--show-backtrace no"; do
  # shellcheck disable=SC2086  # an option and its value
  racecheck "$log_dir/option_probe.log" tiled2_nosync1 4 "${options[@]}" $option && options+=($option)
done

# "KIND SEVERITY LINES COUNT" from racecheck's hazard reports, as model_hazards prints them:
#   ========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ ...
#   =========     Write Thread (1,12,0) at void tiled_matmul<...>(...)+0x3a0 in 02_tiled.cu:34
#   =========     Read Thread (0,12,0) at void tiled_matmul<...>(...)+0x3d0 in 02_tiled.cu:40
racecheck_hazards() {  # LOG
  awk '
    /(Error|Warning):.*Potential (RAW|WAR|WAW) hazard/ {
      severity = ($0 ~ /Warning:/) ? "warning" : "error"
      match($0, /(RAW|WAR|WAW) hazard/)
      kind = substr($0, RSTART, 3); n = 0; next
    }
    kind != "" && /Thread \(/ && match($0, /\.cu:[0-9]+/) {
      line[++n] = substr($0, RSTART + 4, RLENGTH - 4) + 0
      if (n == 2) {
        low = line[1] < line[2] ? line[1] : line[2]; high = line[1] < line[2] ? line[2] : line[1]
        print kind, severity, low "-" high; kind = ""
      }
    }' "$1" | sort | uniq -c | awk '{ print $2, $3, $4, $1 }'
}

# Views of "KIND SEVERITY LINES COUNT" lines, one comparable string each.
by_lines() { awk 'NF { print $2, $3 }' | sort -u | paste -sd' ' -; }
warning_kinds() { awk '$2 == "warning" { print $1, $3 }' | sort -u | paste -sd' ' -; }
error_kinds() { awk '$2 == "error" { print $1 }' | sort -u | paste -sd/ -; }
listing() { awk 'NF { s = s (n++ ? ", " : "") $1 " " $2 " " $3 " ×" $4 } END { print (n ? s : "none") }'; }
kinds() { awk 'NF { print $1, $2 }' | sort -u | awk '{ s = s (NR > 1 ? ", " : "") $0 } END { print (NR ? s : "none") }'; }

echo "compute-sanitizer $("$sanitizer" --version | grep -oE '[0-9]{4}\.[0-9.]+' | head -n1):" \
  "--tool racecheck --racecheck-report hazard ${options[*]}"
failures=0
summary_rows=()
for entry in "${cases[@]}"; do
  read -r kernel size <<<"$entry"
  log="$log_dir/racecheck_${kernel}_${size}.log"
  if ! model=$("$model_hazards" "$kernel" "$size"); then
    echo "$kernel at $size: model_hazards failed"
    failures=$((failures + 1))
    continue
  fi
  racecheck "$log" "$kernel" "$size" "${options[@]}"
  found=$(racecheck_hazards "$log")
  parsed=$(printf '%s\n' "$found" | awk 'NF { n += $4 } END { print n + 0 }')
  # "RACECHECK SUMMARY: 100 hazards displayed (7616 errors, 9472 warnings)"
  read -r displayed counted < <(grep -oE 'SUMMARY: [0-9]+ hazards? displayed \([0-9]+ errors?, [0-9]+ warnings?' "$log" |
    grep -oE '[0-9]+' | paste -sd' ' - | awk '{ print $1, $2 + $3 }')
  verdict=match
  if ! grep -q 'RACECHECK SUMMARY' "$log"; then
    verdict="FAIL: racecheck did not finish (see $log)"
  elif [ "${displayed:-0}" -lt "${counted:-0}" ]; then
    verdict="FAIL: racecheck printed $displayed of $counted hazards: the comparison needs them all"
  elif [ "${displayed:-0}" -gt 0 ] && [ "$parsed" -eq 0 ]; then
    verdict="FAIL: racecheck printed $displayed hazards but none was parsed"
  elif [ -n "$model" ] && [ "$parsed" -eq 0 ]; then
    verdict="FAIL: the model has hazards, racecheck reported none"
  elif [ "$(by_lines <<<"$model")" != "$(by_lines <<<"$found")" ]; then
    verdict="FAIL: the racing lines or their severities differ"
  elif [ "$(warning_kinds <<<"$model")" != "$(warning_kinds <<<"$found")" ]; then
    verdict="FAIL: kinds within a warp differ"
  elif [ "$(error_kinds <<<"$model")" != "$(error_kinds <<<"$found")" ]; then
    verdict="match (errors seen as $(error_kinds <<<"$found"))"
  fi
  [ "${verdict%% *}" = FAIL: ] && failures=$((failures + 1))
  echo "$kernel at M=N=K=$size: $verdict"
  echo "  model:     $(listing <<<"$model")"
  echo "  racecheck: $(listing <<<"$found")"
  summary_rows+=("$(printf '%-18s %-4s %-44s %-44s %s' "$kernel" "$size" "$(kinds <<<"$model")" \
    "$(kinds <<<"$found")" "$verdict")")
done

echo
printf '%-18s %-4s %-44s %-44s %s\n' kernel size "model (kind severity, program order)" \
  "racecheck (kind severity, as it saw them)" verdict
printf '%s\n' "${summary_rows[@]}"
echo "racecheck logs: $log_dir"
if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures of ${#cases[@]} variants differ from the model"
  exit 1
fi
echo "PASS: racecheck flags the model's racing lines and severities on all ${#cases[@]} variants"
