// The broadcast instructions on a 64x256 f32 tile through the public API: TROWEXPANDSUB and
// TROWEXPANDMUL with one value per row (a 64x1 column-major vector), TCOLEXPANDSUB with one value per
// column, each against memcpy of the bytes it moves (the full source read and dst written; the vector
// is negligible), timed in the same run in CPU time of the thread:
//   ratio_vs_memcpy  instruction time / memcpy time (below 1: faster than memcpy)
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include "memcpy_yardstick.hpp"

using namespace pto;

namespace {

constexpr int kRows = 64, kCols = 256;
using Full = Tile<TileType::Vec, float, kRows, kCols>;
using Column = Tile<TileType::Vec, float, kRows, 1, BLayout::ColMajor>;
using Row = Tile<TileType::Vec, float, 1, kCols>;

struct Operands {
    Full src, dst;
    Column column;
    Row row;
    Operands()
    {
        TASSIGN(src, 0x0);
        TASSIGN(dst, Full::SizeInBytes);
        TASSIGN(column, 2 * Full::SizeInBytes);
        TASSIGN(row, 2 * Full::SizeInBytes + Column::SizeInBytes);
        for (int i = 0; i < Full::Numel; ++i) src.SetValue(i, 0.25f * float(i % 97) - 7.0f);
        for (int i = 0; i < kRows; ++i) column.SetValue(i, 1.0f + 0.125f * float(i % 13));
        for (int j = 0; j < kCols; ++j) row.SetValue(j, 2.0f - 0.0625f * float(j % 11));
    }
};

void BM_TROWEXPANDSUB(benchmark::State& state)
{
    Operands o;
    time_against_memcpy(state, Full::SizeInBytes, 2 * Full::SizeInBytes, [&] { TROWEXPANDSUB(o.dst, o.src, o.column); });
}
void BM_TROWEXPANDMUL(benchmark::State& state)
{
    Operands o;
    time_against_memcpy(state, Full::SizeInBytes, 2 * Full::SizeInBytes, [&] { TROWEXPANDMUL(o.dst, o.src, o.column); });
}
void BM_TCOLEXPANDSUB(benchmark::State& state)
{
    Operands o;
    time_against_memcpy(state, Full::SizeInBytes, 2 * Full::SizeInBytes, [&] { TCOLEXPANDSUB(o.dst, o.src, o.row); });
}

}  // namespace

BENCHMARK(BM_TROWEXPANDSUB);
BENCHMARK(BM_TROWEXPANDMUL);
BENCHMARK(BM_TCOLEXPANDSUB);
BENCHMARK_MAIN();
