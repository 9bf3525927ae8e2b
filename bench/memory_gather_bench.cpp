// MGATHER Row: 4096 random rows of 256 bytes out of a 64 MiB table, gathered 256 rows at a time into a
// 64 KiB UB tile, against memcpy of the same rows into a buffer of the same size, measured in the same
// run. Counter ratio_vs_memcpy = MGATHER time / memcpy time (1.0 is memory-bandwidth bound).
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/memory_gather.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <random>
#include <vector>

using namespace pto;

namespace {

constexpr int kRowFloats = 64;                                   // 256-byte rows
constexpr int kTableRows = 64 * 1024 * 1024 / (kRowFloats * 4);  // 64 MiB
constexpr int kRowsPerTile = 256;                                // 64 KiB per gather
constexpr int kChunks = 4096 / kRowsPerTile;

using DstTile = Tile<TileType::Vec, float, kRowsPerTile, kRowFloats>;
using IdxTile = Tile<TileType::Vec, int32_t, 1, kRowsPerTile>;
using Table = GlobalTensor<float, Shape<1, 1, 1, kTableRows, kRowFloats>, Stride<1, 1, 1, kRowFloats, 1>>;

void BM_MGatherRandomRows(benchmark::State& state)
{
    std::vector<float> table_data(std::size_t(kTableRows) * kRowFloats);
    for (std::size_t i = 0; i < table_data.size(); i += 1024) table_data[i] = float(i);
    Table table(table_data.data());

    std::mt19937 rng(7);
    std::uniform_int_distribution<int32_t> pick(0, kTableRows - 1);
    std::vector<int32_t> rows(std::size_t(kChunks) * kRowsPerTile);
    for (auto& r : rows) r = pick(rng);

    DstTile dst;
    TASSIGN(dst, 0x0);
    std::vector<IdxTile> indices(kChunks);
    for (int k = 0; k < kChunks; ++k) {
        TASSIGN(indices[std::size_t(k)], 0x10000 + k * kRowsPerTile * 4);
        for (int r = 0; r < kRowsPerTile; ++r) indices[std::size_t(k)].SetValue(uint32_t(r), rows[std::size_t(k * kRowsPerTile + r)]);
    }
    std::vector<float> copy(std::size_t(kRowsPerTile) * kRowFloats);

    using Clock = std::chrono::steady_clock;
    double gather_seconds = 0, memcpy_seconds = 0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        for (int k = 0; k < kChunks; ++k) MGATHER<Coalesce::Row, GatherOOB::Clamp>(dst, table, indices[std::size_t(k)]);
        benchmark::DoNotOptimize(dst.data());
        const auto t1 = Clock::now();
        for (int k = 0; k < kChunks; ++k) {
            for (int r = 0; r < kRowsPerTile; ++r) {
                std::memcpy(copy.data() + std::size_t(r) * kRowFloats,
                            table_data.data() + std::size_t(rows[std::size_t(k * kRowsPerTile + r)]) * kRowFloats,
                            kRowFloats * sizeof(float));
            }
            benchmark::DoNotOptimize(copy.data());
            benchmark::ClobberMemory();
        }
        const auto t2 = Clock::now();
        gather_seconds += std::chrono::duration<double>(t1 - t0).count();
        memcpy_seconds += std::chrono::duration<double>(t2 - t1).count();
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * kChunks * kRowsPerTile * kRowFloats * int64_t(sizeof(float)));
    state.counters["ratio_vs_memcpy"] = memcpy_seconds > 0 ? gather_seconds / memcpy_seconds : 0.0;
}

}  // namespace

BENCHMARK(BM_MGatherRandomRows)->UseManualTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
