// Plain reference helpers of the vector tests: lane types, float formats decoded field by field, and
// rounding into them by choosing between the two neighbouring encodings, in double arithmetic.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

namespace pto::as::testing::vector_reference {

struct Lane {
    const char* name;  // as a register element type
    int bytes;
    bool is_float;
    bool is_signed;
};
constexpr Lane kF32{"f32", 4, true, true}, kF16{"f16", 2, true, true}, kBF16{"bf16", 2, true, true};
constexpr Lane kI8{"i8", 1, false, true}, kU8{"ui8", 1, false, false}, kI16{"i16", 2, false, true},
    kU16{"ui16", 2, false, false}, kI32{"i32", 4, false, true}, kU32{"ui32", 4, false, false}, kI64{"i64", 8, false, true};

inline std::string vreg(const Lane& t) { return "!pto.vreg<" + std::to_string(256 / t.bytes) + "x" + t.name + ">"; }

// A float format by its fields: value of an encoding, and the largest finite encoding (positive).
struct FloatFormat {
    int exponent_bits, mantissa_bits;
    double value(uint32_t magnitude_bits) const
    {
        const uint32_t exponent = magnitude_bits >> mantissa_bits, mantissa = magnitude_bits & ((1u << mantissa_bits) - 1);
        const int bias = (1 << (exponent_bits - 1)) - 1;
        if (exponent == 0) return std::ldexp(double(mantissa), 1 - bias - mantissa_bits);
        return std::ldexp(double(mantissa | (1u << mantissa_bits)), int(exponent) - bias - mantissa_bits);
    }
    uint32_t max_finite() const { return (((1u << exponent_bits) - 2) << mantissa_bits) | ((1u << mantissa_bits) - 1); }
    uint32_t infinity() const { return ((1u << exponent_bits) - 1) << mantissa_bits; }
    uint32_t sign() const { return 1u << (exponent_bits + mantissa_bits); }
};
inline FloatFormat format_of(const Lane& t) { return t.bytes == 4 ? FloatFormat{8, 23} : t.name == std::string("f16") ? FloatFormat{5, 10} : FloatFormat{8, 7}; }

inline uint64_t read_lane(const uint8_t* p, int bytes)
{
    uint64_t v = 0;
    std::memcpy(&v, p, std::size_t(bytes));
    return v;
}

inline double float_value(const Lane& t, uint64_t bits)
{
    const FloatFormat f = format_of(t);
    const uint32_t magnitude = uint32_t(bits) & (f.sign() - 1);
    if ((magnitude & f.infinity()) == f.infinity())
        return (magnitude == f.infinity() ? std::numeric_limits<double>::infinity() : std::nan("")) * ((bits & f.sign()) ? -1 : 1);
    const double v = f.value(magnitude);
    return (bits & f.sign()) ? -v : v;
}

// The rounding modes by their tokens, applied to the choice between two neighbours.
enum class Mode { R, A, F, C, Z, O };
constexpr std::pair<const char*, Mode> kModes[] = {{"R", Mode::R}, {"A", Mode::A}, {"F", Mode::F}, {"C", Mode::C}, {"Z", Mode::Z}, {"O", Mode::O}};

// x rounded to an integer: plain double arithmetic on the two integral neighbours.
inline double round_integral(double x, Mode mode)
{
    const double lo = std::floor(x), hi = lo + 1;
    if (lo == x || !std::isfinite(x)) return x;
    const double to_lo = x - lo, to_hi = hi - x;
    double r = 0;
    switch (mode) {
        case Mode::R: r = to_lo < to_hi ? lo : to_hi < to_lo ? hi : (std::fmod(lo, 2) == 0 ? lo : hi); break;
        case Mode::A: r = to_lo < to_hi ? lo : to_hi < to_lo ? hi : (x < 0 ? lo : hi); break;
        case Mode::F: r = lo; break;
        case Mode::C: r = hi; break;
        case Mode::Z: r = x < 0 ? hi : lo; break;
        case Mode::O: r = std::fmod(lo, 2) != 0 ? lo : hi; break;
    }
    return r == 0 ? std::copysign(0.0, x) : r;
}

// x rounded into float format `f` by `mode`, over the two neighbouring encodings; `saturate` clamps
// overflow and infinities to the largest finite value and makes NaN +0. The encoding is returned.
inline uint32_t round_to_float(double x, const FloatFormat& f, Mode mode, bool saturate)
{
    if (std::isnan(x)) return saturate ? 0 : f.infinity() | (1u << (f.mantissa_bits - 1));
    const uint32_t sign = std::signbit(x) ? f.sign() : 0;
    const double m = std::fabs(x);
    if (std::isinf(x)) return sign | (saturate ? f.max_finite() : f.infinity());
    // Directed modes act on the magnitude: toward -inf is toward zero for positives, away for negatives.
    if (mode == Mode::F) mode = sign ? Mode::C : Mode::Z;
    else if (mode == Mode::C) mode = sign ? Mode::Z : Mode::C;
    // lo: the largest encoding of value <= m (binary search: values grow with encodings).
    uint32_t lo = 0, hi_bound = f.max_finite();
    if (m >= f.value(hi_bound)) lo = hi_bound;
    else
        while (lo < hi_bound) {
            const uint32_t mid = (lo + hi_bound + 1) / 2;
            if (f.value(mid) <= m) lo = mid;
            else hi_bound = mid - 1;
        }
    if (f.value(lo) == m) return sign | lo;
    const uint32_t hi = lo + 1;  // max_finite + 1 is the infinity: overflow
    const double hi_value = lo == f.max_finite() ? 2 * f.value(lo) - f.value(lo - 1) : f.value(hi);
    const double to_lo = m - f.value(lo), to_hi = hi_value - m;
    uint32_t r = 0;
    switch (mode) {
        case Mode::R: r = to_lo < to_hi ? lo : to_hi < to_lo ? hi : (lo % 2 == 0 ? lo : hi); break;
        case Mode::A: r = to_lo < to_hi ? lo : to_hi < to_lo ? hi : hi; break;
        case Mode::C: r = hi; break;  // away from zero on the magnitude
        case Mode::Z: case Mode::F: r = lo; break;
        case Mode::O: r = lo % 2 ? lo : hi; break;
    }
    if (r == f.infinity() && saturate) r = f.max_finite();
    return sign | r;
}

inline void write_lane(uint8_t* p, uint64_t v, int bytes) { std::memcpy(p, &v, std::size_t(bytes)); }

inline bool same_float(const Lane& t, uint64_t a, uint64_t b)
{
    return a == b || (std::isnan(float_value(t, a)) && std::isnan(float_value(t, b)));
}


}  // namespace pto::as::testing::vector_reference
