#!/usr/bin/env bash
# Ctrl+C during `tilescope bench`: the sweep stops after the launch in flight, says so, exits
# 130, and the CSV and JSON still hold every result measured before it (issue 5).
#
#   bench_interrupt_test.sh TILESCOPE
#
# Skips (exit 0, "SKIPPED:" for CTest) where there is no GPU.
set -uo pipefail
tilescope=${1:?usage: bench_interrupt_test.sh TILESCOPE}

probe=$("$tilescope" bench --kernels tiled16 --sizes 4 --reps 1 --warmups 0 2>&1)
if [ $? -eq 3 ]; then
  echo "SKIPPED: no GPU: ${probe}"
  exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; cat "$dir/out.txt"; exit 1; }

# A sweep of 4 kernels x 6 sizes; the naive kernel alone takes seconds at 8192. Job control
# on, so the background job does not start with SIGINT ignored, as a script's jobs do.
set -m
"$tilescope" bench --kernels naive,tiled8,tiled16,tiled32 --sizes 256:8192 --reps 10 \
  --csv "$dir/r.csv" --json "$dir/r.json" >"$dir/out.txt" 2>&1 &
bench=$!
# Interrupt once a few rows are in, long before the 24th.
for _ in $(seq 1 600); do
  [ "$(grep -cE '^(naive|tiled[0-9]+) ' "$dir/out.txt")" -ge 3 ] && break
  sleep 0.05
done
# To the whole process group, as a terminal's Ctrl+C: the GPU worker process gets it too,
# and must leave the stopping to the app.
kill -INT -- "-$bench"
start=$(date +%s%N)
wait "$bench"
status=$?
stop_ms=$(( ($(date +%s%N) - start) / 1000000 ))

rows=$(grep -cE '^(naive|tiled[0-9]+) ' "$dir/out.txt")
[ "$status" -eq 130 ] || fail "exit status $status after Ctrl+C, expected 130"
grep -q "stopped by Ctrl+C after $rows results" "$dir/out.txt" || fail "no 'stopped by Ctrl+C after $rows results'"
! grep -q "GPU worker" "$dir/out.txt" || fail "Ctrl+C ended the GPU worker instead of stopping the sweep"
[ "$rows" -ge 3 ] && [ "$rows" -lt 24 ] || fail "$rows of 24 rows printed: the sweep did not stop early"
csv_rows=$(grep -cE '^(naive|tiled[0-9]+),' "$dir/r.csv")
[ "$csv_rows" -eq "$rows" ] || fail "the CSV holds $csv_rows results, the table printed $rows"
json_rows=$(grep -c '"kernel"' "$dir/r.json")
[ "$json_rows" -eq "$rows" ] || fail "the JSON holds $json_rows results, the table printed $rows"
echo "stopped ${stop_ms} ms after Ctrl+C with $rows of 24 results, all written to CSV and JSON"
echo "PASS"
