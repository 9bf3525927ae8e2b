// The plain reference of TQUANT the tests compare with: double precision, written from the page's
// formulas (group maximum, E8M0 exponent by OCP or NV, scaling, clip, round to nearest even into e4m3 or
// e2m1 by searching the format's values; int8 affine with one rounding), nothing shared with the engine.
#pragma once

#include <pto/common/type.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace pto::test::tquant {

struct Format {
    bool fp4;
    int emax() const { return fp4 ? 2 : 8; }
    double vmax() const { return fp4 ? 6.0 : 448.0; }
    // The magnitude of code `c` (sign bit clear).
    double magnitude(int c) const
    {
        const int mantissa_bits = fp4 ? 1 : 3, bias = fp4 ? 1 : 7;
        const int e = c >> mantissa_bits, m = c & ((1 << mantissa_bits) - 1);
        const double fraction = double(m) / double(1 << mantissa_bits);
        return e == 0 ? std::ldexp(fraction, 1 - bias) : std::ldexp(1.0 + fraction, e - bias);
    }
    int largest_code() const { return fp4 ? 0x7 : 0x7E; }
    uint8_t sign_bit() const { return fp4 ? 0x8 : 0x80; }
    // The code of v (|v| <= vmax): the nearest value, ties to the even code.
    uint8_t encode(double v) const
    {
        const double a = std::fabs(v);
        int best = 0;
        for (int c = 1; c <= largest_code(); ++c) {
            const double d = std::fabs(magnitude(c) - a), best_d = std::fabs(magnitude(best) - a);
            if (d < best_d || (d == best_d && c % 2 == 0)) best = c;
        }
        return uint8_t(best | (std::signbit(v) ? sign_bit() : 0));
    }
};

constexpr uint8_t kNanExponent = 0xFF;

// Largest |x| of a group; NaN when one of them is NaN.
struct GroupMax {
    double m = 0;
    void add(double x)
    {
        if (std::isnan(m)) return;
        m = std::isnan(x) ? x : std::max(m, std::fabs(x));
    }
};

inline uint8_t exponent(double m, const Format& f, bool nv)
{
    if (std::isnan(m)) return kNanExponent;
    if (!nv) {
        if (std::isinf(m)) return uint8_t(255 - f.emax());
        if (m < std::ldexp(1.0, -126)) return 0;  // zero or subnormal: biased exponent 0
        int k;
        std::frexp(m, &k);  // m = f * 2^k, f in [0.5, 1): floor(log2 m) = k - 1
        return uint8_t(std::max(k - 1 + 127 - f.emax(), 0));
    }
    if (m == 0) return 0;
    const float descale = float(m) * float(1.0 / f.vmax());  // the page's f32 computation
    if (std::isinf(descale)) return 254;
    int k;
    const double fraction = std::frexp(double(descale), &k);
    const int ceil_log2 = fraction == 0.5 ? k - 1 : k;
    return uint8_t(std::clamp(ceil_log2 + 127, 0, 254));
}

inline double scaling(uint8_t e)
{
    return e == kNanExponent ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, 127 - int(e));
}

// The code of x in a group scaled by s.
inline uint8_t quantized(double x, double s, const Format& f)
{
    if (std::isnan(s)) return f.fp4 ? 0x7 : 0x7F;
    return f.encode(std::clamp(x * s, -f.vmax(), f.vmax()));
}

// int8 / uint8 of x * scale (+ offset), the product and the sum rounded to f32, NaN giving 0.
inline int int8_of(float x, float scale, float offset, bool asym)
{
    const float v = asym ? float(x * scale) + offset : x * scale;
    if (std::isnan(v)) return 0;
    const double low = asym ? 0 : -128, high = asym ? 255 : 127;
    return int(std::clamp(std::nearbyint(double(v)), low, high));
}

}  // namespace pto::test::tquant
