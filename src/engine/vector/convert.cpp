// The conversion instructions (pto.vcvt, pto.vtrc, pto.vci, pto.pbitcast). Every value conversion goes
// through numeric::convert, TCVT's bit-exact element conversion, so a lane rounds and saturates exactly
// as the tile instruction converts one element; this file only decides which lanes meet.
#include <pto/engine/ops/vector.hpp>

#include <cstring>

#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_vector.hpp>

#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

namespace {

using enum DType;

int bytes_of(DType t) { return dtype_bits(t) / 8; }

}  // namespace

std::string_view conversion_problem(DType from, DType to)
{
    if (rules::vcvt_pair_ok(from, to)) return {};
    return "a pair of the pto.vcvt page (f32 -> i64/i32/i16/f16/bf16, f16 -> i32/i16/i8/ui8/f32/bf16, bf16 -> i32/f32/f16, "
           "ui8/si8 -> f16, si16 -> f16/f32, si32/ui32 -> f32, or an integer pair of its int-to-int table)";
}

int conversion_ratio(DType from, DType to)
{
    const int a = bytes_of(from), b = bytes_of(to);
    return a > b ? a / b : b / a;
}

void convert(const Conversion& c, const Register& src, const Register& mask, Register& dst)
{
    const int from_bytes = bytes_of(c.from), to_bytes = bytes_of(c.to);
    const int src_lanes = kRegisterBytes / from_bytes, dst_lanes = kRegisterBytes / to_bytes;
    const int ratio = conversion_ratio(c.from, c.to);
    // The active source lanes that convert, gathered in order, and the result lane each one lands in.
    alignas(8) std::byte gathered[kRegisterBytes], converted[kRegisterBytes];
    int lands_in[kRegisterBytes];
    int n = 0;
    auto take = [&](int source_lane, int result_lane) {
        if (!lanes::active(mask, source_lane, from_bytes)) return;
        std::memcpy(gathered + n * from_bytes, src.bytes.data() + source_lane * from_bytes, std::size_t(from_bytes));
        lands_in[n++] = result_lane;
    };
    if (dst_lanes >= src_lanes) {
        for (int i = 0; i < src_lanes; ++i) take(i, ratio * i + c.part);  // narrowing: spread over the result
    } else {
        for (int i = 0; i < dst_lanes; ++i) take(ratio * i + c.part, i);  // widening: one part of the source
    }
    numeric::convert(c.to, converted, c.from, gathered, std::size_t(n), c.round, c.sat);
    dst.bytes.fill(std::byte{0});
    for (int k = 0; k < n; ++k)
        std::memcpy(dst.bytes.data() + lands_in[k] * to_bytes, converted + k * to_bytes, std::size_t(to_bytes));
    dst.lane_bytes = 0;
}

std::string_view truncate_problem(DType dtype) { return lanes::is_float(dtype) ? "" : "f32, f16 or bf16 lanes"; }

void truncate(RoundMode round, DType dtype, const Register& src, Register& dst)
{
    constexpr int kLanes = kRegisterBytes / 4;
    if (dtype == F32) {
        // F32 -> F32 is numeric::convert's round-only form (TCVT's): an integral value, -0 and NaN kept.
        numeric::convert(F32, dst.bytes.data(), F32, src.bytes.data(), kLanes, round, SaturationMode::OFF);
        dst.lane_bytes = 0;
        return;
    }
    // A half's integral neighbours are halves too (every half of magnitude 2^10, or bf16's 2^7, or more
    // is integral), so rounding in f32 and narrowing back is exact.
    const int lanes = kRegisterBytes / 2;
    alignas(8) std::byte wide[2 * kRegisterBytes], rounded[2 * kRegisterBytes];
    numeric::convert(F32, wide, dtype, src.bytes.data(), std::size_t(lanes), RoundMode::CAST_RINT, SaturationMode::OFF);
    numeric::convert(F32, rounded, F32, wide, std::size_t(lanes), round, SaturationMode::OFF);
    numeric::convert(dtype, dst.bytes.data(), F32, rounded, std::size_t(lanes), RoundMode::CAST_RINT, SaturationMode::OFF);
    dst.lane_bytes = 0;
}

std::string_view index_sequence_problem(DType dtype) { return lanes::is_float(dtype) ? "integer lanes" : ""; }

void index_sequence(DType dtype, int64_t start, bool descending, Register& dst)
{
    const int lane_bytes = bytes_of(dtype);
    for (int i = 0; i < kRegisterBytes / lane_bytes; ++i) {
        // Two's complement wrap: the low bytes of the 64-bit value (little-endian, as the host).
        const uint64_t value = uint64_t(start) + (descending ? ~uint64_t(i) + 1 : uint64_t(i));
        std::memcpy(dst.bytes.data() + i * lane_bytes, &value, std::size_t(lane_bytes));
    }
    dst.lane_bytes = 0;
}

void mask_bitcast(const Register& src, int lane_bytes, Register& dst)
{
    Register out;
    bool all = true;
    for (int lane = 0; lane < kRegisterBytes / lane_bytes; ++lane) {
        const bool active = lanes::active(src, lane, lane_bytes);
        std::memset(out.bytes.data() + lane * lane_bytes, active ? 0xff : 0x00, std::size_t(lane_bytes));
        all = all && active;
    }
    out.lane_bytes = uint8_t(lane_bytes);
    out.all_active = all;
    dst = out;
}

}  // namespace pto::engine::vector
