// Single values of every element type in memory: decoding one into an exact value and encoding an
// exact value into one, rounded once under a rounding direction and an out-of-range policy.
// Internal to src/numeric.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include <pto/common/numeric.hpp>
#include <pto/engine/dtype.hpp>

namespace pto::numeric::internal {

using detail::Exact;
using detail::kBfloat16;
using detail::kBinary16;
using detail::kBinary32;
using detail::kFloat4E1M2;
using detail::kFloat4E2M1;
using detail::kFloat8E4M3;
using detail::kFloat8E5M2;
using detail::Rounding;
using engine::DType;

__extension__ using Int128 = __int128;

// What a conversion does with values its destination cannot hold (convert.cpp, decisions 3 to 6).
enum class OutOfRange : uint8_t {
    Saturate,            // clamp to the finite range; NaN -> 0
    Propagate,           // float destination: IEEE overflow, NaN and infinities carried through
    KeepLowBits,         // integer destination: two's complement wrap of the exact integer
    KeepLowBitsOfInt32,  // integer destination narrower than 32 bits, float source: wrap int32-saturated
};

// ---- storage access -------------------------------------------------------------------------------

template <class T>
T load(const void* base, std::size_t i)
{
    T v;
    std::memcpy(&v, static_cast<const unsigned char*>(base) + i * sizeof(T), sizeof(T));
    return v;
}

template <class T>
void store(void* base, std::size_t i, T v)
{
    std::memcpy(static_cast<unsigned char*>(base) + i * sizeof(T), &v, sizeof(T));
}

// 4-bit values, two per byte, value 0 in the low nibble.
inline unsigned load_nibble(const void* base, std::size_t i)
{
    const unsigned byte = static_cast<const unsigned char*>(base)[i / 2];
    return (i & 1) ? byte >> 4 : byte & 0xFu;
}

inline void store_nibble(void* base, std::size_t i, unsigned nibble)
{
    auto& byte = static_cast<unsigned char*>(base)[i / 2];
    byte = (i & 1) ? static_cast<unsigned char>((byte & 0x0Fu) | (nibble & 0xFu) << 4)
                   : static_cast<unsigned char>((byte & 0xF0u) | (nibble & 0xFu));
}

// ---- integers -------------------------------------------------------------------------------------

template <DType T>
struct IntegerOf;
template <> struct IntegerOf<DType::I8> { using type = int8_t; };
template <> struct IntegerOf<DType::I16> { using type = int16_t; };
template <> struct IntegerOf<DType::I32> { using type = int32_t; };
template <> struct IntegerOf<DType::I64> { using type = int64_t; };
template <> struct IntegerOf<DType::U8> { using type = uint8_t; };
template <> struct IntegerOf<DType::U16> { using type = uint16_t; };
template <> struct IntegerOf<DType::U32> { using type = uint32_t; };
template <> struct IntegerOf<DType::U64> { using type = uint64_t; };

// Magnitudes of 2^64 and more all stand for "beyond every integer type".
inline constexpr Int128 kBeyondIntegers = Int128{1} << 64;

// x rounded to an integer, its magnitude held at kBeyondIntegers.
inline Int128 round_to_integer(const Exact& x, Rounding r)
{
    if (x.kind == Exact::Kind::Infinite) return x.negative ? -kBeyondIntegers : kBeyondIntegers;
    Int128 magnitude = 0;
    if (x.significand == 0) {
        magnitude = 0;
    } else if (x.exponent >= 0) {
        magnitude = detail::top_bit(x.significand) + x.exponent >= 64 ? kBeyondIntegers
                                                                        : Int128{x.significand << x.exponent};
    } else {
        const detail::Cut cut = detail::cut_at(x.significand, x.exponent, 0);
        const bool up = detail::rounds_up(r, x.negative, cut, (cut.multiple & 1) != 0);
        magnitude = Int128{cut.multiple} + (up ? 1 : 0);
    }
    return x.negative ? -magnitude : magnitude;
}

// x as an integer of the range [lowest, highest] under the policy (NaN is 0); the caller keeps the
// destination's low bits of the result.
inline Int128 to_integer(const Exact& x, Rounding r, OutOfRange policy, Int128 lowest, Int128 highest)
{
    if (x.kind == Exact::Kind::NaN) return 0;
    const Int128 v = round_to_integer(x, r);
    const auto clamp = [v](Int128 lo, Int128 hi) { return v < lo ? lo : v > hi ? hi : v; };
    switch (policy) {
        case OutOfRange::Saturate: return clamp(lowest, highest);
        case OutOfRange::KeepLowBitsOfInt32:
            return clamp(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
        case OutOfRange::KeepLowBits:
        case OutOfRange::Propagate: return v;
    }
    return v;
}

// ---- one value of each type -----------------------------------------------------------------------

template <DType T>
Exact decode(const void* base, std::size_t i)
{
    using enum DType;
    if constexpr (T == F32) return detail::unpack(kBinary32, load<uint32_t>(base, i));
    else if constexpr (T == F16) return detail::unpack(kBinary16, load<uint16_t>(base, i));
    else if constexpr (T == BF16) return detail::unpack(kBfloat16, load<uint16_t>(base, i));
    else if constexpr (T == F8E4M3) return detail::unpack(kFloat8E4M3, load<uint8_t>(base, i));
    else if constexpr (T == F8E5M2) return detail::unpack(kFloat8E5M2, load<uint8_t>(base, i));
    else if constexpr (T == F8E8M0) return detail::unpack_e8m0(load<uint8_t>(base, i));
    else if constexpr (T == HiF8) return detail::unpack_hif8(load<uint8_t>(base, i));
    else if constexpr (T == F4E2M1x2) return detail::unpack(kFloat4E2M1, load_nibble(base, i));
    else if constexpr (T == F4E1M2x2) return detail::unpack(kFloat4E1M2, load_nibble(base, i));
    else if constexpr (T == I4) return detail::exact_from_integer(static_cast<int>(load_nibble(base, i) ^ 8u) - 8);
    else return detail::exact_from_integer(load<typename IntegerOf<T>::type>(base, i));
}

template <class Storage>
Storage encode_binary(const detail::BinaryFormat& f, const Exact& x, Rounding r, bool saturate)
{
    return static_cast<Storage>(detail::encode(f, x, r, saturate));
}

template <DType T>
void encode(void* base, std::size_t i, const Exact& x, Rounding r, OutOfRange policy)
{
    using enum DType;
    const bool saturate = policy == OutOfRange::Saturate;
    if constexpr (T == F32) store(base, i, encode_binary<uint32_t>(kBinary32, x, r, saturate));
    else if constexpr (T == F16) store(base, i, encode_binary<uint16_t>(kBinary16, x, r, saturate));
    else if constexpr (T == BF16) store(base, i, encode_binary<uint16_t>(kBfloat16, x, r, saturate));
    else if constexpr (T == F8E4M3) store(base, i, encode_binary<uint8_t>(kFloat8E4M3, x, r, saturate));
    else if constexpr (T == F8E5M2) store(base, i, encode_binary<uint8_t>(kFloat8E5M2, x, r, saturate));
    else if constexpr (T == F8E8M0) store(base, i, detail::encode_e8m0(x, r, saturate));
    else if constexpr (T == HiF8) store(base, i, detail::encode_hif8(x, r, saturate));
    else if constexpr (T == F4E2M1x2) store_nibble(base, i, encode_binary<unsigned>(kFloat4E2M1, x, r, saturate));
    else if constexpr (T == F4E1M2x2) store_nibble(base, i, encode_binary<unsigned>(kFloat4E1M2, x, r, saturate));
    else if constexpr (T == I4) store_nibble(base, i, static_cast<unsigned>(to_integer(x, r, policy, -8, 7) & 0xF));
    else {
        using Int = typename IntegerOf<T>::type;
        const Int128 v = to_integer(x, r, policy, std::numeric_limits<Int>::min(), std::numeric_limits<Int>::max());
        store(base, i, static_cast<Int>(static_cast<uint64_t>(v)));
    }
}

}  // namespace pto::numeric::internal
