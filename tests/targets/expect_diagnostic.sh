#!/usr/bin/env bash
# expect_diagnostic.sh CODE COMMAND...: passes when COMMAND exits with status 1 and prints error[CODE].
code=$1
shift
out=$("$@" 2>&1)
status=$?
echo "$out"
if [ "$status" -ne 1 ]; then
  echo "expected exit status 1, got $status" >&2
  exit 1
fi
if ! grep -qF "error[$code]" <<<"$out"; then
  echo "expected a diagnostic error[$code]" >&2
  exit 1
fi
