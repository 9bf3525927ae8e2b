// TADD on 64x256 tiles of float and half through the public API, against two yardsticks timed in the
// same run over the same tiles:
//   ratio_vs_scalar  ptosim time / time of the plain loop a kernel author would write (c[i] = a[i] + b[i],
//                    compiled with this program's flags: the compiler may vectorise it for the
//                    baseline target, but it has no run-time dispatch)
//   ratio_vs_memcpy  ptosim time / time of memcpy moving as many bytes as TADD reads and writes
// Below 1 means ptosim is faster than the yardstick.
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <vector>

using namespace pto;

namespace {

using Clock = std::chrono::steady_clock;

template <typename Fn>
double seconds_per_call(int64_t calls, Fn&& fn)
{
    const auto start = Clock::now();
    for (int64_t i = 0; i < calls; ++i) {
        fn();
        benchmark::ClobberMemory();
    }
    return std::chrono::duration<double>(Clock::now() - start).count() / static_cast<double>(calls);
}

// The yardstick loop. For half, `+` is numeric.hpp's: widen both to float, add, round once.
template <typename T>
void plain_add(const T* a, const T* b, T* c, int n)
{
    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

template <typename T>
void BM_TADD_64x256(benchmark::State& state)
{
    constexpr int kRows = 64, kCols = 256;
    using TileT = Tile<TileType::Vec, T, kRows, kCols>;
    TileT a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, TileT::SizeInBytes);
    TASSIGN(c, 2 * TileT::SizeInBytes);
    for (int i = 0; i < TileT::Numel; ++i) {
        a.SetValue(i, T(0.25f * float(i % 97) - 7.0f));
        b.SetValue(i, T(1.0f + 0.125f * float(i % 13)));
    }

    const auto start = Clock::now();
    for (auto _ : state) {
        TADD(c, a, b);
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double ptosim = std::chrono::duration<double>(Clock::now() - start).count() / static_cast<double>(calls);

    const double scalar = seconds_per_call(calls, [&] { plain_add(a.data(), b.data(), c.data(), TileT::Numel); });
    std::vector<std::byte> from(3 * TileT::SizeInBytes / 2), to(from.size());
    const double copy = seconds_per_call(calls, [&] { std::memcpy(to.data(), from.data(), from.size()); });

    state.SetBytesProcessed(calls * 3 * static_cast<int64_t>(TileT::SizeInBytes));
    state.counters["ratio_vs_scalar"] = ptosim / scalar;
    state.counters["ratio_vs_memcpy"] = ptosim / copy;
    state.counters["ns_per_element"] = ptosim * 1e9 / TileT::Numel;
}

}  // namespace

BENCHMARK_TEMPLATE(BM_TADD_64x256, float);
BENCHMARK_TEMPLATE(BM_TADD_64x256, half);

BENCHMARK_MAIN();
