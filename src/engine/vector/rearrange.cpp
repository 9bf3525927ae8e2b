// The data rearrangement instructions (pto.vintlv ... pto.vzunpack): lanes move between and within
// registers as bytes; only vpack and the unpacks change a lane's width.
#include <pto/engine/ops/vector.hpp>

#include <algorithm>
#include <cstring>

#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

namespace {

// Lane i of r as bytes.
std::byte* lane(Register& r, int i, int lane_bytes) { return r.bytes.data() + i * lane_bytes; }
const std::byte* lane(const Register& r, int i, int lane_bytes) { return r.bytes.data() + i * lane_bytes; }

void copy_lane(Register& dst, int to, const Register& src, int from, int lane_bytes)
{
    std::memcpy(lane(dst, to, lane_bytes), lane(src, from, lane_bytes), std::size_t(lane_bytes));
}

uint64_t read_unsigned(const std::byte* p, int bytes)
{
    uint64_t v = 0;
    std::memcpy(&v, p, std::size_t(bytes));  // little-endian, as the host
    return v;
}

int64_t read_signed(const std::byte* p, int bytes)
{
    const int shift = 64 - 8 * bytes;
    return int64_t(read_unsigned(p, bytes) << shift) >> shift;
}

bool is_signed(DType t) { return t == DType::I8 || t == DType::I16 || t == DType::I32 || t == DType::I64; }

}  // namespace

void interleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high)
{
    const int lanes = kRegisterBytes / lane_bytes, half = lanes / 2;
    Register lo, hi;  // a result may be an operand's register
    for (int i = 0; i < half; ++i) {
        copy_lane(lo, 2 * i, a, i, lane_bytes);
        copy_lane(lo, 2 * i + 1, b, i, lane_bytes);
        copy_lane(hi, 2 * i, a, half + i, lane_bytes);
        copy_lane(hi, 2 * i + 1, b, half + i, lane_bytes);
    }
    low = lo;
    high = hi;
}

void deinterleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high)
{
    const int lanes = kRegisterBytes / lane_bytes, half = lanes / 2;
    Register lo, hi;
    for (int i = 0; i < half; ++i) {
        copy_lane(lo, i, a, 2 * i, lane_bytes);
        copy_lane(hi, i, a, 2 * i + 1, lane_bytes);
        copy_lane(lo, half + i, b, 2 * i, lane_bytes);
        copy_lane(hi, half + i, b, 2 * i + 1, lane_bytes);
    }
    low = lo;
    high = hi;
}

void slide(int lane_bytes, const Register& src0, const Register* src1, int64_t amount, Register& dst)
{
    const int lanes = kRegisterBytes / lane_bytes;
    Register out;
    for (int i = 0; i < lanes; ++i) {
        const int64_t from = i - amount;
        if (from >= 0 && from < lanes) copy_lane(out, i, src0, int(from), lane_bytes);
        else if (from < 0 && src1) copy_lane(out, i, *src1, int(lanes + from), lane_bytes);
    }
    dst = out;
}

void permute(int lane_bytes, const Register& src, const Register& index, Register& dst)
{
    const int lanes = kRegisterBytes / lane_bytes;
    Register out;
    for (int i = 0; i < lanes; ++i)
        copy_lane(out, i, src, int(read_unsigned(lane(index, i, lane_bytes), lane_bytes) % uint64_t(lanes)), lane_bytes);
    dst = out;
}

void squeeze(int lane_bytes, const Register& src, const Register& mask, Register& dst)
{
    const int lanes = kRegisterBytes / lane_bytes;
    Register out;
    int kept = 0;
    for (int i = 0; i < lanes; ++i)
        if (lanes::active(mask, i, lane_bytes)) copy_lane(out, kept++, src, i, lane_bytes);
    dst = out;
}

void unsqueeze(int lane_bytes, const Register& mask, Register& dst)
{
    const int lanes = kRegisterBytes / lane_bytes;
    Register out;
    uint64_t before = 0;
    for (int i = 0; i < lanes; ++i)
        if (lanes::active(mask, i, lane_bytes)) {
            std::memcpy(lane(out, i, lane_bytes), &before, std::size_t(lane_bytes));
            ++before;
        }
    dst = out;
}

void pack(DType from, DType to, bool saturate, const Register& a, const Register& b, Register& dst)
{
    const int wide = dtype_bits(from) / 8, narrow = dtype_bits(to) / 8, lanes = kRegisterBytes / wide;
    const int bits = 8 * narrow;
    const int64_t lowest = is_signed(to) ? -(int64_t(1) << (bits - 1)) : 0;
    const int64_t highest = is_signed(to) ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
    Register out;
    auto put = [&](const Register& src, int i, int at) {
        const std::byte* p = lane(src, i, wide);
        uint64_t v = read_unsigned(p, wide);  // its low bits
        if (saturate) {
            if (is_signed(from)) v = uint64_t(std::clamp(read_signed(p, wide), lowest, highest));
            else v = std::min<uint64_t>(v, uint64_t(highest));
        }
        std::memcpy(lane(out, at, narrow), &v, std::size_t(narrow));
    };
    for (int i = 0; i < lanes; ++i) {
        put(a, i, i);
        put(b, i, lanes + i);
    }
    dst = out;
}

void unpack(int narrow_bytes, bool sign_extend, int half, const Register& src, Register& dst)
{
    const int wide = 2 * narrow_bytes, lanes = kRegisterBytes / wide;
    Register out;
    for (int i = 0; i < lanes; ++i) {
        const std::byte* p = lane(src, half * lanes + i, narrow_bytes);
        const uint64_t v = sign_extend ? uint64_t(read_signed(p, narrow_bytes)) : read_unsigned(p, narrow_bytes);
        std::memcpy(lane(out, i, wide), &v, std::size_t(wide));
    }
    dst = out;
}

}  // namespace pto::engine::vector
