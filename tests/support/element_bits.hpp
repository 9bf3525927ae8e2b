// Single elements of a buffer as raw bits, whatever their width, for the tests' reference models: a
// 4-bit element (fp4, int4) is a nibble, two to a byte, the even element in the low one. Written here
// rather than taken from the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pto::test {

inline uint64_t element_at(const std::byte* base, int64_t index, int bits)
{
    if (bits == 4) return (std::to_integer<uint64_t>(base[index / 2]) >> (index % 2 * 4)) & 0xFu;
    uint64_t v = 0;
    std::memcpy(&v, base + index * (bits / 8), static_cast<std::size_t>(bits / 8));
    return v;
}

inline void set_element(std::byte* base, int64_t index, int bits, uint64_t value)
{
    if (bits == 4) {
        const unsigned shift = unsigned(index % 2 * 4);
        base[index / 2] = std::byte((std::to_integer<unsigned>(base[index / 2]) & ~(0xFu << shift)) | (value & 0xFu) << shift);
        return;
    }
    std::memcpy(base + index * (bits / 8), &value, static_cast<std::size_t>(bits / 8));
}

}  // namespace pto::test
