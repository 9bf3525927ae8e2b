// Row and column reductions through the public API, each against memcpy of the source bytes (what any
// reduction must at least read), timed in the same run in CPU time of the thread:
//   ratio_vs_memcpy  ptosim time / memcpy time of the source tile's bytes
// Below 1 means the reduction is faster than copying its source.
//
// BM_TROWSUM_64x256, BM_TROWMAX_64x256   float rows of 256 into a DN column of 64 results
// BM_TCOLSUM_256x64                       float columns of 256 into a row of 64 results
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include "memcpy_yardstick.hpp"

using namespace pto;

namespace {

template <typename TileT>
void fill(TileT& t)
{
    for (int i = 0; i < TileT::Numel; ++i) t.SetValue(i, 0.25f * float(i % 97) - 7.0f);
}

template <bool kMax>
void BM_RowReduce_64x256(benchmark::State& state)
{
    using Src = Tile<TileType::Vec, float, 64, 256>;
    using Dst = Tile<TileType::Vec, float, 64, 1, BLayout::ColMajor>;
    Src src, tmp;
    Dst dst;
    TASSIGN(src, 0x0);
    TASSIGN(tmp, Src::SizeInBytes);
    TASSIGN(dst, 2 * Src::SizeInBytes);
    fill(src);
    time_against_memcpy(state, Src::SizeInBytes, Src::SizeInBytes, [&] {
        if constexpr (kMax) TROWMAX(dst, src, tmp);
        else TROWSUM(dst, src, tmp);
    });
}

void BM_TROWSUM_64x256(benchmark::State& state) { BM_RowReduce_64x256<false>(state); }
void BM_TROWMAX_64x256(benchmark::State& state) { BM_RowReduce_64x256<true>(state); }

void BM_TCOLSUM_256x64(benchmark::State& state)
{
    using Src = Tile<TileType::Vec, float, 256, 64>;
    using Dst = Tile<TileType::Vec, float, 1, 64>;
    Src src;
    Dst dst;
    TASSIGN(src, 0x0);
    TASSIGN(dst, Src::SizeInBytes);
    fill(src);
    time_against_memcpy(state, Src::SizeInBytes, Src::SizeInBytes, [&] { TCOLSUM(dst, src); });
}

}  // namespace

BENCHMARK(BM_TROWSUM_64x256);
BENCHMARK(BM_TROWMAX_64x256);
BENCHMARK(BM_TCOLSUM_256x64);

BENCHMARK_MAIN();
