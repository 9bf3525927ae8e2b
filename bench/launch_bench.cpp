// The parallel launch: the vector-add main job (examples/vector_add, 4000 x 3000 floats), the flash
// attention example (4 heads x 4096 tokens, D = 128, full) and the attention-scores mixed kernel
// (examples/attention_scores: 8192 queries, a cube core and two vector cores per block, tiles handed
// through a two-slot pipe) over 64 blocks on N threads, against the same launch on one thread,
// alternated in the same run. speedup is the one-thread time over the N-thread
// time, in wall time (the point is the threads); the target with 2 threads on 2 cores is at least 1.8.
#include <benchmark/benchmark.h>

#include <chrono>
#include <functional>
#include <random>
#include <vector>

#include "../examples/attention_scores/attention_scores_kernel.hpp"
#include "../examples/flash_attention/flash_attention_kernel.hpp"
#include "../examples/vector_add/vector_add_kernel.hpp"

namespace {

constexpr int kBlocks = 64;

double wall_seconds(const std::function<void()>& job)
{
    const auto start = std::chrono::steady_clock::now();
    job();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void measure_speedup(benchmark::State& state, const std::function<void()>& job)
{
    const auto threads = static_cast<unsigned>(state.range(0));
    double one = 0, many = 0;
    for (auto _ : state) {
        pto::sim::set_threads(1);
        one += wall_seconds(job);
        pto::sim::set_threads(threads);
        many += wall_seconds(job);
        benchmark::ClobberMemory();
    }
    pto::sim::set_threads(0);
    const auto calls = double(state.iterations());
    state.counters["speedup"] = one / many;
    state.counters["ms_1_thread"] = one / calls * 1e3;
    state.counters["ms_N_threads"] = many / calls * 1e3;
}

void BM_VectorAddLaunch(benchmark::State& state)
{
    const int rows = 4000, cols = 3000;
    const size_t n = size_t(rows) * cols;
    std::vector<float> x(n), y(n), z(n);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    for (size_t i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);
    measure_speedup(state, [&] { pto::sim::launch(kBlocks, vector_add::vector_add_kernel, x.data(), y.data(), z.data(), rows, cols); });
}

void BM_FlashAttentionLaunch(benchmark::State& state)
{
    constexpr int kD = 128;
    const flash_attention::Problem p{.heads = 4, .seq = 4096, .causal = false};
    const size_t n = size_t(p.heads) * p.seq * kD;
    std::vector<half> q(n), k(n), v(n);
    std::vector<float> o(n);
    std::mt19937 rng(2026);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (auto* t : {&q, &k, &v})
        for (auto& e : *t) e = half(unit(rng));
    measure_speedup(state, [&] {
        pto::sim::launch(kBlocks, flash_attention::flash_attention_kernel<kD>, q.data(), k.data(), v.data(), o.data(), p);
    });
}

void BM_AttentionScoresMixedLaunch(benchmark::State& state)
{
    using namespace attention_scores;
    const int rows = 8192;
    std::vector<half> q(size_t(rows) * kDim), k(size_t(kKeys) * kDim);
    std::vector<float> p(size_t(rows) * kKeys), fifo(kBlocks * kFifoFloatsPerBlock);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (auto* t : {&q, &k})
        for (auto& e : *t) e = half(unit(rng));
    measure_speedup(state, [&] {
        pto::sim::launch_mixed(kBlocks, attention_scores_kernel, attention_scores_kernel, q.data(), k.data(), p.data(),
                               fifo.data(), rows);
    });
}

BENCHMARK(BM_VectorAddLaunch)->Name("VectorAdd_4000x3000_64blocks")->ArgName("threads")->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FlashAttentionLaunch)->Name("FlashAttention_4x4096_D128_64blocks")->ArgName("threads")->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AttentionScoresMixedLaunch)->Name("AttentionScoresMixed_8192x64_64blocks")->ArgName("threads")->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
