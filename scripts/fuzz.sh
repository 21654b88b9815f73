#!/usr/bin/env bash
# Fuzzes TileScope's file readers with libFuzzer, under ASan and UBSan (clang and
# libclang-rt-14-dev from Debian's packages: scripts/setup.sh installs them).
#   scripts/fuzz.sh [BUILD_DIR]   (default: build-fuzz)
# FUZZ_SECONDS   time for the reader with the most code behind it, the student-kernel front end
# (default 60, as scripts/build.sh test, and so CI, runs it); each other target gets a share of it
# by the code it reaches (share below), so the time goes where the surface is;
# FUZZ_TARGETS   which (default: all eight); JOBS   build parallelism and targets fuzzed at once
# (default: the number of cores).
#
# Each target starts from its seeds (files TileScope ships, or its tests write) and its
# regression inputs (tests/fuzz/regressions/TARGET); the corpus it grows is kept in
# BUILD_DIR/corpus/TARGET for the next run. A crash (or a hang, or running out of memory) is
# saved as BUILD_DIR/crashes/TARGET/crash-<sha1> (timeout-, oom-) and the script fails,
# printing the input in base64 too, so a CI log alone is enough to get it back: fix the bug,
# then put the input into tests/fuzz/regressions/TARGET so CTest replays it in every build.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-build-fuzz}
seconds=${FUZZ_SECONDS:-60}
# libFuzzer reads -max_total_time=0 as "no limit": refuse it rather than fuzz for ever.
case "$seconds" in
  ''|0|*[!0-9]*) echo "scripts/fuzz.sh: FUZZ_SECONDS must be a whole number of seconds above 0, not '$seconds'" >&2
                 exit 2 ;;
esac
read -r -a targets <<<"${FUZZ_TARGETS:-fuzz_lesson fuzz_lesson_tour fuzz_test_vectors fuzz_results_csv fuzz_results_json fuzz_settings fuzz_actions fuzz_kernel_file}"
jobs=${JOBS:-$(nproc)}
start=$(date +%s)

# -O1 -g1 (clang's -Og, scripts/sanitize.sh's level): file and line in a crash's stack, a quicker
# build on two cores.
CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DTILESCOPE_WITH_CUDA=OFF -DTILESCOPE_SANITIZE=ON -DTILESCOPE_FUZZ=ON >/dev/null
cmake --build "$dir" -j "$jobs" --target "${targets[@]}" write_test_vectors
"$dir/write_test_vectors" "$dir/seeds/vectors" >/dev/null
python3 scripts/fuzz-seeds.py "$dir/seeds" >/dev/null
built=$(date +%s)

# TARGET's percent of FUZZ_SECONDS, by the lines of the reader it drives (2026-11-28): the
# front end (lexer, preprocessor, parser, compiler: 2.5k) all of it; lesson files with their
# tours (1.2k) and lessons alone (0.4k + validation) most; settings, results and test vectors
# (0.1k-0.4k each) and --actions (0.1k) the least. At 60 s: 208 s of fuzzing, not 480.
share() {
  case $1 in
    fuzz_kernel_file) echo 100 ;;
    fuzz_lesson_tour) echo 75 ;;
    fuzz_lesson) echo 50 ;;
    fuzz_settings|fuzz_results_json) echo 33 ;;
    fuzz_results_csv) echo 25 ;;
    fuzz_test_vectors|fuzz_actions) echo 17 ;;
  esac
}

seeds() {  # TARGET: the seed files
  case $1 in
    fuzz_lesson|fuzz_lesson_tour) echo assets/lessons/*.json ;;
    fuzz_test_vectors) echo "$dir"/seeds/vectors/*.bin ;;
    fuzz_results_csv) echo docs/results/h100-bench.csv ;;
    fuzz_results_json) echo docs/results/h100-bench.json docs/screenshots/live-h100.json ;;
    fuzz_settings|fuzz_actions) echo "$dir"/seeds/"$1"/* ;;
    fuzz_kernel_file) echo tests/sim/kernels/*.cu ;;
  esac
}

# One target: its log in BUILD_DIR/TARGET.log, its summary line in BUILD_DIR/TARGET.summary;
# fails on a crash, after printing the crash and its input.
fuzz_target() {  # TARGET
  local target=$1 corpus=$dir/corpus/$1 crashes=$dir/crashes/$1 log=$dir/$1.log began verdict=ok failed=0
  local target_seconds=$(( seconds * $(share "$target") / 100 ))
  [ "$target_seconds" -ge 1 ] || target_seconds=1
  mkdir -p "$corpus" "$crashes"
  # shellcheck disable=SC2046  # the seed list is split on purpose
  cp $(seeds "$target") tests/fuzz/regressions/"$target"/* "$corpus"/
  began=$(date +%s)
  # The first folder receives new inputs; -timeout: one input running 10 s is a hang.
  if ! "$dir/$target" -max_total_time="$target_seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1; then
    verdict="CRASH (see $log and $crashes)"
    failed=1
    {
      tail -n 40 "$log"
      # This run's inputs only: an earlier run's are still in the folder of a kept build dir.
      find "$crashes" -type f -newermt "@$((began - 1))" | while read -r input; do
        echo "== $input ($(stat -c %s "$input") bytes), base64 (base64 -d > tests/fuzz/regressions/$target/NAME):"
        head -c 65536 "$input" | base64
      done
    } >&2
  fi
  printf '%-20s %12s executions in %s s (%s/s), corpus %s inputs: %s\n' "$target" \
    "$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")" "$target_seconds" \
    "$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")" "$(find "$corpus" -type f | wc -l)" "$verdict" \
    >"$dir/$target.summary"
  return $failed
}

# Each target is one process on one core, so JOBS of them run at once: on CI's two cores the
# eight take about half their summed time.
status=0
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz_target "$target" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done

for target in "${targets[@]}"; do cat "$dir/$target.summary"; done
echo "scripts/fuzz.sh: build $((built - start)) s, fuzzing $(($(date +%s) - built)) s ($jobs targets at a time)"
exit $status
