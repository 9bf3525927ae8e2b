// Test support for the vectorised elementary functions: the reference (the function in double, then
// the error of a result measured in ulps of its format), the documented accuracy bounds, and inputs.
#pragma once

#include <pto/common/numeric.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/elementwise/math_lines.hpp"

namespace mathtest {

namespace ew = pto::engine::elementwise;
using ew::MathAccuracy;
using ew::MathFn;

inline constexpr MathFn kFunctions[] = {MathFn::Exp, MathFn::Log, MathFn::Sqrt, MathFn::Rsqrt, MathFn::Recip};
inline constexpr MathAccuracy kAccuracies[] = {MathAccuracy::Default, MathAccuracy::High};

inline std::string name(MathFn fn)
{
    switch (fn) {
        case MathFn::Exp: return "exp";
        case MathFn::Log: return "log";
        case MathFn::Sqrt: return "sqrt";
        case MathFn::Rsqrt: return "rsqrt";
        case MathFn::Recip: return "recip";
    }
    return "?";
}

inline std::string name(MathAccuracy a) { return a == MathAccuracy::Default ? "default" : "high"; }

inline double reference(MathFn fn, double x)
{
    switch (fn) {
        case MathFn::Exp: return std::exp(x);
        case MathFn::Log: return std::log(x);
        case MathFn::Sqrt: return std::sqrt(x);
        case MathFn::Rsqrt: return 1.0 / std::sqrt(x);
        case MathFn::Recip: return 1.0 / x;
    }
    return 0;
}

// --- the three formats ----------------------------------------------------------------------------

enum class Type { F32, F16, BF16 };
inline constexpr Type kTypes[] = {Type::F32, Type::F16, Type::BF16};

inline std::string name(Type t) { return t == Type::F32 ? "f32" : t == Type::F16 ? "f16" : "bf16"; }

struct Layout {
    int fraction_bits;
    int min_exponent;  // of the smallest normal
    int max_exponent;  // of the largest finite
};

inline Layout layout(Type t)
{
    switch (t) {
        case Type::F32: return {23, -126, 127};
        case Type::F16: return {10, -14, 15};
        case Type::BF16: return {7, -126, 127};
    }
    return {};
}

// Elements as bit patterns (the low 16 bits for half and bfloat16) and their values.
inline double value(Type t, uint32_t bits)
{
    switch (t) {
        case Type::F32: return std::bit_cast<float>(bits);
        case Type::F16: return static_cast<float>(half::from_bits(static_cast<uint16_t>(bits)));
        case Type::BF16: return static_cast<float>(bfloat16_t::from_bits(static_cast<uint16_t>(bits)));
    }
    return 0;
}

inline bool is_nan(Type t, uint32_t bits) { return std::isnan(value(t, bits)); }

// The NaN an input NaN becomes: quieted, sign and payload kept.
inline uint32_t quieted(Type t, uint32_t bits)
{
    return bits | (t == Type::F32 ? 0x400000u : t == Type::F16 ? 0x200u : 0x40u);
}

// |got - exact| in ulps of the format at |exact| (its subnormal spacing below the normal range, its top
// binade's above it); infinity is exact where exact rounds to it and counts as 2^(emax+1) elsewhere.
inline double ulp_error(Type t, double exact, double got)
{
    constexpr double kInfinite = std::numeric_limits<double>::infinity();
    const Layout f = layout(t);
    if (std::isnan(exact) || std::isnan(got)) return std::isnan(exact) && std::isnan(got) ? 0 : kInfinite;
    if (std::isinf(exact)) return got == exact ? 0 : kInfinite;
    const double magnitude = std::fabs(exact);
    const double overflow = std::ldexp(2.0 - std::ldexp(1.0, -f.fraction_bits - 1), f.max_exponent);
    if (magnitude >= overflow && std::isinf(got) && std::signbit(got) == std::signbit(exact)) return 0;
    if (std::isinf(got)) got = std::copysign(std::ldexp(1.0, f.max_exponent + 1), got);
    int exponent = magnitude == 0 ? f.min_exponent : std::ilogb(magnitude);
    exponent = std::clamp(exponent, f.min_exponent, f.max_exponent);
    return std::fabs(got - exact) / std::ldexp(1.0, exponent - f.fraction_bits);
}

// The documented bounds (math_lines.hpp) in ulps, above the worst errors tools/ulp_sweep measured over
// every input of the 16-bit formats and every 31st float. High accuracy is correctly rounded but within
// 2^-20 ulp of a rounding tie, where the double result may fall on the wrong side.
inline constexpr double kNearlyCorrect = 0.5 + 0x1p-20;

// The float bound scaled to a 16-bit ulp (2^-13 of one for half, 2^-16 for bfloat16), plus the 0.5 of
// the final rounding: a 16-bit result is the float result rounded once more.
inline double in_format(Type t, double float_bound)
{
    return t == Type::F32 ? float_bound : 0.5 + std::ldexp(float_bound, layout(t).fraction_bits - 23);
}

inline double error_bound(Type t, MathFn fn, MathAccuracy a)
{
    const bool high = a == MathAccuracy::High;
    switch (fn) {
        case MathFn::Exp: return in_format(t, high ? kNearlyCorrect : 1.5);
        case MathFn::Log: return in_format(t, high ? kNearlyCorrect : 1.0);
        case MathFn::Sqrt: return in_format(t, 0.5);
        case MathFn::Rsqrt: return in_format(t, high ? kNearlyCorrect : 1.5);
        case MathFn::Recip: return in_format(t, 0.5);
    }
    return 0;
}

// pow in double and rounded once, both accuracies: as high accuracy; an exact tie (2^-150, the square of
// a float with 13 significant bits) may round either way.
inline double pow_bound(Type t) { return in_format(t, kNearlyCorrect); }

// --- running the lines ----------------------------------------------------------------------------

// fn over one line of elements of type t (bits), through the line function.
inline std::vector<uint32_t> run_line(Type t, MathFn fn, MathAccuracy a, const std::vector<uint32_t>& in)
{
    const int64_t n = static_cast<int64_t>(in.size());
    std::vector<uint32_t> out(in.size());
    if (t == Type::F32) {
        std::vector<float> x(in.size()), y(in.size());
        for (size_t i = 0; i < in.size(); ++i) x[i] = std::bit_cast<float>(in[i]);
        ew::float_math_lines(fn, a, {y.data(), n}, {x.data(), n}, {1, n});
        for (size_t i = 0; i < in.size(); ++i) out[i] = std::bit_cast<uint32_t>(y[i]);
    } else {
        std::vector<uint16_t> x(in.begin(), in.end()), y(in.size());
        (t == Type::F16 ? ew::half_math_lines : ew::bfloat16_math_lines)(fn, a, {y.data(), n}, {x.data(), n}, {1, n});
        out.assign(y.begin(), y.end());
    }
    return out;
}

inline std::vector<uint32_t> run_pow_line(Type t, MathAccuracy a, const std::vector<uint32_t>& base,
                                          const std::vector<uint32_t>& exponent)
{
    const int64_t n = static_cast<int64_t>(base.size());
    std::vector<uint32_t> out(base.size());
    if (t == Type::F32) {
        std::vector<float> x(base.size()), y(base.size()), r(base.size());
        for (size_t i = 0; i < base.size(); ++i) {
            x[i] = std::bit_cast<float>(base[i]);
            y[i] = std::bit_cast<float>(exponent[i]);
        }
        ew::float_pow_lines(a, {r.data(), n}, {x.data(), n}, {y.data(), n}, {1, n});
        for (size_t i = 0; i < base.size(); ++i) out[i] = std::bit_cast<uint32_t>(r[i]);
    } else {
        std::vector<uint16_t> x(base.begin(), base.end()), y(exponent.begin(), exponent.end()), r(base.size());
        (t == Type::F16 ? ew::half_pow_lines : ew::bfloat16_pow_lines)(a, {r.data(), n}, {x.data(), n},
                                                                         {y.data(), n}, {1, n});
        out.assign(r.begin(), r.end());
    }
    return out;
}

inline uint32_t element(Type t, MathFn fn, MathAccuracy a, uint32_t x)
{
    switch (t) {
        case Type::F32: return std::bit_cast<uint32_t>(ew::math_element(fn, a, std::bit_cast<float>(x)));
        case Type::F16: return ew::half_math_element(fn, a, static_cast<uint16_t>(x));
        case Type::BF16: return ew::bfloat16_math_element(fn, a, static_cast<uint16_t>(x));
    }
    return 0;
}

inline uint32_t pow_element(Type t, MathAccuracy a, uint32_t x, uint32_t y)
{
    switch (t) {
        case Type::F32:
            return std::bit_cast<uint32_t>(ew::pow_element(a, std::bit_cast<float>(x), std::bit_cast<float>(y)));
        case Type::F16: return ew::half_pow_element(a, static_cast<uint16_t>(x), static_cast<uint16_t>(y));
        case Type::BF16: return ew::bfloat16_pow_element(a, static_cast<uint16_t>(x), static_cast<uint16_t>(y));
    }
    return 0;
}

// --- inputs ---------------------------------------------------------------------------------------

inline uint32_t random_bits(Type t, std::mt19937& rng)
{
    return t == Type::F32 ? static_cast<uint32_t>(rng()) : static_cast<uint32_t>(rng() & 0xffff);
}

// Zeros, infinities, NaNs (quiet and signalling, both signs), the subnormal and normal extremes, ±1.
inline std::vector<uint32_t> special_values(Type t)
{
    if (t == Type::F32) {
        return {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xffa00123,
                0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000};
    }
    if (t == Type::F16) {
        return {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd23,
                0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00};
    }
    return {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xffa3,
            0x0001, 0x8001, 0x007f, 0x0080, 0x7f7f, 0xff7f, 0x3f80, 0xbf80};
}

// Every input of a 16-bit format; for float, the special values, a large random sample over every bit
// pattern and the edges where the functions change regime (exp's overflow and underflow).
inline std::vector<uint32_t> sample(Type t, std::mt19937& rng, int random_count)
{
    std::vector<uint32_t> in = special_values(t);
    if (t != Type::F32) {
        for (uint32_t b = 0; b <= 0xffff; ++b) in.push_back(b);
        return in;
    }
    for (int i = 0; i < random_count; ++i) in.push_back(random_bits(t, rng));
    for (float edge : {88.72283f, -87.33655f, -103.972084f, 1.0f}) {
        const uint32_t b = std::bit_cast<uint32_t>(edge);
        for (uint32_t d = 0; d < 2000; ++d) in.push_back(b - 1000 + d);
    }
    return in;
}

}  // namespace mathtest
