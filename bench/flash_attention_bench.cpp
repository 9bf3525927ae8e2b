// Flash attention (examples/flash_attention), forward, one head of S = 2048 tokens, D = 128, full and
// causal, against the straightforward OpenBLAS attention (one thread: sgemm, softmax, sgemm) on the same
// inputs in the same run: ratio_vs_blas is our time over its time (the target is at most 2).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "thread_clock.hpp"

#include "../examples/flash_attention/blas_attention.hpp"
#include "../examples/flash_attention/flash_attention_kernel.hpp"

namespace {

constexpr int kSeq = 2048, kD = 128;

void BM_FlashAttentionVsBlas(benchmark::State& state)
{
    openblas_set_num_threads(1);
    const bool causal = state.range(0) != 0;
    const flash_attention::Problem p{.heads = 1, .seq = kSeq, .causal = causal};
    const size_t n = size_t(kSeq) * kD;
    std::vector<half> q(n), k(n), v(n);
    std::vector<float> o(n), fo(n);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (auto* t : {&q, &k, &v})
        for (auto& x : *t) x = half(unit(rng));
    const std::vector<float> fq(q.begin(), q.end()), fk(k.begin(), k.end()), fv(v.begin(), v.end());
    flash_attention::BlasAttention blas(kSeq, kD);

    const double start = thread_seconds();
    for (auto _ : state) {
        pto::sim::launch(1, flash_attention::flash_attention_kernel<kD>, q.data(), k.data(), v.data(), o.data(), p);
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double ours = (thread_seconds() - start) / double(calls);
    const double blas_start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        blas.run_head(fq.data(), fk.data(), fv.data(), fo.data(), causal);
        benchmark::ClobberMemory();
    }
    const double yardstick = (thread_seconds() - blas_start) / double(calls);
    state.counters["ratio_vs_blas"] = ours / yardstick;
    state.counters["ms"] = ours * 1e3;
    state.counters["blas_ms"] = yardstick * 1e3;
}

BENCHMARK(BM_FlashAttentionVsBlas)->Arg(0)->Name("FlashAttention_S2048_D128_full")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FlashAttentionVsBlas)->Arg(1)->Name("FlashAttention_S2048_D128_causal")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
