// An independent model of the element types and of TCVT's conversion, for the numeric tests.
//
// It shares no code with the implementation and works differently: every float format is decoded
// from its field definition with ldexp (HiFloat8 by matching its dot prefixes as text), the finite
// values of each small format are enumerated and sorted, and a value rounds by finding its two
// neighbours in that list and choosing one by the rounding rule. Values are carried as long double,
// which holds every 64-bit integer and every finite value of these formats exactly.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>

namespace ref {

using pto::RoundMode;
using pto::SaturationMode;
using pto::engine::DType;
using Real = long double;

static_assert(std::numeric_limits<Real>::digits >= 64, "the reference needs a 64-bit long double significand");

inline constexpr DType kAllTypes[] = {
    DType::F32,    DType::F16,    DType::BF16,   DType::I8,   DType::I16,      DType::I32,
    DType::I64,    DType::U8,     DType::U16,    DType::U32,  DType::U64,      DType::F8E4M3,
    DType::F8E5M2, DType::F8E8M0, DType::HiF8,   DType::F4E2M1x2, DType::F4E1M2x2, DType::I4,
};

inline constexpr RoundMode kAllModes[] = {RoundMode::CAST_NONE,  RoundMode::CAST_RINT, RoundMode::CAST_ROUND,
                                          RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL, RoundMode::CAST_TRUNC,
                                          RoundMode::CAST_ODD};

inline constexpr SaturationMode kBothSaturations[] = {SaturationMode::ON, SaturationMode::OFF};

inline bool is_float(DType t)
{
    switch (t) {
        case DType::F32: case DType::F16: case DType::BF16: case DType::F8E4M3: case DType::F8E5M2:
        case DType::F8E8M0: case DType::HiF8: case DType::F4E2M1x2: case DType::F4E1M2x2: return true;
        default: return false;
    }
}

// Bits of one value, written here rather than taken from the library.
inline int value_bits(DType t)
{
    switch (t) {
        case DType::F32: case DType::I32: case DType::U32: return 32;
        case DType::I64: case DType::U64: return 64;
        case DType::F16: case DType::BF16: case DType::I16: case DType::U16: return 16;
        case DType::F4E2M1x2: case DType::F4E1M2x2: case DType::I4: return 4;
        default: return 8;
    }
}

inline std::string name(DType t)
{
    return std::string(pto::engine::dtype_name(t));
}

inline std::string name(RoundMode m)
{
    static const char* const names[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD"};
    return names[static_cast<int>(m)];
}

// ---- buffers of values ------------------------------------------------------------------------

// A buffer holding `values` values of type t, zero-filled.
inline std::vector<unsigned char> make_buffer(DType t, std::size_t values)
{
    return std::vector<unsigned char>((values * static_cast<std::size_t>(value_bits(t)) + 7) / 8 + 8, 0);
}

template <class T>
T load_as(const unsigned char* buffer, std::size_t i)
{
    T v;
    std::memcpy(&v, buffer + i * sizeof(T), sizeof(T));
    return v;
}

template <class T>
void store_as(unsigned char* buffer, std::size_t i, T v)
{
    std::memcpy(buffer + i * sizeof(T), &v, sizeof(T));
}

// The raw encoding of value i.
inline uint64_t read_bits(DType t, const unsigned char* buffer, std::size_t i)
{
    switch (value_bits(t)) {
        case 4: return (buffer[i / 2] >> (4 * (i % 2))) & 0xF;
        case 8: return buffer[i];
        case 16: return load_as<uint16_t>(buffer, i);
        case 32: return load_as<uint32_t>(buffer, i);
        default: return load_as<uint64_t>(buffer, i);
    }
}

inline void write_bits(DType t, unsigned char* buffer, std::size_t i, uint64_t v)
{
    switch (value_bits(t)) {
        case 4: {
            const int shift = 4 * static_cast<int>(i % 2);
            buffer[i / 2] = static_cast<unsigned char>((buffer[i / 2] & ~(0xF << shift)) | ((v & 0xF) << shift));
            return;
        }
        case 8: buffer[i] = static_cast<unsigned char>(v); return;
        case 16: store_as(buffer, i, static_cast<uint16_t>(v)); return;
        case 32: store_as(buffer, i, static_cast<uint32_t>(v)); return;
        default: store_as(buffer, i, v); return;
    }
}

// ---- decoding -----------------------------------------------------------------------------------

struct Value {
    enum class Kind { Finite, Infinite, NaN } kind = Kind::Finite;
    bool negative = false;  // for a NaN: its sign bit, where the format has one
    Real magnitude = 0;
    uint64_t nan_fraction = 0;  // a NaN's fraction field ...
    int nan_fraction_bits = 0;  // ... and its width (0: the format's NaN carries no payload)

    Real signed_value() const { return negative ? -magnitude : magnitude; }
};

// The IEEE-style float formats, from their field widths. Style: Ieee has infinities and NaNs at
// the all-ones exponent; FiniteWithNaN (E4M3FN) only has the NaN S.1111.111; AllFinite (OCP FP4)
// has neither.
struct FieldFormat {
    int exponent_bits;
    int fraction_bits;
    int bias;
    enum class Style { Ieee, FiniteWithNaN, AllFinite } style;
};

inline FieldFormat field_format(DType t)
{
    using S = FieldFormat::Style;
    switch (t) {
        case DType::F32: return {8, 23, 127, S::Ieee};
        case DType::F16: return {5, 10, 15, S::Ieee};
        case DType::BF16: return {8, 7, 127, S::Ieee};
        case DType::F8E4M3: return {4, 3, 7, S::FiniteWithNaN};
        case DType::F8E5M2: return {5, 2, 15, S::Ieee};
        case DType::F4E2M1x2: return {2, 1, 1, S::AllFinite};
        case DType::F4E1M2x2: return {1, 2, 1, S::AllFinite};
        default: return {0, 0, 0, S::AllFinite};
    }
}

inline Value decode_fields(const FieldFormat& f, uint64_t bits)
{
    Value v;
    const uint64_t fraction = bits & ((uint64_t{1} << f.fraction_bits) - 1);
    const uint64_t exponent = (bits >> f.fraction_bits) & ((uint64_t{1} << f.exponent_bits) - 1);
    v.negative = ((bits >> (f.fraction_bits + f.exponent_bits)) & 1) != 0;
    const uint64_t all_ones = (uint64_t{1} << f.exponent_bits) - 1;
    if (f.style == FieldFormat::Style::Ieee && exponent == all_ones) {
        v.kind = fraction == 0 ? Value::Kind::Infinite : Value::Kind::NaN;
        v.nan_fraction = fraction;
        v.nan_fraction_bits = f.fraction_bits;
        return v;
    }
    if (f.style == FieldFormat::Style::FiniteWithNaN && exponent == all_ones &&
        fraction == (uint64_t{1} << f.fraction_bits) - 1) {
        v.kind = Value::Kind::NaN;
        return v;
    }
    if (exponent == 0) {
        v.magnitude = std::ldexp(static_cast<Real>(fraction), 1 - f.bias - f.fraction_bits);
    } else {
        v.magnitude = std::ldexp(static_cast<Real>(fraction + (uint64_t{1} << f.fraction_bits)),
                                 static_cast<int>(exponent) - f.bias - f.fraction_bits);
    }
    return v;
}

// HiFloat8 from the format description: sign, a dot prefix that names the exponent width D, D
// exponent bits (sign, then magnitude without its leading 1), the remaining bits are the fraction;
// the prefix 0000 marks the denormals 2^(m-23). 0x80 is NaN, 0x6F / 0xEF are infinities.
inline Value decode_hif8(uint64_t bits)
{
    Value v;
    if (bits == 0x80) {
        v.kind = Value::Kind::NaN;
        return v;
    }
    v.negative = (bits & 0x80) != 0;
    if ((bits & 0x7F) == 0x6F) {
        v.kind = Value::Kind::Infinite;
        return v;
    }
    std::string text;
    for (int b = 6; b >= 0; --b) text += ((bits >> b) & 1) ? '1' : '0';
    struct Dot {
        const char* prefix;
        int exponent_width;  // -1: denormal
    };
    static const Dot dots[] = {{"11", 4}, {"10", 3}, {"01", 2}, {"001", 1}, {"0001", 0}, {"0000", -1}};
    for (const Dot& dot : dots) {
        const std::string prefix = dot.prefix;
        if (text.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = text.substr(prefix.size());
        if (dot.exponent_width < 0) {
            const int m = std::stoi(rest, nullptr, 2);
            v.magnitude = m == 0 ? 0 : std::ldexp(Real{1}, m - 23);
            return v;
        }
        int exponent = 0;
        if (dot.exponent_width > 0) {
            // The exponent field: its sign, then its magnitude without the implicit leading 1.
            const std::string field = rest.substr(0, static_cast<std::size_t>(dot.exponent_width));
            const std::string stored = field.substr(1);
            const int magnitude =
                (1 << (dot.exponent_width - 1)) + (stored.empty() ? 0 : std::stoi(stored, nullptr, 2));
            exponent = field[0] == '1' ? -magnitude : magnitude;
        }
        const std::string fraction = rest.substr(static_cast<std::size_t>(dot.exponent_width));
        const Real significand = 1 + std::ldexp(static_cast<Real>(std::stoi(fraction, nullptr, 2)),
                                                -static_cast<int>(fraction.size()));
        v.magnitude = std::ldexp(significand, exponent);
        return v;
    }
    return v;
}

inline Value decode(DType t, uint64_t bits)
{
    Value v;
    switch (t) {
        case DType::F8E8M0:
            if (bits == 0xFF) v.kind = Value::Kind::NaN;
            else v.magnitude = std::ldexp(Real{1}, static_cast<int>(bits) - 127);
            return v;
        case DType::HiF8: return decode_hif8(bits);
        case DType::I4: {
            const int x = static_cast<int>(bits & 0xF);
            v.negative = x >= 8;
            v.magnitude = v.negative ? 16 - x : x;
            return v;
        }
        default: break;
    }
    if (is_float(t)) return decode_fields(field_format(t), bits);
    const int width = value_bits(t);
    const bool is_signed = t == DType::I8 || t == DType::I16 || t == DType::I32 || t == DType::I64;
    const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    bits &= mask;
    v.negative = is_signed && ((bits >> (width - 1)) & 1) != 0;
    v.magnitude = static_cast<Real>(v.negative ? ((~bits + 1) & mask) : bits);
    return v;
}

// ---- the finite values of each float format, sorted ------------------------------------------

struct FloatTable {
    std::vector<Real> values;      // the non-negative finite values, ascending
    std::vector<uint64_t> codes;   // their encodings (sign clear)
    Real next_value = 0;           // what the encoding after the largest would be worth
    uint64_t next_code = 0;        // that encoding
    uint64_t sign_bit = 0;         // 0: the format has no sign (E8M0)
    uint64_t past_largest = 0;     // overflow without saturation: infinity, NaN or the largest
    bool has_infinity = false;
    bool signed_zero = true;
};

inline FloatTable build_table(DType t)
{
    FloatTable table;
    const int bits = value_bits(t);
    table.sign_bit = t == DType::F8E8M0 ? 0 : uint64_t{1} << (bits - 1);
    const uint64_t codes = uint64_t{1} << bits;
    for (uint64_t code = 0; code < codes; ++code) {
        if (table.sign_bit != 0 && (code & table.sign_bit) != 0) continue;
        const Value v = decode(t, code);
        if (v.kind == Value::Kind::Infinite) {
            table.has_infinity = true;
            table.past_largest = code;
        }
        if (v.kind != Value::Kind::Finite) continue;
        table.values.push_back(v.magnitude);
        table.codes.push_back(code);
    }
    std::vector<std::size_t> order(table.values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return table.values[a] < table.values[b]; });
    FloatTable sorted = table;
    for (std::size_t i = 0; i < order.size(); ++i) {
        sorted.values[i] = table.values[order[i]];
        sorted.codes[i] = table.codes[order[i]];
    }
    // The value the encoding after the largest would have if the format went on: one more step of
    // the largest value's binade (for HiF8, whose 0x6F is infinity, 1.5 * 2^15).
    const std::size_t n = sorted.values.size();
    const Real largest = sorted.values[n - 1];
    const Real step = t == DType::F8E8M0 ? largest : largest - sorted.values[n - 2];
    sorted.next_value = t == DType::HiF8 ? largest * 1.5L : largest + step;
    sorted.next_code = sorted.codes[n - 1] + 1;
    if (!sorted.has_infinity) {
        const bool has_nan = t == DType::F8E4M3 || t == DType::F8E8M0;
        sorted.past_largest = has_nan ? (t == DType::F8E4M3 ? 0x7F : 0xFF) : sorted.codes[n - 1];
    }
    sorted.signed_zero = t != DType::HiF8 && t != DType::F8E8M0;
    return sorted;
}

inline const FloatTable& table_of(DType t)
{
    static const FloatTable tables[] = {
        FloatTable{}, build_table(DType::F16), build_table(DType::BF16), FloatTable{}, FloatTable{}, FloatTable{},
        FloatTable{}, FloatTable{}, FloatTable{}, FloatTable{}, FloatTable{}, build_table(DType::F8E4M3),
        build_table(DType::F8E5M2), build_table(DType::F8E8M0), build_table(DType::HiF8),
        build_table(DType::F4E2M1x2), build_table(DType::F4E1M2x2), FloatTable{},
    };
    return tables[static_cast<int>(t)];
}

// ---- value ranges and the conversion policy ---------------------------------------------------

struct Range {
    Real lowest;
    Real highest;
};

inline Range range_of(DType t)
{
    switch (t) {
        case DType::F32: return {-static_cast<Real>(FLT_MAX), static_cast<Real>(FLT_MAX)};
        case DType::I8: return {INT8_MIN, INT8_MAX};
        case DType::I16: return {INT16_MIN, INT16_MAX};
        case DType::I32: return {INT32_MIN, INT32_MAX};
        case DType::I64: return {static_cast<Real>(INT64_MIN), static_cast<Real>(INT64_MAX)};
        case DType::U8: return {0, UINT8_MAX};
        case DType::U16: return {0, UINT16_MAX};
        case DType::U32: return {0, UINT32_MAX};
        case DType::U64: return {0, static_cast<Real>(UINT64_MAX)};
        case DType::I4: return {-8, 7};
        case DType::F8E8M0: return {table_of(t).values.front(), table_of(t).values.back()};
        default: return {-table_of(t).values.back(), table_of(t).values.back()};
    }
}

// A source that is no DType: binary64 (from_double).
inline constexpr int kBinary64Source = -1;

enum class Policy { Saturate, Propagate, LowBits, LowBitsOfInt32 };

// The documented policy (convert.cpp, decisions 3 to 6), restated.
inline Policy policy(DType dst, int src_type, SaturationMode sat)
{
    const bool src_float = src_type == kBinary64Source || is_float(static_cast<DType>(src_type));
    const Range s = src_type == kBinary64Source ? Range{-static_cast<Real>(DBL_MAX), static_cast<Real>(DBL_MAX)}
                                                 : range_of(static_cast<DType>(src_type));
    const Range d = range_of(dst);
    const bool narrows = (src_float && !is_float(dst)) || d.lowest > s.lowest || d.highest < s.highest;
    if (!narrows) return is_float(dst) ? Policy::Propagate : Policy::LowBits;
    if (sat == SaturationMode::ON) return Policy::Saturate;
    if (is_float(dst)) return Policy::Propagate;
    if (!src_float) return Policy::LowBits;
    return value_bits(dst) < 32 ? Policy::LowBitsOfInt32 : Policy::Saturate;
}

// ---- rounding ---------------------------------------------------------------------------------

inline RoundMode resolve(DType dst, RoundMode m)
{
    if (m != RoundMode::CAST_NONE) return m;
    return dst == DType::HiF8 ? RoundMode::CAST_ROUND : RoundMode::CAST_RINT;
}

// Rounding seen on magnitudes: FLOOR and CEIL swap for negative values.
enum class Toward { NearestEven, NearestAway, Larger, Smaller, Odd };

inline Toward toward(RoundMode m, bool negative)
{
    switch (m) {
        case RoundMode::CAST_ROUND: return Toward::NearestAway;
        case RoundMode::CAST_FLOOR: return negative ? Toward::Larger : Toward::Smaller;
        case RoundMode::CAST_CEIL: return negative ? Toward::Smaller : Toward::Larger;
        case RoundMode::CAST_TRUNC: return Toward::Smaller;
        case RoundMode::CAST_ODD: return Toward::Odd;
        default: return Toward::NearestEven;
    }
}

// Where a non-negative magnitude lies among a format's finite values.
struct Location {
    enum class Kind { Exact, Between, PastEverything } kind = Kind::Exact;
    uint64_t code = 0;  // Exact: the value's code
    // Between: the two neighbours. `high` may be the virtual value after the largest finite one.
    Real low = 0, high = 0;
    uint64_t low_code = 0, high_code = 0;
    bool high_is_past = false;
};

inline Location locate_in_table(const FloatTable& t, Real magnitude)
{
    Location at;
    if (magnitude < t.values.front()) {  // only E8M0 has no zero: nothing lies below its smallest
        at.code = t.codes.front();
        return at;
    }
    if (magnitude > t.next_value) {
        at.kind = Location::Kind::PastEverything;
        return at;
    }
    const auto it = std::lower_bound(t.values.begin(), t.values.end(), magnitude);
    const auto i = static_cast<std::size_t>(it - t.values.begin());
    if (it != t.values.end() && *it == magnitude) {
        at.code = t.codes[i];
        return at;
    }
    at.kind = Location::Kind::Between;
    at.low = t.values[i - 1];
    at.low_code = t.codes[i - 1];
    if (i == t.values.size()) {
        at.high = t.next_value;
        at.high_code = t.next_code;
        at.high_is_past = true;
    } else {
        at.high = t.values[i];
        at.high_code = t.codes[i];
    }
    return at;
}

inline uint32_t float_bits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

// binary32 is too large to enumerate: its neighbours come from nextafter around the host's guess.
inline Location locate_in_binary32(Real magnitude)
{
    Location at;
    const Real past = std::ldexp(Real{1}, 128);
    if (magnitude > past) {
        at.kind = Location::Kind::PastEverything;
        return at;
    }
    float guess = magnitude >= static_cast<Real>(FLT_MAX) ? FLT_MAX : static_cast<float>(magnitude);
    if (static_cast<Real>(guess) == magnitude) {
        at.code = float_bits(guess);
        return at;
    }
    if (static_cast<Real>(guess) > magnitude) guess = std::nextafter(guess, 0.0f);
    at.kind = Location::Kind::Between;
    at.low = guess;
    at.low_code = float_bits(guess);
    if (guess == FLT_MAX) {
        at.high = past;
        at.high_code = float_bits(FLT_MAX) + 1;
        at.high_is_past = true;
    } else {
        const float next = std::nextafter(guess, INFINITY);
        at.high = next;
        at.high_code = float_bits(next);
    }
    return at;
}

// The neighbour a rounding direction picks; second: whether that is past the largest finite value.
inline std::pair<uint64_t, bool> choose(const Location& at, Real magnitude, Toward to)
{
    if (at.kind == Location::Kind::Exact) return {at.code, false};
    if (at.kind == Location::Kind::PastEverything) return {0, true};
    const Real below = magnitude - at.low;
    const Real above = at.high - magnitude;
    bool high = false;
    switch (to) {
        case Toward::NearestEven: high = above < below || (above == below && (at.low_code & 1) != 0); break;
        case Toward::NearestAway: high = above <= below; break;
        case Toward::Larger: high = true; break;
        case Toward::Smaller: high = false; break;
        case Toward::Odd: high = (at.low_code & 1) == 0; break;
    }
    return high ? std::pair{at.high_code, at.high_is_past} : std::pair{at.low_code, false};
}

// The largest finite code, and the code an overflow goes to without saturation.
inline uint64_t largest_code(DType t)
{
    return t == DType::F32 ? 0x7F7FFFFF : table_of(t).codes.back();
}

inline uint64_t past_largest_code(DType t)
{
    return t == DType::F32 ? 0x7F800000 : table_of(t).past_largest;
}

inline uint64_t sign_bit_of(DType t)
{
    return t == DType::F32 ? 0x80000000 : table_of(t).sign_bit;
}

inline bool has_signed_zero(DType t)
{
    return t == DType::F32 || table_of(t).signed_zero;
}

// A NaN in a float destination without saturation: quiet, its sign and leading payload kept.
inline uint64_t expected_nan(DType dst, const Value& v)
{
    switch (dst) {
        case DType::F8E8M0: return 0xFF;
        case DType::HiF8: return 0x80;
        case DType::F4E2M1x2: case DType::F4E1M2x2: return 0;
        case DType::F8E4M3: return (v.negative ? 0x80 : 0) | 0x7F;
        default: break;
    }
    const FieldFormat f = field_format(dst);
    uint64_t fraction = 0;
    if (v.nan_fraction_bits > 0) {
        fraction = f.fraction_bits <= v.nan_fraction_bits ? v.nan_fraction >> (v.nan_fraction_bits - f.fraction_bits)
                                                          : v.nan_fraction << (f.fraction_bits - v.nan_fraction_bits);
    }
    fraction |= uint64_t{1} << (f.fraction_bits - 1);
    const uint64_t exponent = ((uint64_t{1} << f.exponent_bits) - 1) << f.fraction_bits;
    return (v.negative ? sign_bit_of(dst) : 0) | exponent | fraction;
}

// Integers as the model handles them: wide enough for every 64-bit value and its rounding.
__extension__ using Integer = __int128;

// Magnitudes beyond every integer type are held here.
inline constexpr Integer kHuge = Integer{1} << 100;

inline Integer lowest_integer(DType t)
{
    switch (t) {
        case DType::I8: return INT8_MIN;
        case DType::I16: return INT16_MIN;
        case DType::I32: return INT32_MIN;
        case DType::I64: return INT64_MIN;
        case DType::I4: return -8;
        default: return 0;
    }
}

inline Integer highest_integer(DType t)
{
    switch (t) {
        case DType::I8: return INT8_MAX;
        case DType::I16: return INT16_MAX;
        case DType::I32: return INT32_MAX;
        case DType::I64: return INT64_MAX;
        case DType::U8: return UINT8_MAX;
        case DType::U16: return UINT16_MAX;
        case DType::U32: return UINT32_MAX;
        case DType::U64: return UINT64_MAX;
        case DType::I4: return 7;
        default: return 0;
    }
}

// The two integers around a finite value, found once so that every mode only has to choose.
struct IntegralNeighbours {
    Integer low = 0;  // floor(value), held within +-kHuge
    Real fraction = 0;
    bool positive = true;

    IntegralNeighbours() = default;
    explicit IntegralNeighbours(Real v) : positive(v > 0)
    {
        const Real floor = std::floor(v);
        fraction = v - floor;
        const Real huge = std::ldexp(Real{1}, 100);
        low = floor >= huge ? kHuge : floor <= -huge ? -kHuge : static_cast<Integer>(floor);
    }

    // The value rounded to an integer in the given mode.
    Integer round(RoundMode mode) const
    {
        if (fraction == 0) return low;
        const Integer high = low + 1;
        const bool low_is_odd = (low & 1) != 0;
        const Integer nearest = fraction < 0.5L ? low : high;
        switch (resolve(DType::I32, mode)) {
            case RoundMode::CAST_ROUND: return fraction == 0.5L ? (positive ? high : low) : nearest;
            case RoundMode::CAST_FLOOR: return low;
            case RoundMode::CAST_CEIL: return high;
            case RoundMode::CAST_TRUNC: return positive ? low : high;
            case RoundMode::CAST_ODD: return low_is_odd ? low : high;
            default: return fraction == 0.5L ? (low_is_odd ? high : low) : nearest;
        }
    }
};

// What the model needs to know about a (destination, source) pair, worked out once.
struct Pair {
    DType dst;
    int src;  // a DType, or kBinary64Source
    Policy on;
    Policy off;
    bool round_only;  // F32 -> F32
};

inline Pair pair_of(DType dst, int src)
{
    return {dst, src, policy(dst, src, SaturationMode::ON), policy(dst, src, SaturationMode::OFF),
            dst == DType::F32 && src == static_cast<int>(DType::F32)};
}

inline Value binary64_value(double d)
{
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    Value v;
    const uint64_t exponent = (bits >> 52) & 0x7FF;
    const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
    v.negative = (bits >> 63) != 0;
    if (exponent == 0x7FF) {
        v.kind = fraction == 0 ? Value::Kind::Infinite : Value::Kind::NaN;
        v.nan_fraction = fraction;
        v.nan_fraction_bits = 52;
    } else {
        v.magnitude = std::fabs(static_cast<Real>(d));
    }
    return v;
}

// What convert() must produce for one source value, in every mode: the value is decoded and
// located among the destination's values (or integers) once; each query then only decides.
class Expectation {
public:
    Expectation(const Pair& pair, const Value& v, uint64_t src_bits) : pair_(pair), value_(v), src_bits_(src_bits)
    {
        if (v.kind != Value::Kind::Finite) return;
        if (pair.round_only || !is_float(pair.dst)) {
            integral_ = IntegralNeighbours(v.signed_value());
            return;
        }
        location_ = pair.dst == DType::F32 ? locate_in_binary32(v.magnitude)
                                           : locate_in_table(table_of(pair.dst), v.magnitude);
    }

    Expectation(DType dst, DType src, uint64_t src_bits)
        : Expectation(pair_of(dst, static_cast<int>(src)), decode(src, src_bits), src_bits)
    {
    }

    uint64_t operator()(RoundMode mode, SaturationMode sat) const
    {
        if (pair_.round_only) return round_only(mode);
        const Policy p = sat == SaturationMode::ON ? pair_.on : pair_.off;
        return is_float(pair_.dst) ? to_float(mode, p) : to_integer(mode, p);
    }

private:
    uint64_t to_float(RoundMode mode, Policy p) const
    {
        const DType dst = pair_.dst;
        const bool saturate = p == Policy::Saturate;
        const Value& v = value_;
        const uint64_t sign = v.negative ? sign_bit_of(dst) : 0;
        if (v.kind == Value::Kind::NaN) return saturate && dst != DType::F8E8M0 ? 0 : expected_nan(dst, v);
        if (dst == DType::F8E8M0) {
            if (v.kind == Value::Kind::Finite && v.magnitude == 0) return 0x00;
            if (v.negative) return saturate ? 0x00 : 0xFF;
            if (v.kind == Value::Kind::Infinite) return saturate ? 0xFE : 0xFF;
        }
        if (v.kind == Value::Kind::Infinite) return sign | (saturate ? largest_code(dst) : past_largest_code(dst));
        const Toward to = toward(resolve(dst, mode), v.negative);
        const auto [code, overflowed] = choose(location_, v.magnitude, to);
        if (overflowed) {
            const bool to_past =
                !saturate && (to == Toward::NearestEven || to == Toward::NearestAway || to == Toward::Larger);
            return sign | (to_past ? past_largest_code(dst) : largest_code(dst));
        }
        if (code == 0 && !has_signed_zero(dst)) return 0;
        return sign | code;
    }

    uint64_t to_integer(RoundMode mode, Policy p) const
    {
        const DType dst = pair_.dst;
        if (value_.kind == Value::Kind::NaN) return 0;
        Integer x = value_.kind == Value::Kind::Infinite ? (value_.negative ? -kHuge : kHuge) : integral_.round(mode);
        if (p == Policy::Saturate) x = std::clamp(x, lowest_integer(dst), highest_integer(dst));
        if (p == Policy::LowBitsOfInt32) x = std::clamp(x, Integer{INT32_MIN}, Integer{INT32_MAX});
        const int width = value_bits(dst);
        const auto bits = static_cast<uint64_t>(x);  // two's complement low 64 bits
        return width == 64 ? bits : bits & ((uint64_t{1} << width) - 1);
    }

    // F32 -> F32: the round-only form.
    uint64_t round_only(RoundMode mode) const
    {
        if (value_.kind == Value::Kind::NaN) return src_bits_ | 0x00400000;
        if (value_.kind == Value::Kind::Infinite || integral_.fraction == 0) return src_bits_;
        const Integer r = integral_.round(mode);
        return (value_.negative ? 0x80000000u : 0u) | float_bits(static_cast<float>(r < 0 ? -r : r));
    }

    Pair pair_;
    Value value_;
    uint64_t src_bits_;
    Location location_;
    IntegralNeighbours integral_;
};

inline uint64_t expected(DType dst, DType src, uint64_t src_bits, RoundMode mode, SaturationMode sat)
{
    return Expectation(dst, src, src_bits)(mode, sat);
}

inline uint64_t expected_from_binary64(DType dst, double v, RoundMode mode, SaturationMode sat)
{
    return Expectation(pair_of(dst, kBinary64Source), binary64_value(v), 0)(mode, sat);
}

}  // namespace ref
