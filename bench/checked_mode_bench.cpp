// Checked mode's cost: each workload timed in fast mode and in checked mode (PTO_CHECK=1's bookkeeping:
// written-byte shadow state, uninitialised-read and alignment checks) in the same run, on one thread.
//   ratio_checked_vs_fast  checked time / fast time (the target is at most 3)
// Workloads: single instructions on 64x256 tiles in UB (TADD f32 and f16, TADDS f32, TEXP f32, TCVT
// f32 -> f16; TADD f32 also on a 64x200 valid region and a 48x256 one of column-major tiles), the vector-add
// main job's loop over a 1024x1024 f32 tensor, tile by tile, called directly, and its kernel
// (examples/vector_add, with its flags and events) launched over 8 blocks on one thread, where checked
// mode also runs the synchronisation check of every block; and that launch in the adversarial schedule
// against the program schedule (ratio_adversarial_vs_program).
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "../examples/vector_add/vector_add_kernel.hpp"
#include "thread_clock.hpp"

using namespace pto;

namespace {

constexpr int kRows = 64, kCols = 256;

// Seconds per call of `fn`, in the mode given; at least `calls` calls.
double seconds_per_call(bool checked, int64_t calls, const std::function<void()>& setup, const std::function<void()>& fn)
{
    runtime::set_checked(checked);
    setup();  // the mode switch made fresh memories: bind the tiles and write their data anew
    fn();     // warm up
    const double start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        fn();
        benchmark::ClobberMemory();
    }
    const double seconds = (thread_seconds() - start) / double(calls);
    runtime::set_checked(false);
    return seconds;
}

void report(benchmark::State& state, const std::function<void()>& setup, const std::function<void()>& fn)
{
    double fast = 0, checked = 0;
    for (auto _ : state) {
        fast += seconds_per_call(false, 200, setup, fn);
        checked += seconds_per_call(true, 200, setup, fn);
    }
    state.counters["ratio_checked_vs_fast"] = checked / fast;
    state.counters["fast_us"] = fast / double(state.iterations()) * 1e6;
}

template <typename T, typename TileT = Tile<TileType::Vec, T, kRows, kCols>>
struct Tiles {
    TileT a, b, c;
    Tiles() = default;
    Tiles(int valid_rows, int valid_cols) : a(valid_rows, valid_cols), b(valid_rows, valid_cols), c(valid_rows, valid_cols) {}
    void fill()
    {
        TASSIGN(a, 0x0);
        TASSIGN(b, TileT::SizeInBytes);
        TASSIGN(c, 2 * TileT::SizeInBytes);
        for (int i = 0; i < TileT::Numel; ++i) {
            a.SetValue(i, T(0.25f * float(i % 97) - 7.0f));
            b.SetValue(i, T(1.0f + 0.125f * float(i % 13)));
        }
    }
};

void BM_Checked_TADD_f32(benchmark::State& state)
{
    Tiles<float> t;
    report(state, [&] { t.fill(); }, [&] { TADD(t.c, t.a, t.b); });
}

// Valid columns short of the capacity: the shadow state is kept row by row.
void BM_Checked_TADD_f32_valid64x200(benchmark::State& state)
{
    Tiles<float, Tile<TileType::Vec, float, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>> t(kRows, 200);
    report(state, [&] { t.fill(); }, [&] { TADD(t.c, t.a, t.b); });
}

// Column-major tiles with valid rows short of the capacity: the shadow state is kept column by column.
void BM_Checked_TADD_f32_colmajor_valid48x256(benchmark::State& state)
{
    Tiles<float, Tile<TileType::Vec, float, kRows, kCols, BLayout::ColMajor, DYNAMIC, DYNAMIC>> t(48, kCols);
    report(state, [&] { t.fill(); }, [&] { TADD(t.c, t.a, t.b); });
}

void BM_Checked_TADD_f16(benchmark::State& state)
{
    Tiles<half> t;
    report(state, [&] { t.fill(); }, [&] { TADD(t.c, t.a, t.b); });
}

void BM_Checked_TADDS_f32(benchmark::State& state)
{
    Tiles<float> t;
    report(state, [&] { t.fill(); }, [&] { TADDS(t.c, t.a, 1.5f); });
}

void BM_Checked_TEXP_f32(benchmark::State& state)
{
    Tiles<float> t;
    report(state, [&] { t.fill(); }, [&] { TEXP(t.c, t.a); });
}

void BM_Checked_TCVT_f32_f16(benchmark::State& state)
{
    Tiles<float> t;
    Tile<TileType::Vec, half, kRows, kCols> h;
    report(
        state,
        [&] {
            t.fill();
            TASSIGN(h, 3 * decltype(t.a)::SizeInBytes);
        },
        [&] { TCVT(h, t.a, RoundMode::CAST_RINT); });
}

// The vector-add main job's kernel (examples/vector_add) over a 1024 x 1024 tensor on one block.
void BM_Checked_VectorAddJob_1024x1024(benchmark::State& state)
{
    constexpr int n = 1024;
    std::vector<float> x(n * n, 1.5f), y(n * n, 2.5f), z(n * n);
    using TileT = Tile<TileType::Vec, float, kRows, kCols>;
    using Global = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, n, 1>>;
    TileT a, b, c;
    auto bind = [&] {
        TASSIGN(a, 0x0);
        TASSIGN(b, 0x10000);
        TASSIGN(c, 0x20000);
    };
    auto job = [&] {
        for (int r = 0; r < n; r += kRows)
            for (int col = 0; col < n; col += kCols) {
                const size_t at = size_t(r) * n + col;
                Global gx(x.data() + at), gy(y.data() + at), gz(z.data() + at);
                TLOAD(a, gx);
                TLOAD(b, gy);
                TADD(c, a, b);
                TSTORE(gz, c);
            }
    };
    double fast = 0, checked = 0;
    for (auto _ : state) {
        fast += seconds_per_call(false, 5, bind, job);
        checked += seconds_per_call(true, 5, bind, job);
    }
    state.counters["ratio_checked_vs_fast"] = checked / fast;
    state.counters["fast_us"] = fast / double(state.iterations()) * 1e6;
}

// The main job's kernel over a 1024x1024 f32 tensor, launched as the example launches it, 8 blocks.
struct VectorAddLaunch {
    static constexpr int n = 1024;
    std::vector<float> x = std::vector<float>(n * n, 1.5f), y = std::vector<float>(n * n, 2.5f), z = std::vector<float>(n * n);
    void operator()() { sim::launch(8, vector_add::vector_add_kernel, x.data(), y.data(), z.data(), n, n); }
};

// That launch, each block checked for synchronisation too.
void BM_Checked_VectorAddLaunch_1024x1024(benchmark::State& state)
{
    VectorAddLaunch launch;
    const std::function<void()> job = std::ref(launch);
    sim::set_threads(1);
    double fast = 0, checked = 0;
    for (auto _ : state) {
        fast += seconds_per_call(false, 5, [] {}, job);
        checked += seconds_per_call(true, 5, [] {}, job);
    }
    sim::set_threads(0);
    state.counters["ratio_checked_vs_fast"] = checked / fast;
    state.counters["fast_us"] = fast / double(state.iterations()) * 1e6;
}

// The same launch in the adversarial schedule (pto/runtime/schedule.hpp), fast mode: every tile
// instruction held back with copies of its operands and run out of program order.
void BM_Adversarial_VectorAddLaunch_1024x1024(benchmark::State& state)
{
    VectorAddLaunch launch;
    const std::function<void()> job = std::ref(launch);
    sim::set_threads(1);
    double program = 0, adversarial = 0;
    for (auto _ : state) {
        program += seconds_per_call(false, 5, [] {}, job);
        sim::set_schedule(runtime::Schedule::Adversarial);
        adversarial += seconds_per_call(false, 5, [] {}, job);
        sim::set_schedule(runtime::Schedule::Program);
    }
    sim::set_threads(0);
    state.counters["ratio_adversarial_vs_program"] = adversarial / program;
    state.counters["program_us"] = program / double(state.iterations()) * 1e6;
}

BENCHMARK(BM_Checked_TADD_f32)->Iterations(20);
BENCHMARK(BM_Checked_TADD_f32_valid64x200)->Iterations(20);
BENCHMARK(BM_Checked_TADD_f32_colmajor_valid48x256)->Iterations(20);
BENCHMARK(BM_Checked_TADD_f16)->Iterations(20);
BENCHMARK(BM_Checked_TADDS_f32)->Iterations(20);
BENCHMARK(BM_Checked_TEXP_f32)->Iterations(20);
BENCHMARK(BM_Checked_TCVT_f32_f16)->Iterations(20);
BENCHMARK(BM_Checked_VectorAddJob_1024x1024)->Iterations(10);
BENCHMARK(BM_Checked_VectorAddLaunch_1024x1024)->Iterations(10);
BENCHMARK(BM_Adversarial_VectorAddLaunch_1024x1024)->Iterations(10);

}  // namespace

BENCHMARK_MAIN();
