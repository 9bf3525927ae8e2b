// Floating-point values ordered as unsigned integers, so that sorting and comparing work on bit
// patterns alone (no conversion of half to float, no floating-point compare per element).
//
// The key of a value orders like the value: negative values below -0 = +0 below positive ones. The two
// zeros share a key (they are equal values). A NaN keeps IEEE totalOrder's place: above +inf with a
// positive sign, below -inf with a negative one, ordered by payload among its kind.
#pragma once

#include <cstdint>
#include <type_traits>

namespace pto::engine {

// Bits of a float format: F32 -> uint32_t, F16 -> uint16_t.
template <typename Bits>
struct FloatFormat {
    static_assert(std::is_same_v<Bits, uint16_t> || std::is_same_v<Bits, uint32_t>);
    static constexpr Bits kSign = Bits(Bits(1) << (sizeof(Bits) * 8 - 1));
    static constexpr Bits kInfinity = sizeof(Bits) == 2 ? Bits(0x7c00u) : Bits(0x7f800000u);

    static constexpr bool is_nan(Bits b) { return Bits(b & ~kSign) > kInfinity; }

    static constexpr Bits order_key(Bits b)
    {
        if (b == kSign) b = 0;  // -0 is +0
        return (b & kSign) ? Bits(~b) : Bits(b | kSign);
    }
};

}  // namespace pto::engine
