// TQUANT on a 64x256 f32 tile through the public API: INT8_SYM (per-row scale) and MXFP8 (OCP, groups of
// 32 along the rows), each against memcpy of the bytes the instruction moves, timed in the same run:
//   ratio_vs_memcpy  ptosim time / time of memcpy moving as many bytes as TQUANT reads and writes
// (int8: the f32 source in, the int8 result out; MXFP8: the source in, the e4m3 bytes, the E8M0
// exponents and the f32 max and scaling of each group out). Below 1 means ptosim is faster.
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include "memcpy_yardstick.hpp"

using namespace pto;

namespace {

constexpr int kRows = 64, kCols = 256, kGroups = kRows * kCols / 32;

// The yardstick moves as many bytes as TQUANT reads and writes; also the time per source element.
template <typename Fn>
void quantize_against_memcpy(benchmark::State& state, std::size_t bytes_moved, Fn&& quantize)
{
    const double seconds = time_against_memcpy(state, bytes_moved / 2, bytes_moved, quantize);
    state.counters["ns_per_element"] = seconds * 1e9 / (kRows * kCols);
}

using Src = Tile<TileType::Vec, float, kRows, kCols>;

void fill(Src& src)
{
    for (int i = 0; i < kRows * kCols; ++i) src.SetValue(uint32_t(i), 0.37f * float(i % 211) - 31.0f);
}

void BM_TQUANT_INT8_SYM_64x256(benchmark::State& state)
{
    Src src;
    Tile<TileType::Vec, int8_t, kRows, kCols> dst;
    Tile<TileType::Vec, float, kRows, 1, BLayout::ColMajor> scale;
    fill(src);
    for (int r = 0; r < kRows; ++r) scale.SetValue(uint32_t(r), 0.5f + 0.01f * float(r));
    quantize_against_memcpy(state, sizeof(float) * kRows * kCols + kRows * kCols, [&] { TQUANT<QuantType::INT8_SYM>(dst, src, scale); });
}

void BM_TQUANT_MXFP8_64x256(benchmark::State& state)
{
    Src src;
    Tile<TileType::Vec, int8_t, kRows, kCols> dst;
    Tile<TileType::Vec, uint8_t, 1, kGroups> exp;
    Tile<TileType::Vec, float, 1, kGroups> max, scaling;
    fill(src);
    quantize_against_memcpy(state, sizeof(float) * kRows * kCols + kRows * kCols + kGroups * (1 + 2 * sizeof(float)),
                            [&] { TQUANT<1, MxQuantAlg::OcpMxFp8E4M3>(dst, src, &exp, &max, &scaling); });
}

}  // namespace

BENCHMARK(BM_TQUANT_INT8_SYM_64x256);
BENCHMARK(BM_TQUANT_MXFP8_64x256);
BENCHMARK_MAIN();
