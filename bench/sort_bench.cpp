// TMRGSORT merging four sorted lists of 2048 (value, index) pairs against std::merge done pairwise on the
// same pairs (two merges of two lists, then one of the two results), in the same run: ratio_vs_std_merge
// below 1 is faster than the yardstick. Both sides cycle through kInstances random instances: repeating
// one instance lets the branch predictor learn std::merge's 16384 branches by heart, which no real merge
// enjoys.
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "thread_clock.hpp"

using namespace pto;

namespace {

constexpr int kPairs = 2048;
constexpr int kInstances = 64;

struct Pair {
    float value;
    uint32_t index;
};

void BM_TmrgsortFourLists(benchmark::State& state)
{
    using List = Tile<TileType::Vec, float, 1, 2 * kPairs>;
    using Merged = Tile<TileType::Vec, float, 1, 8 * kPairs>;
    std::mt19937 rng(1);
    std::vector<std::vector<Pair>> lists(4 * kInstances);
    std::vector<List> src(4 * kInstances);
    for (int l = 0; l < 4 * kInstances; ++l) {
        for (int k = 0; k < kPairs; ++k) lists[size_t(l)].push_back({std::uniform_real_distribution<float>(-1e3f, 1e3f)(rng), uint32_t(l % 4 * kPairs + k)});
        std::sort(lists[size_t(l)].begin(), lists[size_t(l)].end(), [](const Pair& a, const Pair& b) { return a.value > b.value; });
        std::memcpy(src[size_t(l)].data(), lists[size_t(l)].data(), sizeof(Pair) * kPairs);
    }
    Merged dst, tmp;
    MrgSortExecutedNumList executed;

    const double start = thread_seconds();
    int64_t calls = 0;
    for (auto _ : state) {
        List* in = &src[size_t(calls++ % kInstances) * 4];
        TMRGSORT<Merged, Merged, List, List, List, List, false>(dst, executed, tmp, in[0], in[1], in[2], in[3]);
        benchmark::ClobberMemory();
    }
    const double ours = (thread_seconds() - start) / double(calls);

    std::vector<Pair> low(2 * kPairs), high(2 * kPairs), all(4 * kPairs);
    const auto greater = [](const Pair& a, const Pair& b) { return a.value > b.value; };
    const double yard_start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        const std::vector<Pair>* in = &lists[size_t(i % kInstances) * 4];
        std::merge(in[0].begin(), in[0].end(), in[1].begin(), in[1].end(), low.begin(), greater);
        std::merge(in[2].begin(), in[2].end(), in[3].begin(), in[3].end(), high.begin(), greater);
        std::merge(low.begin(), low.end(), high.begin(), high.end(), all.begin(), greater);
        benchmark::ClobberMemory();
    }
    const double yardstick = (thread_seconds() - yard_start) / double(calls);
    // Both sides merged the same last instance.
    if (std::memcmp(all.data(), dst.data(), sizeof(Pair) * 4 * kPairs) != 0) state.SkipWithError("TMRGSORT and std::merge disagree");
    state.counters["ratio_vs_std_merge"] = ours / yardstick;
    state.SetItemsProcessed(calls * 4 * kPairs);
}

BENCHMARK(BM_TmrgsortFourLists)->Name("TMRGSORT_f32_4x2048");

}  // namespace

BENCHMARK_MAIN();
