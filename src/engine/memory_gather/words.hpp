// Element words: a gather or a plain scatter moves bit patterns, so its kernels are templates on the
// unsigned word of the element's width rather than on the element type. Every element type these
// instructions move reads the all-zero word as the value zero, which is what GatherOOB::Zero writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pto::engine::memory_gather {

// Loads and stores through memcpy: tile storage is raw bytes and tables are the caller's arrays of any
// element type, so neither is accessed through a pointer of another type.
template <typename Word>
inline Word load(const std::byte* base, int64_t element)
{
    Word w;
    std::memcpy(&w, base + element * int64_t(sizeof(Word)), sizeof(Word));
    return w;
}

template <typename Word>
inline void store(std::byte* base, int64_t element, Word w)
{
    std::memcpy(base + element * int64_t(sizeof(Word)), &w, sizeof(Word));
}

// Calls fn(Word{}) with the unsigned word of `element_bytes` bytes (1, 2 or 4): the one dispatch on the
// element type per instruction.
template <typename Fn>
inline void with_word(int element_bytes, Fn&& fn)
{
    switch (element_bytes) {
        case 1: fn(uint8_t{}); return;
        case 2: fn(uint16_t{}); return;
        default: fn(uint32_t{}); return;
    }
}

}  // namespace pto::engine::memory_gather
