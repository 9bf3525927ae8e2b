// The slots of vector operations as the lowered steps read them: registers, masks (checked against
// the operation's lanes), and UB addresses checked for alignment and range before any byte moves.
// Shared by lower_vector.cpp and lower_vector_memory.cpp.
#pragma once

#include <pto/engine/ops/vector.hpp>
#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <string>

#include "asm/interpreter/frame.hpp"
#include "asm/interpreter/pointer_access.hpp"

namespace pto::as::interp {

namespace vec = engine::vector;

using engine::vector::kVectorUnits;

// The register of slot `s` to write a new value into. Its first write starts from a cleared register
// (out of line), so that no lane or mask flag of the slot's uninitialised storage is ever read.
vec::Register& fresh_register(Slot& s);
inline vec::Register& writable_register(Slot& s)
{
    if (!s.holds_register) [[unlikely]]
        return fresh_register(s);
    return s.reg;
}

[[noreturn]] void missing_register(const char* operand);

inline const vec::Register& register_of(const Slot& s, const char* operand)
{
    if (!s.holds_register) [[unlikely]]
        missing_register(operand);
    return s.reg;
}

// A predicate loaded into `!pto.mask<G>` has no width: each user reads it at its lanes' width, a lane
// active when its first byte is (as pto.pbitcast reads an image). mask_for_width: mask_of for a mask
// made for lanes of another width than `lane_bytes`, or for none. (Shared with the C++ door.)
using vec::mask_for_width;
using vec::open_mask;

// The mask of slot `s` when it was made for lanes of `lane_bytes` bytes, read as it is; else null.
inline const vec::Register* own_width_mask(const Slot& s, int lane_bytes)
{
    return s.holds_register && s.reg.lane_bytes == lane_bytes && lane_bytes != 0 ? &s.reg : nullptr;
}

// The mask of slot `s` for lanes of `lane_bytes` bytes: RUN_MASK_WIDTH when it was made for others.
// A b32 mask read for 64-bit lanes is widened into a scratch register of the thread. Inline for the
// usual mask of the operation's own width; the others out of line.
inline const vec::Register& mask_of(const Slot& s, int lane_bytes)
{
    if (const vec::Register* mask = own_width_mask(s, lane_bytes)) [[likely]]
        return *mask;
    return mask_for_width(register_of(s, "mask"), lane_bytes);
}

// A UB pointer operand of a vector load or store, resolved at lowering: the memory it points into
// and the size of its elements, so that an address costs no look-up of its type.
struct VectorPointer {
    pto::TileType memory;
    int64_t element_bytes;
};
inline VectorPointer vector_pointer(const PointerInfo& p) { return {*p.memory, p.element_bytes()}; }

// The UB address `offset` elements past the pointer in `base`, checked for alignment and for a
// footprint of `bytes` inside the buffer.
inline std::byte* vector_address(Frame& f, VectorPointer p, const Slot& base, int64_t offset, int64_t bytes, const char* operand)
{
    const int64_t at = moved(base.i, offset, p.element_bytes);
    if (!rules::vector_address_aligned(at)) [[unlikely]]
        misaligned(at, vec::kAccessAlignment, operand, kVectorUnits);
    return on_chip_address(f, p.memory, at, bytes, operand);
}

// vector_address's common case: aligned, inside a window already looked up; else null.
inline std::byte* known_vector_address(const Frame& f, VectorPointer p, const Slot& base, int64_t offset, int64_t bytes)
{
    const int64_t at = moved(base.i, offset, p.element_bytes);
    if (!rules::vector_address_aligned(at)) [[unlikely]]
        return nullptr;
    return known_on_chip_address(f, p.memory, at, bytes);
}

// The general form of a step that keeps its common case inline, called for anything unusual (a
// missing or shared register, a mask of another width, an address to look up or refuse). Out of line
// and called last, so that the common path saves no register across a call.
template <typename GeneralStep>
[[gnu::noinline]] void run_general(const GeneralStep& step, Frame& f)
{
    step(f);
}

// A mask operand whose width is known only at run time (`!pto.mask<G>`): `want` when the type stated
// one (0: any of b8, b16, b32).
inline const vec::Register& any_mask_of(const Slot& s, int want)
{
    return vec::stated_mask(register_of(s, "mask"), want);
}

}  // namespace pto::as::interp
