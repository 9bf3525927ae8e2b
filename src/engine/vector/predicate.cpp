// Predicate masks from pattern tokens (pto.pset_b*, pto.pge_b*) and from element counts (pto.plt_b*).
#include <pto/engine/ops/vector.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>

namespace pto::engine::vector {

namespace {

void set_lanes(Register& dst, int lane_bytes, auto&& active)
{
    const int lanes = kRegisterBytes / lane_bytes;
    bool all = true;
    for (int i = 0; i < lanes; ++i) {
        const bool on = active(i, lanes);
        std::memset(dst.bytes.data() + i * lane_bytes, on ? 0xff : 0x00, std::size_t(lane_bytes));
        all = all && on;
    }
    dst.lane_bytes = uint8_t(lane_bytes);
    dst.all_active = all;
}

}  // namespace

std::optional<PatternToken> pattern_from_name(std::string_view name)
{
    if (name.rfind("PAT_", 0) != 0) return std::nullopt;
    const std::string_view rest = name.substr(4);
    if (rest == "ALL") return PatternToken{Pattern::ALL};
    if (rest == "ALLF") return PatternToken{Pattern::ALLF};
    if (rest == "H") return PatternToken{Pattern::H};
    if (rest == "Q") return PatternToken{Pattern::Q};
    if (rest == "M3") return PatternToken{Pattern::M3};
    if (rest == "M4") return PatternToken{Pattern::M4};
    if (rest.rfind("VL", 0) == 0 && rest.size() > 2) {
        int count = 0;
        const auto [end, ec] = std::from_chars(rest.data() + 2, rest.data() + rest.size(), count);
        if (ec == std::errc{} && end == rest.data() + rest.size() && count >= 1) return PatternToken{Pattern::VL, count};
    }
    return std::nullopt;
}

std::string pattern_problem(PatternToken token, int lanes)
{
    if (token.pattern == Pattern::VL && token.count > lanes)
        return "PAT_VL1 to PAT_VL" + std::to_string(lanes) + " for " + std::to_string(lanes) + " lanes";
    return {};
}

void pattern_mask(PatternToken token, int lane_bytes, Register& dst)
{
    set_lanes(dst, lane_bytes, [&](int i, int lanes) {
        switch (token.pattern) {
            case Pattern::ALL: return true;
            case Pattern::ALLF: return false;
            case Pattern::H: return i >= lanes / 2;
            case Pattern::Q: return i >= lanes - lanes / 4;
            case Pattern::M3: return i % 3 == 0;
            case Pattern::M4: return i % 4 == 0;
            case Pattern::VL: return i < token.count;
        }
        return false;
    });
}

void prefix_mask(int64_t count, int lane_bytes, Register& dst)
{
    set_lanes(dst, lane_bytes, [&](int i, int) { return i < count; });
}

Register widen_mask(const Register& b32_mask)
{
    Register wide;
    for (int lane = 0; lane < kRegisterBytes / 8; ++lane)
        std::memset(wide.bytes.data() + lane * 8, int(b32_mask.bytes[std::size_t(lane * 8)]), 8);
    wide.lane_bytes = 8;
    wide.all_active = b32_mask.all_active;
    return wide;
}

}  // namespace pto::engine::vector
