// Element access to arrays of the packed 4-bit floats, whose element i is the low (even i) or high
// (odd i) nibble of byte i / 2; other types are plain arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <pto/common/numeric.hpp>

// In the global namespace, as the public library declares them (and in pto by using-declarations).

// Whether T packs two elements in a byte.
template <typename T>
constexpr bool IsTwinType()
{
    return std::is_same_v<T, float4_e2m1x2_t> || std::is_same_v<T, float4_e1m2x2_t>;
}

// Element `offset` of `buf`; for a packed 4-bit type, a value whose low nibble holds that element.
template <typename T>
inline T GetProperDataPart(const T* buf, std::size_t offset)
{
    if constexpr (IsTwinType<T>()) {
        return T::from_bits(static_cast<uint8_t>((buf[offset / 2].bits >> (offset % 2 * 4)) & 0xFu));
    } else {
        return buf[offset];
    }
}

// Writes element `offset` of `buf`; for a packed 4-bit type, the low nibble of `value`.
template <typename T>
inline void SetProperDataPart(T* buf, std::size_t offset, T value)
{
    if constexpr (IsTwinType<T>()) {
        const unsigned shift = offset % 2 * 4;
        uint8_t& byte = buf[offset / 2].bits;
        byte = static_cast<uint8_t>((byte & ~(0xFu << shift)) | ((value.bits & 0xFu) << shift));
    } else {
        buf[offset] = value;
    }
}

namespace pto {
using ::GetProperDataPart;
using ::IsTwinType;
using ::SetProperDataPart;

// The bytes of one T as the public layout helpers count them (a C0 block holds 32 / GetTypeSize<T>() of
// them); the 8-bit MX types and the packed fp4 pairs count one byte, as their sizeof says.
template <typename T>
inline constexpr int GetTypeSize()
{
    return static_cast<int>(sizeof(T));
}
}  // namespace pto
