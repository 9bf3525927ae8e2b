// Access through a typed pointer (`!pto.ptr<T, space>`) as the interpreter holds it: a byte offset into
// its on-chip memory in the slot's `i`, or a host address in global memory in `view.data`. Every access
// is checked against the memory it points into before any byte moves.
#pragma once

#include <cstddef>
#include <cstdint>

#include "asm/cube_form.hpp"
#include "asm/interpreter/frame.hpp"

namespace pto::as::interp {

// The host address of `bytes` bytes at the pointer in slot `s`, all inside its memory: else
// RUN_POINTER_RANGE naming the operand.
std::byte* address(const PointerInfo& p, const Slot& s, int64_t bytes, const char* operand);

// Moves the pointer in `s` by `count` elements of `bytes` bytes. A result past what 64 bits hold points
// nowhere (an on-chip offset of -1, a null global address), so that any access through it is refused.
void advance(const PointerInfo& p, Slot& s, int64_t count, int64_t bytes);

// RUN_POINTER_ALIGN unless the pointer is a multiple of `alignment` bytes; `why` says whose rule it is.
void require_aligned(const PointerInfo& p, const Slot& s, int64_t alignment, const char* operand, const char* why);

}  // namespace pto::as::interp
