// The vectorised elementary functions (DEFAULT accuracy) over a 64x256 tile's worth of lines, float and
// half, against the plain scalar loop over the same data timed in the same run:
//   ratio_vs_scalar  ptosim time / time of `out[i] = std::exp(in[i])` (etc.); for half, each element
//                    widened to float, the std:: function, and rounded back with half(float)
// Below 1 means ptosim is faster; the targets are 0.125 for float and 0.25 for half. Both sides are timed
// in CPU time of the thread (thread_clock.hpp), so that neither is charged for time descheduled.
#include <pto/common/numeric.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "engine/elementwise/math_lines.hpp"
#include "thread_clock.hpp"

namespace {

namespace ew = pto::engine::elementwise;

constexpr int64_t kRows = 64, kCols = 256, kCount = kRows * kCols;

enum class Fn { Exp, Log, Sqrt, Rsqrt, Recip, Pow };

float scalar(Fn fn, float x, float y)
{
    switch (fn) {
        case Fn::Exp: return std::exp(x);
        case Fn::Log: return std::log(x);
        case Fn::Sqrt: return std::sqrt(x);
        case Fn::Rsqrt: return 1.0f / std::sqrt(x);
        case Fn::Recip: return 1.0f / x;
        case Fn::Pow: return std::pow(x, y);
    }
    return 0;
}

ew::MathFn math_fn(Fn fn)
{
    switch (fn) {
        case Fn::Exp: return ew::MathFn::Exp;
        case Fn::Log: return ew::MathFn::Log;
        case Fn::Sqrt: return ew::MathFn::Sqrt;
        case Fn::Rsqrt: return ew::MathFn::Rsqrt;
        default: return ew::MathFn::Recip;
    }
}

// Operands in each function's interesting range: positive for log and the roots, moderate for exp.
float operand(Fn fn, int64_t i)
{
    const float t = static_cast<float>(i % 997) / 997.0f;
    return fn == Fn::Exp ? 40.0f * t - 20.0f : 0.01f + 100.0f * t;
}

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

// T is float or half; the kernels take half as its bits.
template <typename T>
void BM_Math_64x256(benchmark::State& state, Fn fn)
{
    std::vector<T> a(kCount), b(kCount), out(kCount);
    for (int64_t i = 0; i < kCount; ++i) {
        a[i] = T(operand(fn, i));
        b[i] = T(static_cast<float>(i % 7) - 3.0f);
    }
    const ew::LineShape shape{kRows, kCols};
    const auto run = [&] {
        if constexpr (std::is_same_v<T, float>) {
            const ew::Lines<float> d{out.data(), kCols};
            const ew::Lines<const float> x{a.data(), kCols}, y{b.data(), kCols};
            if (fn == Fn::Pow) return ew::float_pow_lines(ew::MathAccuracy::Default, d, x, y, shape);
            ew::float_math_lines(math_fn(fn), ew::MathAccuracy::Default, d, x, shape);
        } else {
            const ew::Lines<uint16_t> d{&out[0].bits, kCols};
            const ew::Lines<const uint16_t> x{&a[0].bits, kCols}, y{&b[0].bits, kCols};
            if (fn == Fn::Pow) return ew::half_pow_lines(ew::MathAccuracy::Default, d, x, y, shape);
            ew::half_math_lines(math_fn(fn), ew::MathAccuracy::Default, d, x, shape);
        }
    };

    const double start = thread_seconds();
    for (auto _ : state) {
        run();
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double ptosim = (thread_seconds() - start) / static_cast<double>(calls);
    const double plain = seconds_per_call(calls, [&] {
        for (int64_t i = 0; i < kCount; ++i) out[i] = T(scalar(fn, static_cast<float>(a[i]), static_cast<float>(b[i])));
    });

    state.counters["ratio_vs_scalar"] = ptosim / plain;
    state.counters["ns_per_element"] = ptosim * 1e9 / kCount;
}

void BM_Float(benchmark::State& state, Fn fn) { BM_Math_64x256<float>(state, fn); }
void BM_Half(benchmark::State& state, Fn fn) { BM_Math_64x256<half>(state, fn); }

}  // namespace

BENCHMARK_CAPTURE(BM_Float, exp_f32, Fn::Exp);
BENCHMARK_CAPTURE(BM_Float, log_f32, Fn::Log);
BENCHMARK_CAPTURE(BM_Float, sqrt_f32, Fn::Sqrt);
BENCHMARK_CAPTURE(BM_Float, rsqrt_f32, Fn::Rsqrt);
BENCHMARK_CAPTURE(BM_Float, recip_f32, Fn::Recip);
BENCHMARK_CAPTURE(BM_Float, pow_f32, Fn::Pow);
BENCHMARK_CAPTURE(BM_Half, exp_f16, Fn::Exp);
BENCHMARK_CAPTURE(BM_Half, log_f16, Fn::Log);
BENCHMARK_CAPTURE(BM_Half, sqrt_f16, Fn::Sqrt);
BENCHMARK_CAPTURE(BM_Half, rsqrt_f16, Fn::Rsqrt);
BENCHMARK_CAPTURE(BM_Half, recip_f16, Fn::Recip);
BENCHMARK_CAPTURE(BM_Half, pow_f16, Fn::Pow);

BENCHMARK_MAIN();
