// The fast paths: whole buffers of built-in storage types, one tight loop per pair, the rounding
// written to compile without branches where it depends on the data.
#include "fast_paths.hpp"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace pto::numeric::internal {
namespace {

template <class Dst, class Src, class Op>
[[gnu::flatten]] void map_elements(void* dst, const void* src, std::size_t count, Op op)
{
    for (std::size_t i = 0; i < count; ++i) store<Dst>(dst, i, op(load<Src>(src, i)));
}

// Calls f with a value of the C++ type of integer type t; false if t is no byte-sized integer.
template <class F>
bool with_integer_type(DType t, F&& f)
{
    switch (t) {
        case DType::I8: f(int8_t{}); return true;
        case DType::I16: f(int16_t{}); return true;
        case DType::I32: f(int32_t{}); return true;
        case DType::I64: f(int64_t{}); return true;
        case DType::U8: f(uint8_t{}); return true;
        case DType::U16: f(uint16_t{}); return true;
        case DType::U32: f(uint32_t{}); return true;
        case DType::U64: f(uint64_t{}); return true;
        default: return false;
    }
}

// An integral value stored into Int under the policy (the fast paths never see U64 floats).
template <class Int, class Wide>
Int narrow_integer(Wide v, OutOfRange policy)
{
    const auto clamp = [&v](Wide lo, Wide hi) { return v < lo ? lo : v > hi ? hi : v; };
    if (policy == OutOfRange::Saturate) v = clamp(std::numeric_limits<Int>::min(), std::numeric_limits<Int>::max());
    if (policy == OutOfRange::KeepLowBitsOfInt32) {
        v = clamp(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
    }
    return static_cast<Int>(v);
}

// significand * 2^-shift rounded to an integer, ties to even, for |shift| < 64 (the result must fit):
// written to compile without branches, since which way it rounds depends on the data.
constexpr uint64_t shift_rint(uint64_t significand, int shift)
{
    const uint64_t kept = shift > 0 ? significand >> shift : significand << -shift;
    const uint64_t rest = shift > 0 ? significand & ((uint64_t{1} << shift) - 1) : 0;
    const uint64_t half = shift > 0 ? uint64_t{1} << (shift - 1) : 1;
    return kept + ((rest > half) | ((rest == half) & kept & 1));
}

// binary32 rounded to the nearest integer, ties to even; NaN is 0, beyond the int64 range clamps.
int64_t binary32_to_integer_rint(uint32_t bits)
{
    const uint32_t magnitude = bits & 0x7FFFFFFF;
    const bool negative = (bits >> 31) != 0;
    if (magnitude < 0x3F000000) return 0;  // below 0.5
    if (magnitude >= 0x5F000000) {         // 2^63 and beyond, infinities, NaN
        if (magnitude > 0x7F800000) return 0;
        return negative ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    }
    const auto integer = static_cast<int64_t>(
        shift_rint((magnitude & 0x7FFFFF) | 0x800000, 150 - static_cast<int>(magnitude >> 23)));
    return negative ? -integer : integer;
}

// An integer magnitude rounded to binary32, ties to even.
uint32_t binary32_from_integer_rint(bool negative, uint64_t magnitude)
{
    if (magnitude == 0) return 0;
    const int top = detail::top_bit(magnitude);
    // The 24 leading bits, rounded; a carry to 2^24 moves into the exponent through the addition.
    const uint64_t significand = shift_rint(magnitude, top - 23);
    return (negative ? 0x80000000u : 0u) |
           ((static_cast<uint32_t>(top + 127) << 23) + static_cast<uint32_t>(significand - 0x800000));
}

template <class Int>
uint32_t binary32_from_integer_rint(Int v)
{
    const Exact x = detail::exact_from_integer(v);
    return binary32_from_integer_rint(x.negative, x.significand);
}

// binary32 -> F16 / BF16 with `narrow`; saturated, NaN becomes +0 and infinities the largest value.
template <class Narrow>
void narrow_binary32(void* out, const void* in, std::size_t count, bool saturate, Narrow narrow, uint16_t infinity)
{
    if (!saturate) {
        map_elements<uint16_t, uint32_t>(out, in, count, narrow);
        return;
    }
    map_elements<uint16_t, uint32_t>(out, in, count, [narrow, infinity](uint32_t bits) -> uint16_t {
        if ((bits & 0x7FFFFFFF) > 0x7F800000) return 0;
        const uint16_t rounded = narrow(bits);
        return (rounded & 0x7FFF) == infinity ? static_cast<uint16_t>(rounded - 1) : rounded;
    });
}

// F32 / F16 / BF16 (stored as Src, widened exactly by `widen`) -> integer type Dst.
template <class Dst, class Src, class Widen>
void float_to_integer(void* out, const void* in, std::size_t count, OutOfRange policy, Widen widen)
{
    map_elements<Dst, Src>(out, in, count, [policy, widen](Src v) {
        return narrow_integer<Dst>(binary32_to_integer_rint(widen(v)), policy);
    });
}

}  // namespace

bool convert_integers(DType dst, void* out, DType src, const void* in, std::size_t count, OutOfRange policy)
{
    bool done = false;
    with_integer_type(dst, [&](auto dst_type) {
        done = with_integer_type(src, [&](auto src_type) {
            using D = decltype(dst_type);
            using S = decltype(src_type);
            map_elements<D, S>(out, in, count, [policy](S v) { return narrow_integer<D>(Int128{v}, policy); });
        });
    });
    return done;
}

bool convert_rint(DType dst, void* out, DType src, const void* in, std::size_t count, OutOfRange policy)
{
    using enum DType;
    const bool saturate = policy == OutOfRange::Saturate;
    if (src == F32 && dst == F16) {
        narrow_binary32(out, in, count, saturate, [](uint32_t b) { return detail::binary32_to_binary16(b); }, 0x7C00);
        return true;
    }
    if (src == F32 && dst == BF16) {
        narrow_binary32(out, in, count, saturate, [](uint32_t b) { return detail::binary32_to_bfloat16(b); }, 0x7F80);
        return true;
    }
    if (src == F16 && dst == F32) {
        map_elements<uint32_t, uint16_t>(out, in, count, detail::binary16_to_binary32);
        return true;
    }
    if (src == BF16 && dst == F32) {
        map_elements<uint32_t, uint16_t>(out, in, count, detail::bfloat16_to_binary32);
        return true;
    }
    if (dst == F32) {  // from any integer: F32 holds every integer range, no saturation applies
        return with_integer_type(src, [&](auto src_type) {
            using S = decltype(src_type);
            map_elements<uint32_t, S>(out, in, count, [](S v) { return binary32_from_integer_rint(v); });
        });
    }
    if (dst == F16 && (src == I8 || src == U8 || src == I16)) {  // exact in F32, so rounded only once
        return with_integer_type(src, [&](auto src_type) {
            using S = decltype(src_type);
            map_elements<uint16_t, S>(out, in, count, [](S v) {
                return detail::binary32_to_binary16(binary32_from_integer_rint(v));
            });
        });
    }
    if ((src == F32 || src == F16 || src == BF16) && dst != U64) {
        return with_integer_type(dst, [&](auto dst_type) {
            using D = decltype(dst_type);
            if (src == F32) float_to_integer<D, uint32_t>(out, in, count, policy, [](uint32_t b) { return b; });
            if (src == F16) float_to_integer<D, uint16_t>(out, in, count, policy, detail::binary16_to_binary32);
            if (src == BF16) float_to_integer<D, uint16_t>(out, in, count, policy, detail::bfloat16_to_binary32);
        });
    }
    return false;
}

void round_to_integral(void* out, const void* in, std::size_t count, Rounding r)
{
    map_elements<uint32_t, uint32_t>(out, in, count, [r](uint32_t bits) -> uint32_t {
        const uint32_t magnitude = bits & 0x7FFFFFFF;
        if (magnitude > 0x7F800000) return bits | 0x00400000;        // NaN, made quiet
        if (magnitude >= 0x4B000000 || magnitude == 0) return bits;  // 2^23 and beyond are integral
        const Exact x = detail::unpack(kBinary32, bits);
        const detail::Cut cut = detail::cut_at(x.significand, x.exponent, 0);
        const bool up = detail::rounds_up(r, x.negative, cut, (cut.multiple & 1) != 0);
        return (bits & 0x80000000) | binary32_from_integer_rint(false, cut.multiple + (up ? 1 : 0));
    });
}

}  // namespace pto::numeric::internal
