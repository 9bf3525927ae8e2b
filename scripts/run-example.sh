#!/usr/bin/env bash
# The main job: builds the flash-attention example and runs it end to end at a real size (4 heads of
# 4096 tokens, D = 128), checked against the double-precision reference and timed against an OpenBLAS
# attention in the same run; then a causal run in checked mode. Arguments replace the first run's
# (SEQ D HEADS causal|full BLOCKS).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTOSIM_BUILD_TESTS=ON -DPTOSIM_BUILD_EXAMPLES=ON -DPTOSIM_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target flash_attention
if [ $# -gt 0 ]; then
    "$build"/examples/flash_attention "$@"
else
    "$build"/examples/flash_attention 4096 128 4 full 8
fi
PTO_CHECK=1 "$build"/examples/flash_attention 512 64 2 causal 4
