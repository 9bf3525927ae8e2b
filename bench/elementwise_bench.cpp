// Element-wise instructions on 64x256 tiles.
//
// BM_TADD_64x256: TADD of float and half through the public API, against two yardsticks timed in the
// same run over the same tiles:
//   ratio_vs_scalar  ptosim time / time of the plain loop a kernel author would write (c[i] = a[i] + b[i],
//                    compiled with this program's flags: the compiler may vectorise it for the
//                    baseline target, but it has no run-time dispatch)
//   ratio_vs_memcpy  ptosim time / time of memcpy moving as many bytes as TADD reads and writes
// Below 1 means ptosim is faster than the yardstick.
//
// BM_Kernel: the kernels themselves (engine/elementwise), called on tile descriptors over host buffers,
// for every binary tile-tile operation (add sub mul div max min and or xor shl shr) and its tile-scalar
// form (adds ... shrs) of float, half, bfloat16, int32 and int16, wherever the operation is defined for
// the type, each against memcpy of as many bytes as the operation reads and writes (three tiles, or two
// for tile-scalar), timed in the same run in CPU time of the thread:
//   ratio_vs_memcpy  kernel time / memcpy time
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <bit>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "engine/elementwise/binary_kernel.hpp"
#include "engine/elementwise/operations.hpp"
#include "engine/elementwise/scalar_kernel.hpp"
#include "memcpy_yardstick.hpp"

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

namespace ew = pto::engine::elementwise;

// A 64x256 row-major UB-like tile in host memory, 64-byte aligned, filled with nonzero values whose
// shift counts (for shl) stay below the width.
template <typename T>
struct HostTile {
    static constexpr int kRows = 64, kCols = 256;
    using S = typename ew::Format<T>::Storage;

    explicit HostTile(int seed) : storage(new(std::align_val_t{64}) S[kRows * kCols])
    {
        for (int i = 0; i < kRows * kCols; ++i) {
            if constexpr (std::is_integral_v<T>) storage[i] = static_cast<S>((i * 7 + seed) % 13 + 1);
            else storage[i] = ew::Format<T>::narrow(0.25f * float((i + seed) % 97) - 7.0f);
        }
        desc.data = reinterpret_cast<std::byte*>(storage);
        desc.dtype = pto::engine::dtype_of<T>;
        desc.loc = TileType::Vec;
        desc.rows = desc.valid_rows = kRows;
        desc.cols = desc.valid_cols = kCols;
    }
    ~HostTile() { ::operator delete[](storage, std::align_val_t{64}); }
    HostTile(const HostTile&) = delete;
    HostTile& operator=(const HostTile&) = delete;

    static constexpr std::size_t bytes() { return sizeof(S) * kRows * kCols; }

    S* storage;
    pto::engine::TileDesc desc;
};

template <typename Op, typename T>
void BM_Kernel_TileTile(benchmark::State& state)
{
    HostTile<T> a(1), b(2), c(3);
    const std::size_t moved = 3 * HostTile<T>::bytes();
    time_against_memcpy(state, moved / 2, moved, [&] { ew::BinaryKernel<Op, T>::run(c.desc, a.desc, b.desc); });
}

template <typename Op, typename T>
void BM_Kernel_TileScalar(benchmark::State& state)
{
    HostTile<T> a(1), c(3);
    const uint64_t scalar = std::is_integral_v<T> ? 3 : std::bit_cast<uint32_t>(1.5f);
    const uint64_t bits = std::is_same_v<T, half> ? half(1.5f).bits
                          : std::is_same_v<T, bfloat16_t> ? bfloat16_t(1.5f).bits
                                                          : scalar;
    const std::size_t moved = 2 * HostTile<T>::bytes();
    time_against_memcpy(state, moved / 2, moved, [&] {
        ew::ScalarKernel<Op, T>::run(c.desc, a.desc, bits, ew::ScalarSide::Right);
    });
}

template <typename Op, typename T>
void register_op(const std::string& name, const std::string& type)
{
    using C = typename ew::Format<T>::Compute;
    if constexpr (requires(C c) { Op::template apply<C>(c, c); }) {
        benchmark::RegisterBenchmark((name + "/" + type).c_str(), BM_Kernel_TileTile<Op, T>);
        benchmark::RegisterBenchmark((name + "s/" + type).c_str(), BM_Kernel_TileScalar<Op, T>);
    }
}

template <typename T>
void register_type(const std::string& type)
{
    register_op<ew::Add, T>("add", type);
    register_op<ew::Sub, T>("sub", type);
    register_op<ew::Mul, T>("mul", type);
    register_op<ew::Div, T>("div", type);
    register_op<ew::Max, T>("max", type);
    register_op<ew::Min, T>("min", type);
    register_op<ew::And, T>("and", type);
    register_op<ew::Or, T>("or", type);
    register_op<ew::Xor, T>("xor", type);
    register_op<ew::Shl, T>("shl", type);
    register_op<ew::Shr, T>("shr", type);
}

}  // namespace

BENCHMARK_TEMPLATE(BM_TADD_64x256, float);
BENCHMARK_TEMPLATE(BM_TADD_64x256, half);

int main(int argc, char** argv)
{
    register_type<float>("f32");
    register_type<half>("f16");
    register_type<bfloat16_t>("bf16");
    register_type<int32_t>("i32");
    register_type<int16_t>("i16");
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

