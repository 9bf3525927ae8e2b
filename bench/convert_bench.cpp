// TCVT on 64x256 tiles through the public API (CAST_RINT, the pair's default saturation), against two
// yardsticks timed in the same run over the same tiles:
//   ratio_vs_scalar  ptosim time / time of the scalar reference loop: every element converted on its own
//                    by numeric's conversion (numeric::convert of one element), as a reference
//                    implementation would
//   ratio_vs_memcpy  ptosim time / time of memcpy moving as many bytes as TCVT reads and writes
// Below 1 means ptosim is faster than the yardstick. All three are timed in CPU time of the thread
// (thread_clock.hpp), so that none is charged for time spent descheduled.
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "thread_clock.hpp"

using namespace pto;

namespace {

template <typename Fn>
double seconds_per_call(int64_t calls, Fn&& fn)
{
    const double start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        fn();
        benchmark::ClobberMemory();
    }
    return (thread_seconds() - start) / static_cast<double>(calls);
}

// The yardstick loop: one element per call of numeric's conversion.
void scalar_reference(engine::DType dst_type, std::byte* dst, engine::DType src_type, const std::byte* src, int count,
                      SaturationMode sat)
{
    const int dst_bytes = engine::dtype_bits(dst_type) / 8, src_bytes = engine::dtype_bits(src_type) / 8;
    for (int i = 0; i < count; ++i) {
        numeric::convert(dst_type, dst + i * dst_bytes, src_type, src + i * src_bytes, 1, RoundMode::CAST_RINT, sat);
    }
}

template <typename Dst, typename Src>
void BM_TCVT_64x256(benchmark::State& state)
{
    constexpr int kRows = 64, kCols = 256;
    using SrcTile = Tile<TileType::Vec, Src, kRows, kCols>;
    using DstTile = Tile<TileType::Vec, Dst, kRows, kCols>;
    SrcTile src;
    DstTile dst;
    TASSIGN(src, 0x0);
    TASSIGN(dst, SrcTile::SizeInBytes);
    for (int i = 0; i < SrcTile::Numel; ++i) src.SetValue(i, Src(0.37f * float(i % 1013) - 150.0f));

    const double start = thread_seconds();
    for (auto _ : state) {
        TCVT(dst, src, RoundMode::CAST_RINT);
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double ptosim = (thread_seconds() - start) / static_cast<double>(calls);

    constexpr engine::DType dst_type = engine::dtype_of<Dst>, src_type = engine::dtype_of<Src>;
    const SaturationMode sat = numeric::default_saturation(dst_type, src_type);
    auto* to = reinterpret_cast<std::byte*>(dst.data());
    const auto* from = reinterpret_cast<const std::byte*>(src.data());
    // The scalar loop is about a hundred times slower: a 64th of the calls times it as precisely.
    const double scalar = seconds_per_call(std::max<int64_t>(1, calls / 64), [&] {
        scalar_reference(dst_type, to, src_type, from, SrcTile::Numel, sat);
    });
    const std::size_t moved = SrcTile::SizeInBytes + DstTile::SizeInBytes;
    std::vector<std::byte> copy_from(moved / 2), copy_to(moved / 2);
    const double copy = seconds_per_call(calls, [&] { std::memcpy(copy_to.data(), copy_from.data(), copy_from.size()); });

    state.SetBytesProcessed(calls * static_cast<int64_t>(moved));
    state.counters["ratio_vs_scalar"] = ptosim / scalar;
    state.counters["ratio_vs_memcpy"] = ptosim / copy;
    state.counters["ns_per_element"] = ptosim * 1e9 / SrcTile::Numel;
}

}  // namespace

BENCHMARK_TEMPLATE(BM_TCVT_64x256, half, float);
BENCHMARK_TEMPLATE(BM_TCVT_64x256, bfloat16_t, float);
BENCHMARK_TEMPLATE(BM_TCVT_64x256, float, half);
BENCHMARK_TEMPLATE(BM_TCVT_64x256, int32_t, float);

BENCHMARK_MAIN();
