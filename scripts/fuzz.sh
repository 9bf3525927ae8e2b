#!/usr/bin/env bash
# Fuzzes the PTO-AS front end (parser, verifier, printer round trip) for SECONDS (default 60) with
# libFuzzer, AddressSanitizer and UBSan. Fails on any crash, leak, timeout or out-of-memory; the
# input that caused it is left in build-fuzz/artifacts/. FUZZ_SEED and FUZZ_RUNS (default: random seed,
# no limit) make a run repeatable: the same seed and number of inputs replay the same run.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/deps.sh
build=${FUZZ_BUILD_DIR:-build-fuzz}

# libFuzzer's runtime ships apart from clang on Debian (libclang-rt-<major>-dev).
scripts/deps.sh "libclang-rt-$(clang++ -dumpversion | cut -d. -f1)-dev"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DPTOSIM_BUILD_FUZZ=ON -DPTOSIM_BUILD_TESTS=OFF -DPTOSIM_BUILD_EXAMPLES=OFF -DPTOSIM_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target pto_as_fuzzer

# The seeds are the example and test programs; the fuzzer grows its own copy of them.
corpus="$build/corpus"
[ "${FUZZ_SEED:-0}" != 0 ] && rm -rf "$corpus"  # a replay starts from the seeds alone
mkdir -p "$corpus" "$build/artifacts"
for seed in examples/pto/*.pto tests/asm/programs/*.pto tests/asm/fuzz_regressions/*.pto; do
  if [ -e "$seed" ]; then cp "$seed" "$corpus/$(echo "$seed" | tr / _)"; fi  # two folders hold a multi_tile_loop.pto
done

"$build"/fuzz/pto_as_fuzzer "$corpus" -dict=fuzz/pto_as.dict -max_total_time="$seconds" \
  -seed="${FUZZ_SEED:-0}" -runs="${FUZZ_RUNS:--1}" \
  -rss_limit_mb=2048 -timeout=10 -max_len=8192 -print_final_stats=1 \
  -artifact_prefix="$build/artifacts/"
