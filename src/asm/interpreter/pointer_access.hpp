// Access through a typed pointer (`!pto.ptr<T, space>`) as the interpreter holds it: a byte offset into
// its on-chip memory in the slot's `i`, or a host address in global memory in `view.data`. Every access
// is checked against the memory it points into before any byte moves.
#pragma once

#include <cstddef>
#include <cstdint>

#include <pto/engine/ops/vector_memory.hpp>

#include "asm/cube_form.hpp"
#include "asm/interpreter/frame.hpp"

namespace pto::as::interp {

// The host address of `bytes` bytes at the pointer in slot `s`, all inside its memory: else
// RUN_POINTER_RANGE naming the operand.
std::byte* address(const PointerInfo& p, const Slot& s, int64_t bytes, const char* operand);
// The window of an on-chip memory of the running core, and RUN_POINTER_RANGE for an access outside it.
MemoryWindow window_of(pto::TileType memory);
using engine::vector::outside_memory;  // RUN_POINTER_RANGE, as the C++ door reports it

// `bytes` bytes at byte offset `at` of `window`, the window of on-chip memory `memory`; else
// RUN_POINTER_RANGE naming the operand.
inline std::byte* inside(pto::TileType memory, const MemoryWindow& window, int64_t at, int64_t bytes, const char* operand)
{
    if (at < 0 || bytes < 0 || uint64_t(at) + uint64_t(bytes) > window.size) [[unlikely]]
        outside_memory(memory, window.size, at, bytes, operand);
    return window.base + at;
}

// on_chip_address past its fast path: the window looked up on the frame's first access to the memory,
// then the access checked against it.
std::byte* on_chip_address_slow(Frame& f, pto::TileType memory, int64_t at, int64_t bytes, const char* operand);

// on_chip_address's common case: the window already looked up and the access inside it; else null.
inline std::byte* known_on_chip_address(const Frame& f, pto::TileType memory, int64_t at, int64_t bytes)
{
    const MemoryWindow& window = f.memories[static_cast<std::size_t>(memory)];
    if (!window.known || at < 0 || bytes < 0 || uint64_t(at) + uint64_t(bytes) > window.size) [[unlikely]]
        return nullptr;
    return window.base + at;
}

// The same with the memory's window looked up once per frame. Inline: every vector load and store
// takes this path; anything unusual is a tail call, so the fast path keeps no state across a call.
inline std::byte* on_chip_address(Frame& f, pto::TileType memory, int64_t at, int64_t bytes, const char* operand)
{
    if (std::byte* known = known_on_chip_address(f, memory, at, bytes)) [[likely]]
        return known;
    return on_chip_address_slow(f, memory, at, bytes, operand);
}

// Moves the pointer in `s` by `count` elements of `bytes` bytes. A result past what 64 bits hold points
// nowhere (an on-chip offset of -1, a null global address), so that any access through it is refused.
void advance(const PointerInfo& p, Slot& s, int64_t count, int64_t bytes);
// On-chip byte offset `at` moved by `count` elements of `bytes` bytes (-1, nowhere, past 64 bits).
inline int64_t moved(int64_t at, int64_t count, int64_t bytes)
{
    int64_t delta = 0;
    if (__builtin_mul_overflow(count, bytes, &delta) || __builtin_add_overflow(at, delta, &at)) return -1;
    return at;
}

// RUN_POINTER_ALIGN unless the pointer is a multiple of `alignment` bytes; `why` says whose rule it is.
void require_aligned(const PointerInfo& p, const Slot& s, int64_t alignment, const char* operand, const char* why);
// The same for an address `at` (an on-chip offset or a host address).
void require_aligned(int64_t at, int64_t alignment, const char* operand, const char* why);
// RUN_POINTER_ALIGN for an address `at` known not to be a multiple of `alignment`.
using engine::vector::misaligned;

}  // namespace pto::as::interp
