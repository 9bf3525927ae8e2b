// TMATMUL on one Left, one Right and one Acc tile against OpenBLAS cblas_sgemm on the same shape, one
// thread, in the same run: ratio_vs_sgemm is TMATMUL's time over sgemm's (below 1: faster), for f32 and
// for f16 and bf16 inputs (sgemm on the same values in f32).
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <random>
#include <vector>

#include "thread_clock.hpp"

using namespace pto;

namespace {

template <typename In, int M, int K, int N>
void BM_TmatmulVsSgemm(benchmark::State& state)
{
    openblas_set_num_threads(1);
    TileLeft<In, M, K> a;
    TileRight<In, K, N> b;
    TileAcc<float, M, N> c;
    std::vector<float> av(M * K), bv(K * N), cv(M * N);
    std::mt19937 rng(5);
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k) {
            const In v = In(float(int(rng() % 200) - 100) / 64.0f);
            a.SetValue(uint32_t(GetTileOffset<decltype(a)>(i, k)), v);
            av[size_t(i) * K + k] = float(v);
        }
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) {
            const In v = In(float(int(rng() % 200) - 100) / 64.0f);
            b.SetValue(uint32_t(GetTileOffset<decltype(b)>(k, j)), v);
            bv[size_t(k) * N + j] = float(v);
        }
    const double start = thread_seconds();
    for (auto _ : state) {
        TMATMUL(c, a, b);
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double ours = (thread_seconds() - start) / double(calls);
    const double blas_start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, av.data(), K, bv.data(), N, 0.0f, cv.data(), N);
        benchmark::ClobberMemory();
    }
    const double blas = (thread_seconds() - blas_start) / double(calls);
    state.counters["ratio_vs_sgemm"] = ours / blas;
    state.counters["GFLOPs"] = 2.0 * M * N * K / ours * 1e-9;
    state.counters["sgemm_GFLOPs"] = 2.0 * M * N * K / blas * 1e-9;
}

BENCHMARK(BM_TmatmulVsSgemm<float, 128, 128, 128>)->Name("TMATMUL_f32_128x128x128");
BENCHMARK(BM_TmatmulVsSgemm<half, 128, 128, 128>)->Name("TMATMUL_f16_128x128x128");
BENCHMARK(BM_TmatmulVsSgemm<bfloat16_t, 128, 128, 128>)->Name("TMATMUL_bf16_128x128x128");

}  // namespace

BENCHMARK_MAIN();
