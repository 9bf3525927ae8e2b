#!/usr/bin/env bash
# Drop-in source compatibility: installs the built library into a temporary prefix and builds
# tests/compat (a kernel and a GoogleTest harness in the style of the PTO Tile Lib test programs)
# against the installed package twice, with find_package(ptosim) and with a plain compiler command
# line (-I<prefix>/include -D__CPU_SIM ... -lptosim -lhwy), then generates the golden files and runs
# both binaries. Expects an up-to-date build in BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

# 1. find_package(ptosim)
cmake -S tests/compat -B "$work/cmake/bin" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake/bin" >/dev/null

# 2. a plain compiler command line
mkdir -p "$work/plain/bin"
${CXX:-c++} -std=c++20 -O2 -D__CPU_SIM -I"$prefix/include" tests/compat/main.cpp tests/compat/compat_kernel.cpp \
    -o "$work/plain/bin/compat_test" -L"$prefix/lib" -lptosim -lhwy -lgtest_main -lgtest -pthread

# The harness reads ../<suite>.<case>/ from the directory it runs in, as the public programs do.
for variant in cmake plain; do
  "$work/cmake/bin/compat_gen" "$work/$variant" >/dev/null
  (cd "$work/$variant/bin" && ./compat_test --gtest_brief=1)
  (cd "$work/$variant/bin" && PTO_CHECK=1 ./compat_test --gtest_brief=1)
  echo "compat ($variant build): passed"
done
