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

inline constexpr const char* kVectorUnits = "vector loads and stores address the unified buffer in 32-byte units";

inline const vec::Register& register_of(const Slot& s, const char* operand)
{
    if (!s.reg)
        runtime::fail({"RUN_BAD_OPERAND", "", operand, "the register holds no value", "a register an operation wrote", "none", ""});
    return *s.reg;
}

// A predicate loaded into `!pto.mask<G>` has no width: each user reads it at its lanes' width, a lane
// active when its first byte is (as pto.pbitcast reads an image). A scratch register of the thread.
inline const vec::Register& open_mask(const vec::Register& image, int lane_bytes)
{
    thread_local vec::Register read;
    vec::mask_bitcast(image, std::min(lane_bytes, 4), read);
    if (lane_bytes == 8) read = vec::widen_mask(read);
    return read;
}

// The mask of slot `s` for lanes of `lane_bytes` bytes: RUN_MASK_WIDTH when it was made for others.
// A b32 mask read for 64-bit lanes is widened into a scratch register of the thread.
inline const vec::Register& mask_of(const Slot& s, int lane_bytes)
{
    const vec::Register& mask = register_of(s, "mask");
    if (mask.lane_bytes == 0) [[unlikely]]
        return open_mask(mask, lane_bytes);
    if (!rules::mask_width_ok(mask.lane_bytes, lane_bytes))
        runtime::fail({"RUN_MASK_WIDTH", "", "mask", "the mask governs lanes of another width",
                       "a mask for " + std::to_string(lane_bytes * 8) + "-bit lanes",
                       "a mask for " + std::to_string(mask.lane_bytes * 8) + "-bit lanes", ""});
    if (mask.lane_bytes == lane_bytes) return mask;
    thread_local vec::Register wide;
    wide = vec::widen_mask(mask);
    return wide;
}

// The UB address `offset` elements past the pointer in `base`, checked for alignment and for a
// footprint of `bytes` inside the buffer.
inline std::byte* vector_address(Frame& f, const PointerInfo& p, const Slot& base, int64_t offset, int64_t bytes, const char* operand)
{
    const int64_t at = moved(base.i, offset, p.element_bytes());
    if (!rules::vector_address_aligned(at)) [[unlikely]]
        require_aligned(at, vec::kAccessAlignment, operand, kVectorUnits);
    return on_chip_address(f, *p.memory, at, bytes, operand);
}

// A mask operand whose width is known only at run time (`!pto.mask<G>`): `want` when the type stated
// one (0: any of b8, b16, b32).
inline const vec::Register& any_mask_of(const Slot& s, int want)
{
    const vec::Register& mask = register_of(s, "mask");
    if (mask.lane_bytes == 0 && want) [[unlikely]]
        return open_mask(mask, want);
    if (want && mask.lane_bytes != want)
        runtime::fail({"RUN_MASK_WIDTH", "", "mask", "the mask has another width than its type states",
                       "a mask for " + std::to_string(want * 8) + "-bit lanes",
                       "a mask for " + std::to_string(mask.lane_bytes * 8) + "-bit lanes", ""});
    return mask;
}

}  // namespace pto::as::interp
