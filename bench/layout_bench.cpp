// TTRANS of 256 x 256 tiles (f32 and a 16-bit type; automatic storage, as two of them exceed UB) against
// memcpy of the same bytes (bench/memcpy_yardstick.hpp).
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include "memcpy_yardstick.hpp"

using namespace pto;

namespace {

template <typename T>
void BM_Ttrans(benchmark::State& state)
{
    constexpr int N = 256;
    Tile<TileType::Vec, T, N, N> src, dst;
    Tile<TileType::Vec, T, 1, 32 / sizeof(T)> tmp;
    for (int i = 0; i < N * N; ++i) src.SetValue(uint32_t(i), T(float(i % 1000)));
    constexpr size_t bytes = size_t(N) * N * sizeof(T);
    time_against_memcpy(state, bytes, bytes, [&] { TTRANS(dst, src, tmp); });
}

BENCHMARK(BM_Ttrans<float>)->Name("TTRANS_f32_256x256");
BENCHMARK(BM_Ttrans<half>)->Name("TTRANS_f16_256x256");

}  // namespace

BENCHMARK_MAIN();
