// The meaning of one element of every element-wise operation, written from the functor comments of
// src/engine/elementwise/operations.hpp and math_lines.hpp, on elements held as bit patterns of their
// element type (so that one compiled reference serves every type): floats computed in double and rounded
// once to the type (tests/elementwise/support.hpp's table search for the 16-bit formats), the elementary
// functions bounded in ulps as tests/math bounds them, integers in 128 bits. Also the random operands:
// special values for floats, edge values for integers, never all zeros.
#pragma once

#include <pto/engine/dtype.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "elementwise/support.hpp"
#include "math/support.hpp"

namespace ewinstr {

using pto::engine::DType;
using Wide = __int128;

// The operations of the PTO_ELEMENTWISE rows (their Op column).
enum class Op : uint8_t {
    Add, Sub, Mul, Div, Max, Min, And, Or, Xor, Shl, Shr, Rem, Fmod, Prelu, SubRelu,
    Abs, Neg, Not, Relu, Exp, Log, Sqrt, Rsqrt, Recip, Pow,
};

// The precision a Precise row was called with (its template argument's index: DEFAULT, HIGH_PRECISION).
enum class Precision : uint8_t { Default, High };

// --- elements as bit patterns ------------------------------------------------------------------------

inline bool is_float(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }
inline bool is_signed(DType t) { return t == DType::I8 || t == DType::I16 || t == DType::I32 || t == DType::I64; }
inline int width(DType t) { return pto::engine::dtype_bits(t); }
inline uint64_t width_mask(DType t) { return width(t) == 64 ? ~uint64_t{0} : (uint64_t{1} << width(t)) - 1; }

inline uint64_t load(const std::byte* base, int64_t index, DType t)
{
    uint64_t v = 0;
    std::memcpy(&v, base + index * width(t) / 8, std::size_t(width(t) / 8));
    return v;
}

inline void store(std::byte* base, int64_t index, DType t, uint64_t v)
{
    std::memcpy(base + index * width(t) / 8, &v, std::size_t(width(t) / 8));
}

inline Wide int_value(DType t, uint64_t bits)
{
    bits &= width_mask(t);
    if (is_signed(t) && width(t) < 64 && (bits >> (width(t) - 1)) != 0) return Wide(bits) - (Wide(1) << width(t));
    if (t == DType::I64) return Wide(int64_t(bits));
    return Wide(bits);
}

inline Wide int_min(DType t) { return is_signed(t) ? -(Wide(1) << (width(t) - 1)) : 0; }
inline Wide int_max(DType t) { return is_signed(t) ? (Wide(1) << (width(t) - 1)) - 1 : (Wide(1) << width(t)) - 1; }

// Two's complement wrap to the type's width.
inline uint64_t wrap(DType t, Wide x) { return uint64_t(static_cast<unsigned __int128>(x)) & width_mask(t); }

inline double float_value(DType t, uint64_t bits)
{
    if (t == DType::F32) return std::bit_cast<float>(uint32_t(bits));
    return ewtest::decode16(t == DType::F16 ? ewtest::kHalf : ewtest::kBfloat16, uint16_t(bits));
}

// x rounded once to nearest even in type t (a NaN becomes some NaN).
inline uint64_t round_to(DType t, double x)
{
    if (t == DType::F32) return std::bit_cast<uint32_t>(static_cast<float>(x));
    return (t == DType::F16 ? ewtest::half_rounder() : ewtest::bfloat16_rounder()).round(x);
}

inline bool is_nan(DType t, uint64_t bits) { return is_float(t) && std::isnan(float_value(t, bits)); }

inline mathtest::Type math_type(DType t)
{
    return t == DType::F32 ? mathtest::Type::F32 : t == DType::F16 ? mathtest::Type::F16 : mathtest::Type::BF16;
}

inline std::string element_text(DType t, uint64_t bits)
{
    std::ostringstream out;
    if (is_float(t)) out << float_value(t, bits) << " (0x" << std::hex << bits << ")";
    else out << int64_t(int_value(t, bits));
    return out.str();
}

// --- the reference of one element ------------------------------------------------------------------

// The larger under IEEE 754-2019 maximumNumber: a NaN loses to a number, +0 beats -0.
inline double maximum_number(double a, double b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == 0 && b == 0) return std::signbit(a) && std::signbit(b) ? -0.0 : 0.0;
    return a > b ? a : b;
}

inline double minimum_number(double a, double b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == 0 && b == 0) return std::signbit(a) || std::signbit(b) ? -0.0 : 0.0;
    return a < b ? a : b;
}

inline double relu(double a) { return maximum_number(a, 0.0); }

inline std::optional<mathtest::MathFn> math_function(Op op)
{
    switch (op) {
        case Op::Exp: return mathtest::MathFn::Exp;
        case Op::Log: return mathtest::MathFn::Log;
        case Op::Sqrt: return mathtest::MathFn::Sqrt;
        case Op::Rsqrt: return mathtest::MathFn::Rsqrt;
        case Op::Recip: return mathtest::MathFn::Recip;
        default: return std::nullopt;
    }
}

// The exact result of a float operation on the operands' values (b is ignored by the one-operand ones).
// Every operation here but the elementary functions and pow is one rounding of this value away from the
// element type's result.
inline double float_reference(Op op, double a, double b)
{
    if (const auto fn = math_function(op)) return mathtest::reference(*fn, a);
    switch (op) {
        case Op::Add: return a + b;
        case Op::Sub: return a - b;
        case Op::Mul: return a * b;
        case Op::Div: return a / b;
        case Op::Max: return maximum_number(a, b);
        case Op::Min: return minimum_number(a, b);
        case Op::Rem: {  // floor remainder: the divisor's sign
            const double r = std::fmod(a, b);
            if (r == 0) return std::copysign(0.0, b);
            return std::signbit(r) != std::signbit(b) ? r + b : r;
        }
        case Op::Fmod: return std::fmod(a, b);
        case Op::Prelu: return a > 0 ? a : a * b;
        case Op::SubRelu: return relu(a - b);
        case Op::Abs: return std::fabs(a);
        case Op::Neg: return -a;
        case Op::Relu: return relu(a);
        case Op::Pow: return std::pow(a, b);
        default: return std::numeric_limits<double>::quiet_NaN();  // integer-only operations
    }
}

// a to the power e, wrapped: exact powers modulo 2^64 by repeated squaring.
inline Wide integer_power(DType t, Wide base, Wide exponent)
{
    if (exponent < 0) {
        if (base == 1) return 1;
        if (base == -1) return exponent % 2 == 0 ? 1 : -1;
        return 0;
    }
    uint64_t result = 1, factor = uint64_t(static_cast<unsigned __int128>(base));
    for (auto e = static_cast<unsigned __int128>(exponent); e != 0; e >>= 1) {
        if (e & 1) result *= factor;
        factor *= factor;
    }
    return int_value(t, result);
}

// x converted to integer type t as TCVT converts with truncation and saturation: toward zero, clamped to
// the type's range, NaN to 0.
inline uint64_t truncated_saturated(DType t, long double x)
{
    if (std::isnan(x)) return 0;
    if (x >= static_cast<long double>(int_max(t))) return wrap(t, int_max(t));
    if (x <= static_cast<long double>(int_min(t))) return wrap(t, int_min(t));
    return wrap(t, Wide(std::trunc(x)));
}

// The result bits of an integer operation.
inline uint64_t int_reference(Op op, DType t, uint64_t a_bits, uint64_t b_bits)
{
    const Wide a = int_value(t, a_bits), b = int_value(t, b_bits);
    // Shift counts are read as unsigned numbers of the element's width.
    const auto count = static_cast<unsigned __int128>(b_bits & width_mask(t));
    switch (op) {
        case Op::Add: return wrap(t, a + b);
        case Op::Sub: return wrap(t, a - b);
        case Op::Mul: return wrap(t, Wide(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b)));
        case Op::Div:  // truncated, saturated; x / 0 is the type's end on x's side, 0 / 0 is 0
            if (b == 0) return wrap(t, a == 0 ? 0 : a > 0 ? int_max(t) : int_min(t));
            return wrap(t, std::clamp(a / b, int_min(t), int_max(t)));
        case Op::Max: return wrap(t, std::max(a, b));
        case Op::Min: return wrap(t, std::min(a, b));
        case Op::And: return a_bits & b_bits & width_mask(t);
        case Op::Or: return (a_bits | b_bits) & width_mask(t);
        case Op::Xor: return (a_bits ^ b_bits) & width_mask(t);
        case Op::Shl: return count >= unsigned(width(t)) ? 0 : wrap(t, Wide(static_cast<unsigned __int128>(a) << count));
        case Op::Shr:  // arithmetic for signed types
            if (count >= unsigned(width(t))) return wrap(t, a < 0 ? -1 : 0);
            return wrap(t, a >> int(count));
        case Op::Rem: {  // floor remainder: the divisor's sign; x rem 0 is x
            if (b == 0) return wrap(t, a);
            const Wide r = a % b;
            return wrap(t, r != 0 && (r < 0) != (b < 0) ? r + b : r);
        }
        case Op::Fmod: return wrap(t, b == 0 ? a : a % b);
        case Op::Abs: return wrap(t, a < 0 ? -a : a);
        case Op::Neg: return wrap(t, -a);
        case Op::Not: return ~a_bits & width_mask(t);
        case Op::Relu: return wrap(t, std::max<Wide>(a, 0));
        case Op::Pow: return wrap(t, integer_power(t, a, b));
        case Op::Prelu: return a > 0 ? wrap(t, a) : int_reference(Op::Mul, t, a_bits, b_bits);
        // The elementary functions of integers (the cpu profile's): the real function, then TCVT's
        // truncating saturating conversion; the reciprocal is TDIV's integer quotient 1 / a.
        case Op::Exp: return truncated_saturated(t, std::exp(static_cast<long double>(a)));
        case Op::Log: return truncated_saturated(t, std::log(static_cast<long double>(a)));
        case Op::Sqrt: return truncated_saturated(t, std::sqrt(static_cast<long double>(a)));
        case Op::Rsqrt: return truncated_saturated(t, 1.0L / std::sqrt(static_cast<long double>(a)));
        case Op::Recip: return int_reference(Op::Div, t, 1, a_bits);
        default: return 0;  // float-only operations
    }
}

// Empty if `got` is op(a, b) in type t at precision p, else what is wrong. Floats: the bits of the exact
// result rounded once, any NaN for a NaN (with the sign for Abs and Neg, which set it), within the
// documented ulp bound for the elementary functions and pow.
inline std::string mismatch(Op op, DType t, Precision p, uint64_t a, uint64_t b, uint64_t got)
{
    got &= width_mask(t);
    std::string expected_text;
    if (!is_float(t)) {
        const uint64_t want = int_reference(op, t, a, b);
        if (want == got) return {};
        expected_text = element_text(t, want);
    } else {
        const double exact = float_reference(op, float_value(t, a), float_value(t, b));
        const auto fn = math_function(op);
        if (fn || op == Op::Pow) {
            const auto accuracy = p == Precision::High ? mathtest::MathAccuracy::High : mathtest::MathAccuracy::Default;
            const double bound = fn ? mathtest::error_bound(math_type(t), *fn, accuracy) : mathtest::pow_bound(math_type(t));
            const double error = mathtest::ulp_error(math_type(t), exact, float_value(t, got));
            if (error <= bound) return {};
            expected_text = std::to_string(exact) + " within " + std::to_string(bound) + " ulp";
        } else if (std::isnan(exact)) {
            const bool sign_decided = op == Op::Abs || op == Op::Neg;
            if (is_nan(t, got) && (!sign_decided || std::signbit(exact) == std::signbit(float_value(t, got)))) return {};
            expected_text = std::signbit(exact) ? "-NaN" : "NaN";
        } else {
            const uint64_t want = round_to(t, exact);
            if (want == got) return {};
            expected_text = element_text(t, want);
        }
    }
    return "of " + element_text(t, a) + " and " + element_text(t, b) + " is " + element_text(t, got) + ", expected " +
           expected_text;
}

// --- operands -------------------------------------------------------------------------------------

// NaNs (quiet and signalling, both signs), infinities, zeros, subnormals, the largest finite values, ±1, 2
// and 0.5 of each float type.
inline std::vector<uint64_t> float_specials(DType t)
{
    switch (t) {
        case DType::F32:
            return {0x7fc00000, 0xffc00000, 0x7f800001, 0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x00000001,
                    0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x40000000, 0x3f000000};
        case DType::F16:
            return {0x7e00, 0xfe00, 0x7c01, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001,
                    0x83ff, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x4000, 0x3800};
        default:
            return {0x7fc0, 0xffc0, 0x7f81, 0x7f80, 0xff80, 0x0000, 0x8000, 0x0001,
                    0x807f, 0x7f7f, 0xff7f, 0x3f80, 0xbf80, 0x4000, 0x3f00};
    }
}

// A random element of type t: a quarter special values (integers: the extremes, 0, ±1, 2), a quarter
// small integers (shift counts, exponents, divisors), the rest spread over the type (floats: any
// fraction over 20 binades either side of 1 for float, 8 for the 16-bit formats; integers: any bits).
inline uint64_t random_element(DType t, std::mt19937& rng)
{
    const unsigned pick = rng() % 4;
    if (is_float(t)) {
        if (pick == 0) {
            const std::vector<uint64_t> specials = float_specials(t);
            return specials[rng() % specials.size()];
        }
        if (pick == 1) return round_to(t, double(int(rng() % 17) - 8));
        const int fraction_bits = t == DType::F32 ? 23 : t == DType::F16 ? 10 : 7;
        const int bias = t == DType::F32 ? 127 : t == DType::F16 ? 15 : 127;
        const int spread = t == DType::F32 ? 20 : 8;
        const uint64_t exponent = uint64_t(bias - spread + int(rng() % unsigned(2 * spread + 1)));
        const uint64_t fraction = rng() & ((uint64_t{1} << fraction_bits) - 1);
        const uint64_t sign = uint64_t(rng() % 2) << (width(t) - 1);
        return sign | exponent << fraction_bits | fraction;
    }
    if (pick == 0) {
        const Wide edges[] = {int_min(t), int_max(t), 0, 1, -1, 2};
        return wrap(t, edges[rng() % 6]);
    }
    if (pick == 1) return wrap(t, Wide(int(rng() % 40) - 4));
    return (uint64_t(rng()) << 32 | rng()) & width_mask(t);
}

}  // namespace ewinstr
