// Single elements of a tile's storage, whatever their width, for the engine's element-by-element walks:
// a 4-bit element (I4) shares its byte with its neighbour, the even element in the low nibble.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pto::engine {

// Calls fn.template operator()<U>() with U the unsigned integer of `bits` (8, 16, 32, else 64) bits: the
// walks that move elements as bit patterns, whatever their type.
template <typename Fn>
void with_element_bits(int bits, Fn&& fn)
{
    switch (bits) {
        case 8: return fn.template operator()<uint8_t>();
        case 16: return fn.template operator()<uint16_t>();
        case 32: return fn.template operator()<uint32_t>();
        default: return fn.template operator()<uint64_t>();
    }
}

// Copies element `from_index` of `from` to element `to_index` of `to`, both counted in elements of
// `element_bits` (4, or a whole number of bytes). A 4-bit copy leaves the other nibble of its byte alone.
inline void copy_element(std::byte* to, int64_t to_index, const std::byte* from, int64_t from_index, int element_bits)
{
    if (element_bits >= 8) {
        const int64_t bytes = element_bits / 8;
        std::memcpy(to + to_index * bytes, from + from_index * bytes, static_cast<std::size_t>(bytes));
        return;
    }
    const unsigned nibble = (static_cast<unsigned>(from[from_index / 2]) >> (from_index % 2 * 4)) & 0xFu;
    const unsigned shift = to_index % 2 * 4;
    std::byte& target = to[to_index / 2];
    target = static_cast<std::byte>((static_cast<unsigned>(target) & ~(0xFu << shift)) | nibble << shift);
}

}  // namespace pto::engine
