#!/usr/bin/env bash
# Builds everything (library, tests, examples, benchmarks), fuzzes the PTO-AS front end briefly
# (FUZZ_SECONDS, default 60; 0 skips it), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTOSIM_BUILD_TESTS=ON -DPTOSIM_BUILD_EXAMPLES=ON -DPTOSIM_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
if [ "${FUZZ_SECONDS:-60}" -gt 0 ]; then
  scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
fi
ctest --test-dir "$build" -j"$(nproc)" --output-on-failure
