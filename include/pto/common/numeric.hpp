// The element types of PTO kernels beyond the built-in ones: half, bfloat16_t, the 8-bit floats, the
// packed 4-bit float pairs and int4b_t.
//
// Every float type is a trivially copyable struct holding exactly its encoding in the public member
// `bits`. Converting to float is exact. Converting from float, double or an integer rounds once, to
// nearest with ties to even (hifloat8_t: ties away from zero, the only rounding HiFloat8 hardware
// has), and overflows as the format does: to infinity, to NaN for float8_e4m3_t and float8_e8m0_t
// (they have no infinity), to the largest value for the fp4 formats (they have neither).
// Arithmetic computes in float and rounds the float result once. float has more than twice the
// precision of every format here plus two bits, so the double rounding is innocuous: the result
// equals the correctly rounded one.
//
// The rounding machinery below (namespace pto::numeric::detail) serves these types and the TCVT
// implementation in src/numeric alike, so the C++ types and the conversion instruction never differ.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace pto::numeric::detail {

// The rounding directions, numbered like pto::RoundMode (CAST_RINT .. CAST_ODD).
enum class Rounding : uint8_t { NearestEven = 1, NearestAway = 2, Down = 3, Up = 4, TowardZero = 5, Odd = 6 };

template <class To, class From>
constexpr To bit_cast(const From& from) noexcept
{
    return __builtin_bit_cast(To, from);
}

// Index of the highest set bit; `v` must not be zero.
constexpr int top_bit(uint64_t v) noexcept
{
    return 63 - __builtin_clzll(v);
}

// A value known exactly: NaN, an infinity, or significand * 2^exponent (a zero has significand 0).
struct Exact {
    enum class Kind : uint8_t { Finite, Infinite, NaN };
    Kind kind = Kind::Finite;
    bool negative = false;
    uint64_t significand = 0;
    int exponent = 0;
    uint64_t nan_payload = 0;  // a NaN's fraction field, left-aligned to bit 63
};

template <class Int>
constexpr Exact exact_from_integer(Int v) noexcept
{
    Exact x;
    if constexpr (std::is_signed_v<Int>) {
        x.negative = v < 0;
        x.significand = x.negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    } else {
        x.significand = static_cast<uint64_t>(v);
    }
    return x;
}

// significand * 2^exponent cut down to a multiple of 2^quantum, with what the cut dropped: whether
// the dropped part is at least half a quantum, and whether anything below that half is non-zero.
struct Cut {
    uint64_t multiple;
    bool half;
    bool sticky;
};

constexpr Cut cut_at(uint64_t significand, int exponent, int quantum) noexcept
{
    if (quantum <= exponent) return {significand << (exponent - quantum), false, false};
    const int dropped = quantum - exponent;
    if (dropped > 64) return {0, false, significand != 0};
    if (dropped == 64) return {0, (significand >> 63) != 0, (significand << 1) != 0};
    const uint64_t half = uint64_t{1} << (dropped - 1);
    const uint64_t rest = significand & ((half << 1) - 1);
    return {significand >> dropped, (rest & half) != 0, (rest & (half - 1)) != 0};
}

// Whether a cut magnitude moves up to the next multiple. `kept_is_odd` says whether the kept
// neighbour's encoding ends in a 1: ties to even and round-to-odd decide by the encoding's last bit.
constexpr bool rounds_up(Rounding r, bool negative, const Cut& cut, bool kept_is_odd) noexcept
{
    const bool inexact = cut.half || cut.sticky;
    switch (r) {
        case Rounding::NearestEven: return cut.half && (cut.sticky || kept_is_odd);
        case Rounding::NearestAway: return cut.half;
        case Rounding::Down: return inexact && negative;
        case Rounding::Up: return inexact && !negative;
        case Rounding::TowardZero: return false;
        case Rounding::Odd: return inexact && !kept_is_odd;
    }
    return false;
}

// Whether an overflow in direction r goes past the largest finite value (IEEE 754 7.4).
constexpr bool overflows_past_largest(Rounding r, bool negative) noexcept
{
    return r == Rounding::NearestEven || r == Rounding::NearestAway || (r == Rounding::Up && !negative) ||
           (r == Rounding::Down && negative);
}

// A binary format of the IEEE 754 kind: sign, biased exponent, fraction, subnormals at exponent
// field 0. Encodings are "magnitudes" without the sign bit. A format may lack an infinity (the
// encoding past the largest finite value is then a NaN, or the format has no NaN either).
struct BinaryFormat {
    int fraction_bits;
    int exponent_bias;
    uint64_t largest;    // the largest finite magnitude
    uint64_t infinity;   // 0: no infinity
    uint64_t quiet_nan;  // 0: no NaN; with an infinity: the canonical quiet NaN, else the only NaN
    int sign_bit;
};

inline constexpr BinaryFormat kBinary64{52, 1023, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000, 0x7FF8000000000000, 63};
inline constexpr BinaryFormat kBinary32{23, 127, 0x7F7FFFFF, 0x7F800000, 0x7FC00000, 31};
inline constexpr BinaryFormat kBinary16{10, 15, 0x7BFF, 0x7C00, 0x7E00, 15};
inline constexpr BinaryFormat kBfloat16{7, 127, 0x7F7F, 0x7F80, 0x7FC0, 15};
inline constexpr BinaryFormat kFloat8E4M3{3, 7, 0x7E, 0, 0x7F, 7};  // OCP E4M3FN: S.1111.111 is NaN
inline constexpr BinaryFormat kFloat8E5M2{2, 15, 0x7B, 0x7C, 0x7E, 7};
inline constexpr BinaryFormat kFloat4E2M1{1, 1, 0x7, 0, 0, 3};  // OCP MX FP4: every encoding finite
inline constexpr BinaryFormat kFloat4E1M2{2, 1, 0x7, 0, 0, 3};

// What a value past the largest finite one becomes when nothing saturates it.
constexpr uint64_t past_largest(const BinaryFormat& f) noexcept
{
    return f.infinity ? f.infinity : (f.quiet_nan ? f.quiet_nan : f.largest);
}

constexpr Exact unpack(const BinaryFormat& f, uint64_t bits) noexcept
{
    Exact x;
    x.negative = ((bits >> f.sign_bit) & 1) != 0;
    const uint64_t magnitude = bits & ((uint64_t{1} << f.sign_bit) - 1);
    const uint64_t fraction_mask = (uint64_t{1} << f.fraction_bits) - 1;
    const uint64_t fraction = magnitude & fraction_mask;
    if (f.infinity != 0 && magnitude >= f.infinity) {
        x.kind = magnitude == f.infinity ? Exact::Kind::Infinite : Exact::Kind::NaN;
        if (x.kind == Exact::Kind::NaN) x.nan_payload = fraction << (64 - f.fraction_bits);
        return x;
    }
    if (f.quiet_nan != 0 && magnitude == f.quiet_nan) {  // the single NaN of a format without infinity
        x.kind = Exact::Kind::NaN;
        return x;
    }
    const uint64_t field = magnitude >> f.fraction_bits;
    x.significand = field == 0 ? fraction : fraction | (fraction_mask + 1);
    x.exponent = static_cast<int>(field == 0 ? 1 : field) - f.exponent_bias - f.fraction_bits;
    return x;
}

// Rounds x into format f once. With `saturate`, NaN becomes +0 and anything past the finite range
// the largest finite value of its sign (the Ascend saturation mode); without it, NaN stays NaN (its
// sign and leading payload bits kept, made quiet) and overflow follows IEEE 754.
constexpr uint64_t encode(const BinaryFormat& f, const Exact& x, Rounding r, bool saturate) noexcept
{
    const uint64_t sign = uint64_t{x.negative} << f.sign_bit;
    if (x.kind == Exact::Kind::NaN) {
        if (saturate || f.quiet_nan == 0) return 0;
        if (f.infinity == 0) return sign | f.quiet_nan;
        return sign | f.quiet_nan | (x.nan_payload >> (64 - f.fraction_bits));
    }
    if (x.kind == Exact::Kind::Infinite) return sign | (saturate ? f.largest : past_largest(f));
    if (x.significand == 0) return sign;

    const auto overflow = [&] {
        return sign | (saturate || !overflows_past_largest(r, x.negative) ? f.largest : past_largest(f));
    };
    const int binade = top_bit(x.significand) + x.exponent;
    const int min_binade = 1 - f.exponent_bias;
    const int max_binade = static_cast<int>(f.largest >> f.fraction_bits) - f.exponent_bias;
    if (binade > max_binade) return overflow();

    // Normal numbers step by 2^(binade - fraction_bits), subnormals by the smallest normal's step.
    const int quantum = (binade < min_binade ? min_binade : binade) - f.fraction_bits;
    const Cut cut = cut_at(x.significand, x.exponent, quantum);
    const uint64_t steps = cut.multiple + rounds_up(r, x.negative, cut, (cut.multiple & 1) != 0);
    // A subnormal's steps are its encoding; a normal's add its biased binade. A carry out of the
    // fraction (steps == 2^(fraction_bits+1)) moves into the exponent field by itself.
    const uint64_t implicit_one = uint64_t{1} << f.fraction_bits;
    const uint64_t magnitude =
        binade < min_binade
            ? steps
            : (static_cast<uint64_t>(binade + f.exponent_bias) << f.fraction_bits) + (steps - implicit_one);
    if (magnitude > f.largest) return overflow();
    return sign | magnitude;
}

// HiFloat8 (Ascend HiF8, "Ascend HiFloat8 Format for Deep Learning", 2024): sign, then a prefix-coded
// "dot" field giving the width D of a sign-magnitude exponent whose leading magnitude bit is implicit,
// then the fraction:
//   dot 11   D=4: exponent +-[8,15], 1 fraction bit      dot 001  D=1: exponent +-1, 3 fraction bits
//   dot 10   D=3: exponent +-[4,7],  2 fraction bits     dot 0001 D=0: exponent 0,   3 fraction bits
//   dot 01   D=2: exponent +-[2,3],  3 fraction bits     dot 0000: 2^(m-23) for the 3-bit m = 1..7
// 0x00 is the only zero, 0x80 the only NaN, 0x6F/0xEF (exponent +15 with fraction 1) are +-infinity;
// the largest finite value is 2^15 = 32768 and the smallest 2^-22.
inline constexpr uint8_t kHif8NaN = 0x80;
inline constexpr uint8_t kHif8Infinity = 0x6F;
inline constexpr uint8_t kHif8Largest = 0x6E;

constexpr int hif8_fraction_bits(int exponent) noexcept
{
    const int magnitude = exponent < 0 ? -exponent : exponent;
    return magnitude <= 3 ? 3 : magnitude <= 7 ? 2 : 1;
}

// The encoding of +(1 + fraction / 2^bits) * 2^exponent for |exponent| <= 15.
constexpr uint8_t hif8_normal(int exponent, uint64_t fraction) noexcept
{
    const unsigned magnitude = static_cast<unsigned>(exponent < 0 ? -exponent : exponent);
    const unsigned negative_exponent = exponent < 0 ? 1u : 0u;
    const auto f = static_cast<unsigned>(fraction);
    unsigned code = 0;
    if (magnitude >= 8) code = 0x60u | negative_exponent << 4 | (magnitude - 8) << 1 | f;
    else if (magnitude >= 4) code = 0x40u | negative_exponent << 4 | (magnitude - 4) << 2 | f;
    else if (magnitude >= 2) code = 0x20u | negative_exponent << 4 | (magnitude - 2) << 3 | f;
    else if (magnitude == 1) code = 0x10u | negative_exponent << 3 | f;
    else code = 0x08u | f;
    return static_cast<uint8_t>(code);
}

constexpr Exact unpack_hif8(uint8_t bits) noexcept
{
    Exact x;
    if (bits == kHif8NaN) {
        x.kind = Exact::Kind::NaN;
        return x;
    }
    x.negative = (bits & 0x80) != 0;
    const unsigned code = bits & 0x7Fu;
    if (code == kHif8Infinity) {
        x.kind = Exact::Kind::Infinite;
        return x;
    }
    int exponent_magnitude = 0;
    bool exponent_negative = false;
    int fraction_bits = 3;
    if ((code & 0x60) == 0x60) {
        exponent_negative = (code & 0x10) != 0;
        exponent_magnitude = 8 + static_cast<int>((code >> 1) & 7);
        fraction_bits = 1;
    } else if ((code & 0x60) == 0x40) {
        exponent_negative = (code & 0x10) != 0;
        exponent_magnitude = 4 + static_cast<int>((code >> 2) & 3);
        fraction_bits = 2;
    } else if ((code & 0x60) == 0x20) {
        exponent_negative = (code & 0x10) != 0;
        exponent_magnitude = 2 + static_cast<int>((code >> 3) & 1);
    } else if ((code & 0x10) != 0) {
        exponent_negative = (code & 0x08) != 0;
        exponent_magnitude = 1;
    } else if ((code & 0x08) == 0) {  // dot 0000: a bare power of two, or zero
        if (code != 0) {
            x.significand = 1;
            x.exponent = static_cast<int>(code) - 23;
        }
        return x;
    }
    const uint64_t fraction = code & ((1u << fraction_bits) - 1);
    x.significand = fraction | (uint64_t{1} << fraction_bits);
    x.exponent = (exponent_negative ? -exponent_magnitude : exponent_magnitude) - fraction_bits;
    return x;
}

// Rounds x to HiFloat8 once; `saturate` as for encode(). The format has no -0: zeros encode as 0x00.
constexpr uint8_t encode_hif8(const Exact& x, Rounding r, bool saturate) noexcept
{
    const uint8_t sign = x.negative ? 0x80 : 0x00;
    if (x.kind == Exact::Kind::NaN) return saturate ? 0 : kHif8NaN;
    if (x.kind == Exact::Kind::Infinite) return sign | (saturate ? kHif8Largest : kHif8Infinity);
    if (x.significand == 0) return 0;

    const auto overflow = [&] {
        return static_cast<uint8_t>(
            sign | (saturate || !overflows_past_largest(r, x.negative) ? kHif8Largest : kHif8Infinity));
    };
    int binade = top_bit(x.significand) + x.exponent;
    if (binade > 15) return overflow();
    if (binade >= -15) {
        const int fraction_bits = hif8_fraction_bits(binade);
        const Cut cut = cut_at(x.significand, x.exponent, binade - fraction_bits);
        const uint64_t steps = cut.multiple + rounds_up(r, x.negative, cut, (cut.multiple & 1) != 0);
        uint64_t fraction = steps - (uint64_t{1} << fraction_bits);
        if (fraction >> fraction_bits) {  // carried into the next binade
            ++binade;
            fraction = 0;
        }
        if (binade > 15 || (binade == 15 && fraction != 0)) return overflow();
        return sign | hif8_normal(binade, fraction);
    }
    // Below 2^-15 only the powers of two 2^-22 .. 2^-16 remain: cut at the binade's own power (or at
    // 2^-22 below that). The kept power's encoding is its exponent + 23, zero's is 0.
    const int quantum = binade < -22 ? -22 : binade;
    const Cut cut = cut_at(x.significand, x.exponent, quantum);
    const bool kept_is_odd = cut.multiple != 0 && ((quantum + 23) & 1) != 0;
    const uint64_t steps = cut.multiple + rounds_up(r, x.negative, cut, kept_is_odd);
    if (steps == 0) return 0;
    const int power = quantum + (steps == 2 ? 1 : 0);
    if (power == -15) return sign | hif8_normal(-15, 0);
    return static_cast<uint8_t>(sign | (power + 23));
}

// OCP MX E8M0: an unsigned power of two 2^(e-127) for e = 0..254; 0xFF is NaN. No zero, no sign, no
// infinity: NaN, negative values and values past 2^127 (unless saturated) become NaN; zero and
// anything below 2^-127 become 2^-127. `saturate` clamps into [2^-127, 2^127] instead (NaN stays).
inline constexpr uint8_t kE8M0NaN = 0xFF;
inline constexpr uint8_t kE8M0Largest = 0xFE;
inline constexpr uint8_t kE8M0Smallest = 0x00;

constexpr Exact unpack_e8m0(uint8_t bits) noexcept
{
    Exact x;
    if (bits == kE8M0NaN) {
        x.kind = Exact::Kind::NaN;
        return x;
    }
    x.significand = 1;
    x.exponent = static_cast<int>(bits) - 127;
    return x;
}

constexpr uint8_t encode_e8m0(const Exact& x, Rounding r, bool saturate) noexcept
{
    if (x.kind == Exact::Kind::NaN) return kE8M0NaN;
    const bool is_zero = x.kind == Exact::Kind::Finite && x.significand == 0;
    if (is_zero) return kE8M0Smallest;
    if (x.negative) return saturate ? kE8M0Smallest : kE8M0NaN;
    if (x.kind == Exact::Kind::Infinite) return saturate ? kE8M0Largest : kE8M0NaN;

    const uint8_t overflow = saturate || !overflows_past_largest(r, false) ? kE8M0Largest : kE8M0NaN;
    const int binade = top_bit(x.significand) + x.exponent;
    if (binade < -127) return kE8M0Smallest;
    if (binade > 127) return overflow;
    const Cut cut = cut_at(x.significand, x.exponent, binade);
    const int power = binade + (rounds_up(r, false, cut, ((binade + 127) & 1) != 0) ? 1 : 0);
    return power > 127 ? overflow : static_cast<uint8_t>(power + 127);
}

// Exact widening to binary32: every format here fits.
constexpr float to_float(const Exact& x) noexcept
{
    return bit_cast<float>(static_cast<uint32_t>(encode(kBinary32, x, Rounding::NearestEven, false)));
}

constexpr Exact unpack_float(float v) noexcept
{
    return unpack(kBinary32, bit_cast<uint32_t>(v));
}

constexpr Exact unpack_double(double v) noexcept
{
    return unpack(kBinary64, bit_cast<uint64_t>(v));
}

// The hot paths: binary32 <-> binary16 / bfloat16 with ties to even, integer operations only.
constexpr uint16_t binary32_to_binary16(uint32_t bits) noexcept
{
    const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
    const uint32_t magnitude = bits & 0x7FFFFFFF;
    if (magnitude >= 0x7F800000) {  // infinity, or NaN made quiet with its leading payload bits
        return magnitude == 0x7F800000 ? sign | 0x7C00 : sign | 0x7E00 | ((magnitude >> 13) & 0x3FF);
    }
    if (magnitude >= 0x477FF000) return sign | 0x7C00;  // >= 65520 rounds past 65504
    if (magnitude >= 0x38800000) {                       // a normal result (>= 2^-14): rebias and round
        const uint32_t rounded = magnitude - 0x38000000 + 0xFFF + ((magnitude >> 13) & 1);
        return static_cast<uint16_t>(sign | (rounded >> 13));
    }
    if (magnitude <= 0x33000000) return sign;  // <= 2^-25 rounds to zero (2^-25 ties to even zero)
    // A subnormal result: the value in steps of 2^-24.
    const uint32_t significand = (magnitude & 0x7FFFFF) | 0x800000;
    const uint32_t shift = 126 - (magnitude >> 23);
    const uint32_t kept = significand >> shift;
    const uint32_t rest = significand & ((1u << shift) - 1);
    const uint32_t half = 1u << (shift - 1);
    const uint32_t up = (rest > half || (rest == half && (kept & 1))) ? 1 : 0;
    return static_cast<uint16_t>(sign | (kept + up));
}

constexpr uint32_t binary16_to_binary32(uint16_t bits) noexcept
{
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
    const uint32_t field = (bits >> 10) & 0x1F;
    const uint32_t fraction = bits & 0x3FF;
    if (field == 0x1F) return sign | 0x7F800000 | (fraction << 13) | (fraction ? 0x400000 : 0);
    if (field != 0) return sign | ((field + 112) << 23) | (fraction << 13);
    if (fraction == 0) return sign;
    const int top = top_bit(fraction);  // subnormal: fraction * 2^-24, normalised
    return sign | (static_cast<uint32_t>(top + 103) << 23) | ((fraction << (23 - top)) & 0x7FFFFF);
}

constexpr uint16_t binary32_to_bfloat16(uint32_t bits) noexcept
{
    if ((bits & 0x7FFFFFFF) > 0x7F800000) return static_cast<uint16_t>((bits >> 16) | 0x0040);
    return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

constexpr uint32_t bfloat16_to_binary32(uint16_t bits) noexcept
{
    const uint32_t widened = static_cast<uint32_t>(bits) << 16;
    return (widened & 0x7FFFFFFF) > 0x7F800000 ? widened | 0x400000 : widened;  // NaN made quiet
}

// Codecs: how a scalar type rounds to its encoding and widens to float.
struct Binary16Codec {
    using storage = uint16_t;
    static constexpr storage from_float(float v) noexcept { return binary32_to_binary16(bit_cast<uint32_t>(v)); }
    static constexpr storage from_exact(const Exact& x) noexcept
    {
        return static_cast<storage>(encode(kBinary16, x, Rounding::NearestEven, false));
    }
    static constexpr float to_float(storage b) noexcept { return bit_cast<float>(binary16_to_binary32(b)); }
};

struct Bfloat16Codec {
    using storage = uint16_t;
    static constexpr storage from_float(float v) noexcept { return binary32_to_bfloat16(bit_cast<uint32_t>(v)); }
    static constexpr storage from_exact(const Exact& x) noexcept
    {
        return static_cast<storage>(encode(kBfloat16, x, Rounding::NearestEven, false));
    }
    static constexpr float to_float(storage b) noexcept { return bit_cast<float>(bfloat16_to_binary32(b)); }
};

template <BinaryFormat F>
struct SmallBinaryCodec {
    using storage = uint8_t;
    static constexpr storage from_exact(const Exact& x) noexcept
    {
        return static_cast<storage>(encode(F, x, Rounding::NearestEven, false));
    }
    static constexpr storage from_float(float v) noexcept { return from_exact(unpack_float(v)); }
    static constexpr float to_float(storage b) noexcept { return detail::to_float(unpack(F, b)); }
};

struct Hif8Codec {
    using storage = uint8_t;
    static constexpr storage from_exact(const Exact& x) noexcept
    {
        return encode_hif8(x, Rounding::NearestAway, false);
    }
    static constexpr storage from_float(float v) noexcept { return from_exact(unpack_float(v)); }
    static constexpr float to_float(storage b) noexcept { return detail::to_float(unpack_hif8(b)); }
};

struct E8M0Codec {
    using storage = uint8_t;
    static constexpr storage from_exact(const Exact& x) noexcept
    {
        return encode_e8m0(x, Rounding::NearestEven, false);
    }
    static constexpr storage from_float(float v) noexcept { return from_exact(unpack_float(v)); }
    static constexpr float to_float(storage b) noexcept { return detail::to_float(unpack_e8m0(b)); }
};

// The binary operations, as function objects so that one template serves every operator.
struct Add {
    template <class A, class B>
    constexpr auto operator()(A a, B b) const noexcept { return a + b; }
};
struct Subtract {
    template <class A, class B>
    constexpr auto operator()(A a, B b) const noexcept { return a - b; }
};
struct Multiply {
    template <class A, class B>
    constexpr auto operator()(A a, B b) const noexcept { return a * b; }
};
struct Divide {
    template <class A, class B>
    constexpr auto operator()(A a, B b) const noexcept { return a / b; }
};
struct Equal {
    template <class A, class B>
    constexpr bool operator()(A a, B b) const noexcept { return a == b; }
};
struct NotEqual {
    template <class A, class B>
    constexpr bool operator()(A a, B b) const noexcept { return a != b; }
};
struct Less {
    template <class A, class B>
    constexpr bool operator()(A a, B b) const noexcept { return a < b; }
};
struct LessEqual {
    template <class A, class B>
    constexpr bool operator()(A a, B b) const noexcept { return a <= b; }
};
struct Greater {
    template <class A, class B>
    constexpr bool operator()(A a, B b) const noexcept { return a > b; }
};
struct GreaterEqual {
    template <class A, class B>
    constexpr bool operator()(A a, B b) const noexcept { return a >= b; }
};

// One operand is the emulated type, the other a built-in arithmetic type.
template <class Derived, class L, class R>
concept MixedOperands = (std::is_same_v<L, Derived> && std::is_arithmetic_v<R>) ||
                        (std::is_arithmetic_v<L> && std::is_same_v<R, Derived>);

// A scalar float type: its encoding, conversions, and float-computed arithmetic and comparisons.
// Mixed with a built-in floating type the operation happens in that type's common type with float
// (as for a native narrow float); mixed with an integer, the integer first converts to Derived.
template <class Derived, class Codec>
struct ScalarFloat {
    using storage = typename Codec::storage;
    storage bits;

    ScalarFloat() = default;
    constexpr ScalarFloat(float v) noexcept : bits(Codec::from_float(v)) {}
    constexpr ScalarFloat(double v) noexcept : bits(Codec::from_exact(unpack_double(v))) {}
    template <class Int>
        requires std::is_integral_v<Int>
    constexpr ScalarFloat(Int v) noexcept : bits(Codec::from_exact(exact_from_integer(v)))
    {
    }

    static constexpr Derived from_bits(storage b) noexcept
    {
        Derived d{};
        d.bits = b;
        return d;
    }

    constexpr operator float() const noexcept { return Codec::to_float(bits); }

    friend constexpr Derived operator+(Derived a) noexcept { return a; }
    friend constexpr Derived operator-(Derived a) noexcept { return Derived(-float(a)); }

    friend constexpr Derived operator+(Derived a, Derived b) noexcept { return Derived(float(a) + float(b)); }
    friend constexpr Derived operator-(Derived a, Derived b) noexcept { return Derived(float(a) - float(b)); }
    friend constexpr Derived operator*(Derived a, Derived b) noexcept { return Derived(float(a) * float(b)); }
    friend constexpr Derived operator/(Derived a, Derived b) noexcept { return Derived(float(a) / float(b)); }

    // Comparisons of the exact values; NaN is unordered and +0 == -0, as float's.
    friend constexpr bool operator==(Derived a, Derived b) noexcept { return float(a) == float(b); }
    friend constexpr bool operator!=(Derived a, Derived b) noexcept { return float(a) != float(b); }
    friend constexpr bool operator<(Derived a, Derived b) noexcept { return float(a) < float(b); }
    friend constexpr bool operator<=(Derived a, Derived b) noexcept { return float(a) <= float(b); }
    friend constexpr bool operator>(Derived a, Derived b) noexcept { return float(a) > float(b); }
    friend constexpr bool operator>=(Derived a, Derived b) noexcept { return float(a) >= float(b); }

    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr auto operator+(L a, R b) noexcept { return mixed(a, b, Add{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr auto operator-(L a, R b) noexcept { return mixed(a, b, Subtract{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr auto operator*(L a, R b) noexcept { return mixed(a, b, Multiply{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr auto operator/(L a, R b) noexcept { return mixed(a, b, Divide{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr bool operator==(L a, R b) noexcept { return mixed(a, b, Equal{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr bool operator!=(L a, R b) noexcept { return mixed(a, b, NotEqual{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr bool operator<(L a, R b) noexcept { return mixed(a, b, Less{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr bool operator<=(L a, R b) noexcept { return mixed(a, b, LessEqual{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr bool operator>(L a, R b) noexcept { return mixed(a, b, Greater{}); }
    template <class L, class R>
        requires MixedOperands<Derived, L, R>
    friend constexpr bool operator>=(L a, R b) noexcept { return mixed(a, b, GreaterEqual{}); }

    template <class T>
    constexpr Derived& operator+=(const T& v) noexcept { return self() = Derived(self() + v); }
    template <class T>
    constexpr Derived& operator-=(const T& v) noexcept { return self() = Derived(self() - v); }
    template <class T>
    constexpr Derived& operator*=(const T& v) noexcept { return self() = Derived(self() * v); }
    template <class T>
    constexpr Derived& operator/=(const T& v) noexcept { return self() = Derived(self() / v); }

private:
    constexpr Derived& self() noexcept { return static_cast<Derived&>(*this); }

    // The operands of an operation mixed with built-in type T, in the type the operation happens in.
    template <class T>
    static constexpr auto promote(Derived v) noexcept
    {
        if constexpr (std::is_floating_point_v<T>) return static_cast<std::common_type_t<float, T>>(float(v));
        else return v;
    }
    template <class T>
    static constexpr auto promote(T v) noexcept
    {
        if constexpr (std::is_floating_point_v<T>) return static_cast<std::common_type_t<float, T>>(v);
        else return Derived(v);
    }

    template <class L, class R, class Op>
    static constexpr auto mixed(L a, R b, Op op) noexcept
    {
        using Builtin = std::conditional_t<std::is_same_v<L, Derived>, R, L>;
        return op(promote<Builtin>(a), promote<Builtin>(b));
    }
};

// A byte holding two 4-bit floats, element 0 in the low nibble. Converting from a scalar sets
// element 0 and zeroes element 1; converting to float reads element 0. Arithmetic is element-wise.
template <class Derived, BinaryFormat F>
struct PackedFloat4Pair {
    uint8_t bits;

    PackedFloat4Pair() = default;
    constexpr PackedFloat4Pair(float v) noexcept : bits(encode_element(unpack_float(v))) {}
    constexpr PackedFloat4Pair(double v) noexcept : bits(encode_element(unpack_double(v))) {}
    template <class Int>
        requires std::is_integral_v<Int>
    constexpr PackedFloat4Pair(Int v) noexcept : bits(encode_element(exact_from_integer(v)))
    {
    }
    constexpr PackedFloat4Pair(float element0, float element1) noexcept
        : bits(static_cast<uint8_t>(encode_element(unpack_float(element0)) |
                                    encode_element(unpack_float(element1)) << 4))
    {
    }

    static constexpr Derived from_bits(uint8_t b) noexcept
    {
        Derived d{};
        d.bits = b;
        return d;
    }

    // Element i (0 or 1) as a float, exactly.
    constexpr float element(int i) const noexcept { return to_float(unpack(F, (bits >> (4 * i)) & 0xFu)); }
    constexpr operator float() const noexcept { return element(0); }

    friend constexpr Derived operator+(Derived a) noexcept { return a; }
    friend constexpr Derived operator-(Derived a) noexcept { return Derived(-a.element(0), -a.element(1)); }
    friend constexpr Derived operator+(Derived a, Derived b) noexcept { return each(a, b, Add{}); }
    friend constexpr Derived operator-(Derived a, Derived b) noexcept { return each(a, b, Subtract{}); }
    friend constexpr Derived operator*(Derived a, Derived b) noexcept { return each(a, b, Multiply{}); }
    friend constexpr Derived operator/(Derived a, Derived b) noexcept { return each(a, b, Divide{}); }
    friend constexpr bool operator==(Derived a, Derived b) noexcept
    {
        return a.element(0) == b.element(0) && a.element(1) == b.element(1);
    }
    friend constexpr bool operator!=(Derived a, Derived b) noexcept { return !(a == b); }

    constexpr Derived& operator+=(Derived v) noexcept { return self() = self() + v; }
    constexpr Derived& operator-=(Derived v) noexcept { return self() = self() - v; }
    constexpr Derived& operator*=(Derived v) noexcept { return self() = self() * v; }
    constexpr Derived& operator/=(Derived v) noexcept { return self() = self() / v; }

private:
    static constexpr uint8_t encode_element(const Exact& x) noexcept
    {
        return static_cast<uint8_t>(encode(F, x, Rounding::NearestEven, false));
    }
    template <class Op>
    static constexpr Derived each(Derived a, Derived b, Op op) noexcept
    {
        return Derived(op(a.element(0), b.element(0)), op(a.element(1), b.element(1)));
    }
    constexpr Derived& self() noexcept { return static_cast<Derived&>(*this); }
};

}  // namespace pto::numeric::detail

// The element types live in the global namespace, where the device compiler declares them.
struct half : pto::numeric::detail::ScalarFloat<half, pto::numeric::detail::Binary16Codec> {
    using ScalarFloat::ScalarFloat;
};
struct bfloat16_t : pto::numeric::detail::ScalarFloat<bfloat16_t, pto::numeric::detail::Bfloat16Codec> {
    using ScalarFloat::ScalarFloat;
};
struct float8_e4m3_t
    : pto::numeric::detail::ScalarFloat<float8_e4m3_t,
                                         pto::numeric::detail::SmallBinaryCodec<pto::numeric::detail::kFloat8E4M3>> {
    using ScalarFloat::ScalarFloat;
};
struct float8_e5m2_t
    : pto::numeric::detail::ScalarFloat<float8_e5m2_t,
                                         pto::numeric::detail::SmallBinaryCodec<pto::numeric::detail::kFloat8E5M2>> {
    using ScalarFloat::ScalarFloat;
};
struct float8_e8m0_t : pto::numeric::detail::ScalarFloat<float8_e8m0_t, pto::numeric::detail::E8M0Codec> {
    using ScalarFloat::ScalarFloat;
};
struct hifloat8_t : pto::numeric::detail::ScalarFloat<hifloat8_t, pto::numeric::detail::Hif8Codec> {
    using ScalarFloat::ScalarFloat;
};
struct float4_e2m1x2_t
    : pto::numeric::detail::PackedFloat4Pair<float4_e2m1x2_t, pto::numeric::detail::kFloat4E2M1> {
    using PackedFloat4Pair::PackedFloat4Pair;
};
struct float4_e1m2x2_t
    : pto::numeric::detail::PackedFloat4Pair<float4_e1m2x2_t, pto::numeric::detail::kFloat4E1M2> {
    using PackedFloat4Pair::PackedFloat4Pair;
};

using float16_t = half;
using aclFloat16 = half;
using float32_t = float;

namespace pto {

using ::aclFloat16;
using ::bfloat16_t;
using ::float16_t;
using ::float32_t;
using ::float4_e1m2x2_t;
using ::float4_e2m1x2_t;
using ::float8_e4m3_t;
using ::float8_e5m2_t;
using ::float8_e8m0_t;
using ::half;
using ::hifloat8_t;

// A signed 4-bit integer in the low nibble of a byte (tiles pack two per byte, see DType::I4).
// Construction keeps the low four bits of its argument; conversion sign-extends them.
struct int4b_t {
    uint8_t bits;

    int4b_t() = default;
    constexpr int4b_t(int32_t v) noexcept : bits(static_cast<uint8_t>(static_cast<uint32_t>(v) & 0xFu)) {}
    constexpr operator int8_t() const noexcept { return static_cast<int8_t>(static_cast<int8_t>(bits << 4) >> 4); }
};

}  // namespace pto

namespace pto::numeric::detail {

// The numeric_limits of a binary format with infinity and NaN (half and bfloat16_t).
template <class T, int Digits, int MinExponent, int MaxExponent, int Digits10, int MaxDigits10,
          int MinExponent10, int MaxExponent10, uint16_t MinBits, uint16_t MaxBits, uint16_t EpsilonBits,
          uint16_t InfinityBits, uint16_t QuietNaNBits, uint16_t SignalingNaNBits>
struct IeeeLimits {
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = true;
    static constexpr std::float_denorm_style has_denorm = std::denorm_present;
    static constexpr bool has_denorm_loss = false;
    static constexpr std::float_round_style round_style = std::round_to_nearest;
    static constexpr bool is_iec559 = true;
    static constexpr bool is_bounded = true;
    static constexpr bool is_modulo = false;
    static constexpr int digits = Digits;
    static constexpr int digits10 = Digits10;
    static constexpr int max_digits10 = MaxDigits10;
    static constexpr int radix = 2;
    static constexpr int min_exponent = MinExponent;
    static constexpr int min_exponent10 = MinExponent10;
    static constexpr int max_exponent = MaxExponent;
    static constexpr int max_exponent10 = MaxExponent10;
    static constexpr bool traps = false;
    static constexpr bool tinyness_before = false;

    static constexpr T min() noexcept { return T::from_bits(MinBits); }
    static constexpr T max() noexcept { return T::from_bits(MaxBits); }
    static constexpr T lowest() noexcept { return T::from_bits(MaxBits | 0x8000); }
    static constexpr T epsilon() noexcept { return T::from_bits(EpsilonBits); }
    static constexpr T round_error() noexcept { return T(0.5f); }
    static constexpr T infinity() noexcept { return T::from_bits(InfinityBits); }
    static constexpr T quiet_NaN() noexcept { return T::from_bits(QuietNaNBits); }
    static constexpr T signaling_NaN() noexcept { return T::from_bits(SignalingNaNBits); }
    static constexpr T denorm_min() noexcept { return T::from_bits(0x0001); }
};

}  // namespace pto::numeric::detail

template <>
struct std::numeric_limits<half>
    : pto::numeric::detail::IeeeLimits<half, 11, -13, 16, 3, 5, -4, 4, 0x0400, 0x7BFF, 0x1400, 0x7C00, 0x7E00,
                                       0x7D00> {};
template <>
struct std::numeric_limits<bfloat16_t>
    : pto::numeric::detail::IeeeLimits<bfloat16_t, 8, -125, 128, 2, 4, -37, 38, 0x0080, 0x7F7F, 0x3C00, 0x7F80,
                                       0x7FC0, 0x7FA0> {};

namespace pto::numeric::detail {

// The numeric_limits of a packed pair of 4-bit floats (no infinity, no NaN, subnormals). Each value
// sets element 0 (the low nibble) and leaves element 1 zero, as converting a scalar to the pair does.
template <class T, int Digits, int MinExponent, int MaxExponent, uint8_t MinBits, uint8_t MaxBits,
          uint8_t EpsilonBits>
struct Float4PairLimits {
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = false;
    static constexpr bool has_quiet_NaN = false;
    static constexpr bool has_signaling_NaN = false;
    static constexpr std::float_denorm_style has_denorm = std::denorm_present;
    static constexpr bool has_denorm_loss = false;
    static constexpr std::float_round_style round_style = std::round_to_nearest;
    static constexpr bool is_iec559 = false;
    static constexpr bool is_bounded = true;
    static constexpr bool is_modulo = false;
    static constexpr int digits = Digits;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 2;
    static constexpr int radix = 2;
    static constexpr int min_exponent = MinExponent;
    static constexpr int min_exponent10 = 0;
    static constexpr int max_exponent = MaxExponent;
    static constexpr int max_exponent10 = 0;
    static constexpr bool traps = false;
    static constexpr bool tinyness_before = false;

    static constexpr T min() noexcept { return T::from_bits(MinBits); }
    static constexpr T max() noexcept { return T::from_bits(MaxBits); }
    static constexpr T lowest() noexcept { return T::from_bits(MaxBits | 0x8); }
    static constexpr T epsilon() noexcept { return T::from_bits(EpsilonBits); }
    static constexpr T round_error() noexcept { return T(0.5f); }
    // Without infinities and NaNs these are zero, as for any type that has none.
    static constexpr T infinity() noexcept { return T::from_bits(0); }
    static constexpr T quiet_NaN() noexcept { return T::from_bits(0); }
    static constexpr T signaling_NaN() noexcept { return T::from_bits(0); }
    static constexpr T denorm_min() noexcept { return T::from_bits(0x1); }
};

}  // namespace pto::numeric::detail

// e2m1: min normal 1.0 (0x2), max 6.0 (0x7), epsilon 0.5 (0x1), denorm_min 0.5.
template <>
struct std::numeric_limits<float4_e2m1x2_t>
    : pto::numeric::detail::Float4PairLimits<float4_e2m1x2_t, 2, 1, 3, 0x2, 0x7, 0x1> {};
// e1m2: min normal 1.0 (0x4), max 1.75 (0x7), epsilon 0.25 (0x1), denorm_min 0.25.
template <>
struct std::numeric_limits<float4_e1m2x2_t>
    : pto::numeric::detail::Float4PairLimits<float4_e1m2x2_t, 3, 1, 1, 0x4, 0x7, 0x1> {};
