#!/usr/bin/env bash
# The tests under the sanitizers, each build in its own folder: AddressSanitizer with
# UndefinedBehaviorSanitizer (build-asan/), then ThreadSanitizer over the tests that run the blocks of a
# launch on several threads (build-tsan/, tests/launch only). Any finding fails the run
# (-fno-sanitize-recover). -O1 keeps the instrumented builds short; the tests still run in minutes.
# ASan builds the test folders of ASAN_TESTS (default: the runtime, launch, host API and checked mode;
# the PTO-AS front end, verifier, interpreter and command line; the examples; the data movement and the
# index-driven gathers and scatters), or every test with ASAN_TESTS=all (about twice the build time).
#   scripts/sanitize.sh [asan] [tsan]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(asan tsan)

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
configure() {  # configure BUILD_DIR SANITIZERS
  cmake -S . -B "$1" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG -fno-omit-frame-pointer -fsanitize=$2 -fno-sanitize-recover=all" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$2" \
    -DPTOSIM_BUILD_TESTS=ON -DPTOSIM_BUILD_EXAMPLES=OFF -DPTOSIM_BUILD_BENCH=OFF >/dev/null
}

for step in "${steps[@]}"; do
  case "$step" in
    asan)
      build=${ASAN_BUILD_DIR:-build-asan}
      configure "$build" address,undefined
      export ASAN_OPTIONS=detect_leaks=1:strict_init_order=1 UBSAN_OPTIONS=print_stacktrace=1
      tests=${ASAN_TESTS:-core launch checked asm verifier interpreter cli examples_cpp data_movement mgather mscatter tgather}
      if [ "$tests" = all ]; then
        cmake --build "$build" -j"$(nproc)"
        # install_and_find_package builds a consumer without the sanitizer runtimes: it belongs to the plain build.
        ctest --test-dir "$build" -j"$(nproc)" --output-on-failure -E '^install_and_find_package$'
      else
        targets=()
        for t in $tests; do targets+=("${t}_tests"); done
        cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
        for t in "${targets[@]}"; do
          echo "== $t (ASan + UBSan)"
          "$build/tests/$t" --gtest_brief=1
        done
      fi
      ;;
    tsan)
      build=${TSAN_BUILD_DIR:-build-tsan}
      configure "$build" thread
      cmake --build "$build" -j"$(nproc)" --target launch_tests
      TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 "$build"/tests/launch_tests
      ;;
    *)
      echo "usage: scripts/sanitize.sh [asan] [tsan]" >&2
      exit 2
      ;;
  esac
done
