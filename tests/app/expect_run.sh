#!/usr/bin/env bash
# Runs a command and checks its exit status and that its output (stdout+stderr) matches a
# pattern: expect_run.sh STATUS REGEX -- COMMAND [ARGS...]
set -u
want_status=$1; pattern=$2; shift 3
output=$("$@" 2>&1); status=$?
printf '%s\n' "$output"
if [ "$status" -ne "$want_status" ]; then
  echo "FAIL: exit status $status, expected $want_status"; exit 1
fi
if ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
  echo "FAIL: output does not match /$pattern/"; exit 1
fi
echo "PASS"
