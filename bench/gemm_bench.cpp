// A whole tiled GEMM kernel, C[2048 x 2048] f32 = A[2048 x 2048] f16 . B[2048 x 2048] f16 on one core
// (examples/gemm): TLOAD of panels into Nz Mat tiles, TEXTRACT of Left and Right windows, TMATMUL and
// TMATMUL_ACC, TSTORE. Two comparisons, each in the same run:
//   ratio_vs_sgemm  the C++ kernel's time / OpenBLAS cblas_sgemm's (one thread) on the same values in f32
//   ratio_vs_cpp    the PTO-AS program's time through the interpreter / the C++ kernel's
// The kernel's result is checked once, outside the timing, against sgemm's.
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cmath>
#include <cstddef>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../examples/gemm/gemm_kernel.hpp"
#include "thread_clock.hpp"

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"

namespace {

constexpr int kSize = 2048;
constexpr double kFlops = 2.0 * kSize * kSize * kSize;

// The operands in f16 for the kernel and in f32 for sgemm, sgemm's product, and the bound of a correct
// result's distance from it: two f32 summations of k products each err by at most k u (|A| |B|)_ij.
struct Problem {
    std::vector<half> a, b;
    std::vector<float> a32, b32, reference, tolerance;
};

Problem& problem()
{
    static Problem p = [] {
        openblas_set_num_threads(1);
        Problem q;
        const std::size_t count = std::size_t(kSize) * kSize;
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> value(-2.0f, 2.0f);
        for (auto* pair : {&q.a, &q.b}) {
            pair->resize(count);
            for (half& v : *pair) v = half(value(rng));
        }
        q.a32.assign(q.a.begin(), q.a.end());
        q.b32.assign(q.b.begin(), q.b.end());
        q.reference.resize(count);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kSize, kSize, kSize, 1.0f, q.a32.data(), kSize,
                    q.b32.data(), kSize, 0.0f, q.reference.data(), kSize);
        std::vector<float> abs_a(count), abs_b(count);
        for (std::size_t i = 0; i < count; ++i) abs_a[i] = std::fabs(q.a32[i]), abs_b[i] = std::fabs(q.b32[i]);
        q.tolerance.resize(count);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kSize, kSize, kSize, 1.0f, abs_a.data(), kSize,
                    abs_b.data(), kSize, 0.0f, q.tolerance.data(), kSize);
        const float unit = 2.0f * kSize * std::ldexp(1.0f, -24);
        for (float& t : q.tolerance) t *= unit;
        return q;
    }();
    return p;
}

// Empty when `c` is within the tolerance of sgemm's product, else where it is not.
std::string mismatch(const std::vector<float>& c)
{
    const Problem& p = problem();
    for (std::size_t i = 0; i < c.size(); ++i)
        if (!(std::fabs(c[i] - p.reference[i]) <= p.tolerance[i]))
            return "C[" + std::to_string(i / kSize) + ", " + std::to_string(i % kSize) + "] = " + std::to_string(c[i]) +
                   ", sgemm " + std::to_string(p.reference[i]);
    return {};
}

template <int TileM, int TileN, int PanelK, int StepK>
double time_kernel(std::vector<float>& c, int64_t calls)
{
    Problem& p = problem();
    const double start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        gemm::gemm_kernel<TileM, TileN, PanelK, StepK>(p.a.data(), p.b.data(), c.data(), kSize, kSize, kSize);
        benchmark::ClobberMemory();
    }
    return (thread_seconds() - start) / double(calls);
}

template <int TileM, int TileN, int PanelK, int StepK>
void BM_TiledGemmVsSgemm(benchmark::State& state)
{
    const Problem& p = problem();
    std::vector<float> c(p.reference.size());
    const double ours = time_kernel<TileM, TileN, PanelK, StepK>(c, 1);
    if (const std::string wrong = mismatch(c); !wrong.empty()) {
        state.SkipWithError(wrong.c_str());
        return;
    }
    for (auto _ : state) state.SetIterationTime(ours);
    const double blas_start = thread_seconds();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kSize, kSize, kSize, 1.0f, p.a32.data(), kSize,
                p.b32.data(), kSize, 0.0f, c.data(), kSize);
    benchmark::ClobberMemory();
    const double blas = thread_seconds() - blas_start;
    state.counters["ratio_vs_sgemm"] = ours / blas;
    state.counters["GFLOPs"] = kFlops / ours * 1e-9;
    state.counters["sgemm_GFLOPs"] = kFlops / blas * 1e-9;
}

std::string read_program()
{
    std::ifstream in(PTOSIM_GEMM_PROGRAM);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void BM_TiledGemmTextVsCpp(benchmark::State& state)
{
    Problem& p = problem();
    const std::string text = read_program();
    if (text.empty()) {
        state.SkipWithError("cannot read " PTOSIM_GEMM_PROGRAM);
        return;
    }
    const pto::as::ParseResult parsed = pto::as::parse(text, "gemm.pto");
    std::vector<pto::Diagnostic> problems = parsed.diagnostics;
    if (problems.empty()) problems = pto::as::verify(parsed.module, pto::profile::Target::A2A3);
    if (!problems.empty()) {
        state.SkipWithError(problems.front().format().c_str());
        return;
    }
    const pto::as::Interpreter interpreter(parsed.module);

    std::vector<float> c(p.reference.size());
    auto array = [](const char* name, auto& v) {
        return pto::as::ArgumentBinding{name, reinterpret_cast<std::byte*>(v.data()), v.size() * sizeof(v[0]), {}, {}};
    };
    auto scalar = [](const char* name) { return pto::as::ArgumentBinding{name, nullptr, 0, {}, double(kSize)}; };
    const std::vector<pto::as::ArgumentBinding> args{array("a", p.a), array("b", p.b), array("c", c),
                                                     scalar("m"), scalar("n"), scalar("k")};

    const double start = thread_seconds();
    const pto::as::RunResult result = interpreter.run(args);
    const double interpreted = thread_seconds() - start;
    if (!result.ok()) {
        state.SkipWithError(result.diagnostics.front().format().c_str());
        return;
    }
    if (const std::string wrong = mismatch(c); !wrong.empty()) {
        state.SkipWithError(wrong.c_str());
        return;
    }
    for (auto _ : state) state.SetIterationTime(interpreted);
    const double compiled = time_kernel<gemm::kTileM, gemm::kTileN, gemm::kPanelK, gemm::kStepK>(c, 1);
    state.counters["ratio_vs_cpp"] = interpreted / compiled;
    state.counters["GFLOPs"] = kFlops / interpreted * 1e-9;
    state.counters["cpp_GFLOPs"] = kFlops / compiled * 1e-9;
}

}  // namespace

BENCHMARK(BM_TiledGemmVsSgemm<gemm::kTileM, gemm::kTileN, gemm::kPanelK, gemm::kStepK>)
    ->Name("TiledGemm_2048_vs_sgemm")->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TiledGemmTextVsCpp)->Name("TiledGemm_2048_text_vs_cpp")->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
