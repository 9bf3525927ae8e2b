#!/usr/bin/env bash
# The main job: builds the vector-add example and runs it end to end (in fast mode, then checked).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTOSIM_BUILD_TESTS=ON -DPTOSIM_BUILD_EXAMPLES=ON -DPTOSIM_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target vector_add
"$build"/examples/vector_add "$@"
PTO_CHECK=1 "$build"/examples/vector_add 1000 3000 4
