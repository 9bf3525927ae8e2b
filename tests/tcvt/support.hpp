// Test support for TCVT: tiles of any element type over host memory, random and special element values,
// and the check of one conversion against the reference, element by element through numeric's scalar
// conversion (one element per call, so it shares no line walk, staging or vector code with the engine).
#pragma once

#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/element_bits.hpp"
#include "support/test_support.hpp"

namespace cvttest {

using pto::RoundMode;
using pto::SaturationMode;
using pto::engine::DType;
using pto::engine::TileDesc;
using pto::profile::Target;

inline constexpr RoundMode kModes[] = {RoundMode::CAST_NONE,  RoundMode::CAST_RINT,  RoundMode::CAST_ROUND,
                                       RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,  RoundMode::CAST_TRUNC,
                                       RoundMode::CAST_ODD};
inline constexpr SaturationMode kSaturations[] = {SaturationMode::ON, SaturationMode::OFF};
inline constexpr Target kTargets[] = {Target::Cpu, Target::A2A3, Target::A5};

inline std::string mode_name(RoundMode m)
{
    static const char* const names[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD"};
    return names[static_cast<int>(m)];
}

inline std::string describe(DType dst, DType src, RoundMode m, SaturationMode s)
{
    return std::string(pto::engine::dtype_name(src)) + " -> " + std::string(pto::engine::dtype_name(dst)) + " " +
           mode_name(m) + (s == SaturationMode::ON ? " sat ON" : " sat OFF");
}

inline int bits_of(DType t) { return pto::engine::dtype_bits(t); }

// Every (dst, src) pair the target's TCVT table has.
inline std::vector<std::pair<DType, DType>> allowed_pairs(Target target)
{
    std::vector<std::pair<DType, DType>> pairs;
    for (int d = 0; d < pto::engine::kDTypeCount; ++d) {
        for (int s = 0; s < pto::engine::kDTypeCount; ++s) {
            if (pto::numeric::conversion_allowed_on(target, DType(d), DType(s))) pairs.emplace_back(DType(d), DType(s));
        }
    }
    return pairs;
}

// --- elements as bit patterns ------------------------------------------------------------------------

using pto::test::element_at;
using pto::test::set_element;

inline uint64_t element_at(const TileDesc& t, int r, int c) { return element_at(t.data, t.offset(r, c), bits_of(t.dtype)); }

// A value of type t made from a double (rounded to nearest even, overflow kept).
inline uint64_t encode(DType t, double v)
{
    std::byte storage[8] = {};
    pto::numeric::from_double(t, storage, 0, v, RoundMode::CAST_RINT, SaturationMode::OFF);
    return element_at(storage, 0, bits_of(t));
}

// Values every conversion must get right: zeros, infinities, NaNs (quiet, signalling, with payload),
// subnormals, ties at every scale an integer or 16-bit destination rounds at, the edges of the
// destination ranges, integer extremes.
inline std::vector<uint64_t> special_values(DType t)
{
    std::vector<uint64_t> v;
    const auto add = [&](double x) { v.push_back(encode(t, x)); };
    for (double x : {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, 127.5, -128.5, 255.5, 256.0, 32767.5,
                     -32768.5, 65504.0, 65519.0, 65520.0, -65520.0, 65536.0, 1e10, -1e10, 2147483520.0, 2147483648.0,
                     -2147483648.0, -2147483904.0, 3.0e38, 0x1p-126, 0x1p-140, 0x1p-149, -0x1p-24, 0x1p-25, 0x1.8p-25,
                     448.0, 464.0, 57344.0, 6.0, 7.0, 1.75, 300.0, -300.0, 1e30}) {
        add(x);
    }
    add(std::numeric_limits<double>::infinity());
    add(-std::numeric_limits<double>::infinity());
    add(std::nan(""));
    const int bits = bits_of(t);
    if (t == DType::F32) {
        for (uint64_t b : {0x7f800001ull, 0xffa00000ull, 0x7fc12345ull, 0x00000001ull, 0x807fffffull, 0x477fefffull,
                           0x477ff000ull, 0x7f7fffffull, 0x7f7f8000ull, 0x4f000000ull, 0xcf000000ull, 0x3f801000ull}) {
            v.push_back(b);
        }
    }
    if (t == DType::F16 || t == DType::BF16) {
        for (uint64_t b : {0x7c01ull, 0xfe00ull, 0x7f81ull, 0xffc1ull, 0x0001ull, 0x8001ull, 0x7bffull, 0x7f7full}) {
            v.push_back(b);
        }
    }
    if (!pto::engine::dtype_is_float(t) && bits >= 8) {  // the integer extremes
        const uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1;
        const uint64_t top = 1ull << (bits - 1);
        for (uint64_t b : {uint64_t{0}, uint64_t{1}, all, top, top - 1, top + 1}) v.push_back(b);
    }
    return v;
}

// A random element of type t: a special value, uniformly random bits (every class of every format),
// or for floats a number with a short fraction over a range of binades (ties and near-ties for every
// destination precision).
inline uint64_t random_element(DType t, std::mt19937_64& rng)
{
    const int bits = bits_of(t);
    const uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1;
    switch (rng() % 8) {
        case 0: {
            const std::vector<uint64_t> specials = special_values(t);
            return specials[rng() % specials.size()];
        }
        case 1:
        case 2:
        case 3: return rng() & all;
        default: break;
    }
    if (!pto::engine::dtype_is_float(t)) {  // small magnitudes: exact in every float destination
        return encode(t, double(int64_t(rng() % 601) - 300));
    }
    const double quarter_steps = double(int64_t(rng() % 4097) - 2048) / 4.0;
    const double scale = std::ldexp(1.0, int(rng() % 61) - 30);
    if (t == DType::F32 && rng() % 2) {  // a tie, or one step beside it, of the 16-bit formats
        const uint32_t base = uint32_t(rng()) & 0xffff0000u;
        const uint32_t tails[] = {0x1000, 0x0fff, 0x1001, 0x3000, 0x8000, 0x7fff, 0x8001, 0x18000};
        return (base | tails[rng() % 8]) & all;
    }
    return encode(t, quarter_steps * scale);
}

// --- tiles over host memory ----------------------------------------------------------------------------

struct Layout2 {
    pto::BLayout b;
    pto::SLayout s;
};
inline constexpr Layout2 kRowMajor{pto::BLayout::RowMajor, pto::SLayout::NoneBox};
inline constexpr Layout2 kColMajor{pto::BLayout::ColMajor, pto::SLayout::NoneBox};
inline constexpr Layout2 kNz{pto::BLayout::ColMajor, pto::SLayout::RowMajor};
inline constexpr Layout2 kZn{pto::BLayout::RowMajor, pto::SLayout::ColMajor};
inline constexpr Layout2 kLayouts[] = {kRowMajor, kColMajor, kNz, kZn};

inline std::string layout_label(Layout2 l)
{
    std::string s = l.b == pto::BLayout::RowMajor ? "row-major" : "col-major";
    if (l.s != pto::SLayout::NoneBox) s += l.s == pto::SLayout::RowMajor ? "/row-boxes" : "/col-boxes";
    return s;
}

inline TileDesc tile_at(std::byte* data, DType t, int rows, int cols, int valid_rows, int valid_cols,
                        Layout2 layout = kRowMajor)
{
    TileDesc d;
    d.data = data;
    d.dtype = t;
    d.loc = pto::TileType::Vec;
    d.rows = rows;
    d.cols = cols;
    d.valid_rows = valid_rows;
    d.valid_cols = valid_cols;
    d.blayout = layout.b;
    d.slayout = layout.s;
    return d;
}

// Bytes of host memory, 32-byte aligned offsets handed out in order, each tile filled with random elements.
class Memory {
public:
    explicit Memory(std::size_t bytes) : bytes_(bytes + 64) {}

    std::byte* take(std::size_t bytes)
    {
        std::byte* p = bytes_.data() + used_;
        used_ += (bytes + 31) / 32 * 32;
        EXPECT_LE(used_, bytes_.size());
        return p;
    }
    std::vector<std::byte>& bytes() { return bytes_; }

private:
    std::vector<std::byte> bytes_;
    std::size_t used_ = 0;
};

inline void fill_random(const TileDesc& t, std::mt19937_64& rng)
{
    for (int64_t i = 0; i < t.elements(); ++i) set_element(t.data, i, bits_of(t.dtype), random_element(t.dtype, rng));
}

// --- the check ------------------------------------------------------------------------------------------

// The reference of dst(r, c): the src value it converts, through numeric::convert one element at a time.
inline uint64_t reference(const TileDesc& dst, const TileDesc& src, int r, int c, RoundMode mode, SaturationMode sat)
{
    std::byte in[16] = {}, out[16] = {};
    set_element(in, 0, bits_of(src.dtype), element_at(src, r, c));
    pto::numeric::convert(dst.dtype, out, src.dtype, in, 1, mode, sat);
    return element_at(out, 0, bits_of(dst.dtype));
}

// Runs the engine's TCVT on dst and src (anywhere in `memory`, possibly aliasing) and checks: every
// element of dst's valid region is the reference conversion of src as it was before the call, and no
// bit of `memory` outside dst's valid region changed.
inline void run_and_check(Memory& memory, const TileDesc& dst, const TileDesc& src, RoundMode mode,
                          SaturationMode sat, const std::string& context)
{
    std::vector<std::byte>& bytes = memory.bytes();
    std::vector<std::byte> before = bytes;
    TileDesc src_before = src;
    src_before.data = before.data() + (src.data - bytes.data());
    std::vector<uint64_t> expected;
    std::vector<uint8_t> written(bytes.size(), 0);  // per byte: the bits dst's valid region owns
    const int dst_bits = bits_of(dst.dtype);
    for (int r = 0; r < dst.valid_rows; ++r) {
        for (int c = 0; c < dst.valid_cols; ++c) {
            expected.push_back(reference(dst, src_before, r, c, mode, sat));
            const int64_t index = dst.offset(r, c);
            const std::size_t byte = std::size_t(dst.data - bytes.data()) + std::size_t(index * dst_bits / 8);
            if (dst_bits == 4) {
                written[byte] |= index % 2 ? 0xF0 : 0x0F;
            } else {
                for (int k = 0; k < dst_bits / 8; ++k) written[byte + std::size_t(k)] = 0xFF;
            }
        }
    }

    pto::engine::tcvt(dst, src, mode, sat);

    int wrong = 0;
    std::size_t next = 0;
    for (int r = 0; r < dst.valid_rows; ++r) {
        for (int c = 0; c < dst.valid_cols; ++c) {
            const uint64_t want = expected[next++], got = element_at(dst, r, c);
            if (want != got && wrong++ < 3) {
                ADD_FAILURE() << context << ": dst (" << r << ", " << c << ") is 0x" << std::hex << got
                              << ", expected 0x" << want << std::dec;
            }
        }
    }
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const unsigned keep = ~unsigned(written[i]) & 0xFFu;
        if ((unsigned(bytes[i]) & keep) != (unsigned(before[i]) & keep)) {
            ADD_FAILURE() << context << ": byte " << i << " outside dst's valid region changed";
            break;
        }
    }
}

}  // namespace cvttest
