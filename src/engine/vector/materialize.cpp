// Materialising lanes: pto.vbr broadcasts a scalar, pto.vdup a scalar or one lane of a register.
#include <pto/engine/ops/vector.hpp>

#include <cstring>

namespace pto::engine::vector {

void broadcast(int lane_bytes, uint64_t bits, Register& dst)
{
    // The scalar's low `lane_bytes` bytes, little-endian as the lanes hold them.
    for (int at = 0; at < kRegisterBytes; at += lane_bytes) std::memcpy(dst.bytes.data() + at, &bits, std::size_t(lane_bytes));
    dst.lane_bytes = 0;
    dst.all_active = false;
}

std::optional<DupPosition> dup_position_from_name(std::string_view name)
{
    if (name == "LOWEST" || name == "POS_LOWEST") return DupPosition::Lowest;
    if (name == "HIGHEST" || name == "POS_HIGHEST") return DupPosition::Highest;
    return std::nullopt;
}

void duplicate_lane(DupPosition position, int lane_bytes, const Register& src, Register& dst)
{
    uint64_t bits = 0;
    const int lane = position == DupPosition::Lowest ? 0 : kRegisterBytes / lane_bytes - 1;
    std::memcpy(&bits, src.bytes.data() + lane * lane_bytes, std::size_t(lane_bytes));
    broadcast(lane_bytes, bits, dst);
}

}  // namespace pto::engine::vector
