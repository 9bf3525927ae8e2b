#!/usr/bin/env bash
# Builds everything (library, tests, examples, benchmarks) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTOSIM_BUILD_TESTS=ON -DPTOSIM_BUILD_EXAMPLES=ON -DPTOSIM_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" -j"$(nproc)" --output-on-failure
