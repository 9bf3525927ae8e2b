// Row and column reductions through the public API, each against memcpy of the source bytes (what any
// reduction must at least read), timed in the same run in CPU time of the thread:
//   ratio_vs_memcpy  ptosim time / memcpy time of the source tile's bytes
// Below 1 means the reduction is faster than copying its source.
//
// BM_TROWSUM_64x256, BM_TROWMAX_64x256   float rows of 256 into a DN column of 64 results
// BM_TCOLSUM_256x64                       float columns of 256 into a row of 64 results
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "thread_clock.hpp"

using namespace pto;

namespace {

// Times `reduce` against memcpy of `source_bytes`, as many calls of each.
template <typename Reduce>
void time_against_memcpy(benchmark::State& state, std::size_t source_bytes, Reduce&& reduce)
{
    const double start = thread_seconds();
    for (auto _ : state) {
        reduce();
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double ours = (thread_seconds() - start) / static_cast<double>(calls);

    std::vector<std::byte> from(source_bytes), to(source_bytes);
    const double copy_start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        std::memcpy(to.data(), from.data(), from.size());
        benchmark::ClobberMemory();
    }
    const double copy = (thread_seconds() - copy_start) / static_cast<double>(calls);

    state.SetBytesProcessed(calls * static_cast<int64_t>(source_bytes));
    state.counters["ratio_vs_memcpy"] = ours / copy;
}

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
    time_against_memcpy(state, Src::SizeInBytes, [&] {
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
    time_against_memcpy(state, Src::SizeInBytes, [&] { TCOLSUM(dst, src); });
}

}  // namespace

BENCHMARK(BM_TROWSUM_64x256);
BENCHMARK(BM_TROWMAX_64x256);
BENCHMARK(BM_TCOLSUM_256x64);

BENCHMARK_MAIN();
