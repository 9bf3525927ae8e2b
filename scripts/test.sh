#!/usr/bin/env bash
# Builds everything (library, tests, examples, benchmarks), fuzzes the PTO-AS front end briefly
# (FUZZ_SECONDS, default 60; 0 skips it), then runs every test. The fuzz step replays a fixed seed for
# a fixed number of inputs, so a green run here is green in CI; scripts/fuzz.sh alone explores anew.
# The compatibility test (scripts/compat_test.sh) builds tests/compat against an installed copy.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTOSIM_BUILD_TESTS=ON -DPTOSIM_BUILD_EXAMPLES=ON -DPTOSIM_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
BUILD_DIR="$build" scripts/compat_test.sh  # the public test-program style, built against the installed package
if [ "${FUZZ_SECONDS:-60}" -gt 0 ]; then
  FUZZ_SEED=${FUZZ_SEED:-1} FUZZ_RUNS=${FUZZ_RUNS:-60000} scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
fi
ctest --test-dir "$build" -j"$(nproc)" --output-on-failure
# The suite again in the adversarial schedule (pto/runtime/schedule.hpp): kernels whose synchronisation
# is complete give the same bytes. The synchronisation checker's own tests stay out: it does not run in
# that schedule.
PTO_SCHEDULE=adversarial ctest --test-dir "$build" -j"$(nproc)" --output-on-failure -E '^(OrderCheck|CrossCoreOrder)\.'
