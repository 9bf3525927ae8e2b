// Predicate algebra: pto.pand / por / pxor / pnot / psel lane by lane, pto.ppack / punpack between
// widths, pto.pintlv_b* / pdintlv_b* across two masks. Masks work at lane granularity: lane i of a mask
// of w-byte lanes is its bytes [i*w, (i+1)*w), all set or all clear.
#include <pto/engine/ops/vector.hpp>

#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

void predicate_logic(PredicateOp op, const Register& a, const Register& b, const Register& sel, Register& dst)
{
    Register out;  // dst may be a source
    for (std::size_t i = 0; i < std::size_t(kRegisterBytes); ++i) {
        const std::byte x = a.bytes[i], y = b.bytes[i];
        switch (op) {
            case PredicateOp::And: out.bytes[i] = x & y; break;
            case PredicateOp::Or: out.bytes[i] = x | y; break;
            case PredicateOp::Xor: out.bytes[i] = x ^ y; break;
            case PredicateOp::Not: out.bytes[i] = ~x; break;
            case PredicateOp::Select: out.bytes[i] = (x & sel.bytes[i]) | (y & ~sel.bytes[i]); break;
        }
    }
    lanes::finish_mask(out, a.lane_bytes);
    dst = out;
}

std::optional<PredicatePart> predicate_part_from_name(std::string_view name)
{
    if (name == "LOWER") return PredicatePart::Lower;
    if (name == "HIGHER") return PredicatePart::Higher;
    return std::nullopt;
}

void predicate_pack(PredicatePart part, const Register& src, Register& dst)
{
    const int from = src.lane_bytes, to = from / 2;
    const int lanes = kRegisterBytes / from;  // the source's lanes: half of the result's
    const int first = part == PredicatePart::Lower ? 0 : lanes;
    Register out;
    for (int i = 0; i < lanes; ++i) lanes::set_active(out, first + i, to, lanes::active(src, i, from));
    lanes::finish_mask(out, uint8_t(to));
    dst = out;
}

void predicate_unpack(PredicatePart part, const Register& src, Register& dst)
{
    const int from = src.lane_bytes, to = from * 2;
    const int lanes = kRegisterBytes / to;  // the result's lanes: half of the source's
    const int first = part == PredicatePart::Lower ? 0 : lanes;
    Register out;
    for (int i = 0; i < lanes; ++i) lanes::set_active(out, i, to, lanes::active(src, first + i, from));
    lanes::finish_mask(out, uint8_t(to));
    dst = out;
}

void predicate_interleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high)
{
    const int lanes = kRegisterBytes / lane_bytes;
    Register out[2];
    for (int k = 0; k < 2 * lanes; ++k) {
        const Register& from = k % 2 ? b : a;
        lanes::set_active(out[k / lanes], k % lanes, lane_bytes, lanes::active(from, k / 2, lane_bytes));
    }
    lanes::finish_mask(out[0], uint8_t(lane_bytes));
    lanes::finish_mask(out[1], uint8_t(lane_bytes));
    low = out[0];
    high = out[1];
}

void predicate_deinterleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high)
{
    const int lanes = kRegisterBytes / lane_bytes;
    Register out[2];
    for (int k = 0; k < 2 * lanes; ++k) {
        const Register& from = k < lanes ? a : b;
        lanes::set_active(out[k % 2], k / 2, lane_bytes, lanes::active(from, k % lanes, lane_bytes));
    }
    lanes::finish_mask(out[0], uint8_t(lane_bytes));
    lanes::finish_mask(out[1], uint8_t(lane_bytes));
    low = out[0];
    high = out[1];
}

}  // namespace pto::engine::vector
