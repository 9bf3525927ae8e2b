#include "asm/interpreter/vector_slots.hpp"

namespace pto::as::interp {

vec::Register& fresh_register(Slot& s)
{
    s.reg = std::make_shared<vec::Register>();
    return *s.reg;
}

void missing_register(const char* operand)
{
    runtime::fail({"RUN_BAD_OPERAND", "", operand, "the register holds no value", "a register an operation wrote", "none", ""});
}

const vec::Register& open_mask(const vec::Register& image, int lane_bytes)
{
    thread_local vec::Register read;
    vec::mask_bitcast(image, std::min(lane_bytes, 4), read);
    if (lane_bytes == 8) read = vec::widen_mask(read);
    return read;
}

const vec::Register& mask_for_width(const vec::Register& mask, int lane_bytes)
{
    if (mask.lane_bytes == 0) return open_mask(mask, lane_bytes);
    if (!rules::mask_width_ok(mask.lane_bytes, lane_bytes))
        runtime::fail({"RUN_MASK_WIDTH", "", "mask", "the mask governs lanes of another width",
                       "a mask for " + std::to_string(lane_bytes * 8) + "-bit lanes",
                       "a mask for " + std::to_string(mask.lane_bytes * 8) + "-bit lanes", ""});
    if (mask.lane_bytes == lane_bytes) return mask;
    thread_local vec::Register wide;
    wide = vec::widen_mask(mask);
    return wide;
}

}  // namespace pto::as::interp
