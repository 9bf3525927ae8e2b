// The seed tile instructions against yardsticks timed in the same run:
//   TSORT32 (1024 x 1024 floats)      vs std::stable_sort of the same 32-element blocks into pairs;
//   TGATHER, index form               vs a plain scalar gather loop (f32 by int32 indices, f16 by uint16).
// Each reports ratio_vs_* = instruction time / yardstick time (below 1: the instruction is faster).
#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/gather.hpp>
#include <pto/engine/ops/sort.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <vector>

#include "thread_clock.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using pto::engine::DType;
using pto::engine::TileDesc;

TileDesc row_major(DType t, void* data, int rows, int cols)
{
    TileDesc d;
    d.data = static_cast<std::byte*>(data);
    d.dtype = t;
    d.rows = d.valid_rows = rows;
    d.cols = d.valid_cols = cols;
    return d;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The yardstick: each block's (value, index) pairs through std::stable_sort, written as 8-byte pairs.
void stable_sort_blocks(const float* values, const uint32_t* indices, float* pairs, int rows, int cols)
{
    struct Pair {
        float value;
        uint32_t index;
    };
    Pair block[32];
    for (int r = 0; r < rows; ++r) {
        for (int start = 0; start < cols; start += 32) {
            const int n = std::min(32, cols - start);
            for (int i = 0; i < n; ++i) block[i] = {values[r * cols + start + i], indices[r * cols + start + i]};
            std::stable_sort(block, block + n, [](const Pair& a, const Pair& b) {
                return a.value > b.value || (a.value == b.value && a.index < b.index);
            });
            std::memcpy(pairs + (int64_t(r) * cols + start) * 2, block, sizeof(Pair) * static_cast<std::size_t>(n));
        }
    }
}

void BM_TSort32Float1024x1024(benchmark::State& state)
{
    constexpr int kRows = 1024, kCols = 1024;
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
    std::vector<float> values(kRows * kCols), pairs(2 * kRows * kCols), yard_pairs(2 * kRows * kCols);
    std::vector<uint32_t> indices(kRows * kCols);
    for (auto& v : values) v = dist(rng);
    for (int i = 0; i < kRows * kCols; ++i) indices[static_cast<std::size_t>(i)] = uint32_t(i % kCols);
    const TileDesc src = row_major(DType::F32, values.data(), kRows, kCols);
    const TileDesc idx = row_major(DType::U32, indices.data(), kRows, kCols);
    const TileDesc dst = row_major(DType::F32, pairs.data(), kRows, 2 * kCols);

    double instruction = 0, yardstick = 0;
    for (auto _ : state) {
        auto start = Clock::now();
        pto::engine::tsort32(dst, src, idx, nullptr);
        benchmark::ClobberMemory();
        const double t = seconds_since(start);
        instruction += t;
        state.SetIterationTime(t);
        start = Clock::now();
        stable_sort_blocks(values.data(), indices.data(), yard_pairs.data(), kRows, kCols);
        benchmark::ClobberMemory();
        yardstick += seconds_since(start);
    }
    if (std::memcmp(pairs.data(), yard_pairs.data(), pairs.size() * sizeof(float)) != 0) {
        state.SkipWithError("TSORT32 and the yardstick disagree");
    }
    state.counters["ratio_vs_stable_sort"] = instruction / yardstick;
    state.SetItemsProcessed(state.iterations() * kRows * kCols);
}
BENCHMARK(BM_TSort32Float1024x1024)->UseManualTime()->Unit(benchmark::kMillisecond);

// The yardstick: the plain scalar gather loop, compiled like the rest of this file.
template <typename T, typename Index>
void scalar_gather(T* out, const T* source, const Index* indices, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i) out[i] = source[indices[i]];
}

// Both are timed in CPU time of the thread over all of the run's calls (thread_clock.hpp), the yardstick
// for as many calls as the instruction, so that neither is charged for time spent descheduled nor for the
// clock's own cost.
template <typename T, DType kData, typename Index, DType kIndex>
void BM_TGatherIndex(benchmark::State& state)
{
    const int rows = static_cast<int>(state.range(0)), cols = static_cast<int>(state.range(1));
    std::mt19937 rng(43);
    std::vector<T> source(static_cast<std::size_t>(rows) * cols), out(source.size()), yard(source.size());
    std::vector<Index> indices(source.size());
    for (auto& v : source) v = T(rng() % 1000);
    for (auto& i : indices) i = Index(rng() % source.size());
    const TileDesc src = row_major(kData, source.data(), rows, cols);
    const TileDesc idx = row_major(kIndex, indices.data(), rows, cols);
    const TileDesc dst = row_major(kData, out.data(), rows, cols);

    double start = thread_seconds();
    for (auto _ : state) {
        pto::engine::tgather_index(dst, src, idx, nullptr);
        benchmark::ClobberMemory();
    }
    const double instruction = thread_seconds() - start;
    start = thread_seconds();
    for (int64_t call = 0; call < state.iterations(); ++call) {
        scalar_gather(yard.data(), source.data(), indices.data(), yard.size());
        benchmark::ClobberMemory();
    }
    const double yardstick = thread_seconds() - start;
    if (std::memcmp(out.data(), yard.data(), out.size() * sizeof(T)) != 0) {
        state.SkipWithError("TGATHER and the yardstick disagree");
    }
    state.counters["ratio_vs_scalar"] = instruction / yardstick;
    state.counters["ns_per_element"] = instruction * 1e9 / double(state.iterations()) / double(source.size());
    state.SetItemsProcessed(state.iterations() * rows * cols);
}
BENCHMARK(BM_TGatherIndex<float, DType::F32, int32_t, DType::I32>)
    ->Name("BM_TGatherIndexFloat")
    ->Args({64, 128})
    ->Args({64, 256})
    ->Args({256, 256})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TGatherIndex<uint16_t, DType::F16, uint16_t, DType::U16>)
    ->Name("BM_TGatherIndexHalfByU16")
    ->Args({64, 256})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
