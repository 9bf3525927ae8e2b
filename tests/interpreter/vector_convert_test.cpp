// The vector conversions from PTO-AS (pto.vcvt, pto.vtrc, pto.vci, pto.vbitcast, pto.pbitcast) against
// plain reference loops: every pair of the pto.vcvt page in every part, rounding and saturation mode on
// random lanes and special values (NaN, infinities, -0, ties, out-of-range values), the decisions the
// pages leave open (each test named after one), and the verifier's codes for illegal forms.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

#include "asm/printer.hpp"
#include "vector_lane_support.hpp"
#include "vector_reference.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;
using namespace vector_reference;

// The integer x (already integral, or infinite) saturated into `to`, or wrapped as the page's NOSAT
// says (TCVT's rule: a float source saturates into int32 first, and narrower results keep the low bits).
uint64_t integer_result(double x, const Lane& to, bool saturate, bool from_float)
{
    const int bits = to.bytes * 8;
    const double lo = to.is_signed ? -std::ldexp(1, bits - 1) : 0, hi = to.is_signed ? std::ldexp(1, bits - 1) - 1 : std::ldexp(1, bits) - 1;
    if (std::isnan(x)) return 0;
    if (saturate || (from_float && bits >= 32)) {
        const double c = std::clamp(x, lo, hi);
        if (bits == 64 && c >= 0x1p63) return uint64_t(std::numeric_limits<int64_t>::max());  // 2^63 - 1 is no double
        return c < 0 ? uint64_t(int64_t(c)) : uint64_t(c);
    }
    if (from_float) x = std::clamp(x, -2147483648.0, 2147483647.0);
    return uint64_t(int64_t(x));  // wraps when stored in the low bytes
}

struct PairCase {
    Lane from, to;
};
// Every pair of the pto.vcvt page (and f16 <-> bf16 of the family overview).
const PairCase kPairs[] = {
    {kF32, kI64}, {kF32, kI32}, {kF32, kI16}, {kF16, kI32}, {kF16, kI16}, {kF16, kI8}, {kF16, kU8}, {kBF16, kI32},
    {kF32, kF16}, {kF32, kBF16}, {kF16, kF32}, {kBF16, kF32}, {kF16, kBF16}, {kBF16, kF16},
    {kU8, kF16}, {kI8, kF16}, {kI16, kF16}, {kI16, kF32}, {kI32, kF32}, {kU32, kF32},
    {kU8, kU16}, {kU8, kU32}, {kI8, kI16}, {kI8, kI32}, {kU16, kU8}, {kU16, kU32}, {kI16, kU8}, {kI16, kU32}, {kI16, kI32},
    {kU32, kU8}, {kU32, kU16}, {kU32, kI16}, {kI32, kU8}, {kI32, kU16}, {kI32, kI16}, {kI32, kI64},
};

// The value of source lane `lane` of type t: random magnitudes around the destination's range, ties,
// small values, and special values in every eighth lane.
uint64_t source_lane(const Lane& t, int lane, std::mt19937& gen)
{
    if (!t.is_float) return uint64_t(gen()) | (uint64_t(gen()) << 32);
    const FloatFormat f = format_of(t);
    std::uniform_real_distribution<double> unit(-1, 1);
    double x = 0;
    switch (lane % 8) {
        case 0: x = unit(gen) * std::ldexp(1, int(gen() % 40)); break;  // up to 2^40: out of every integer range
        case 1: x = std::floor(unit(gen) * 300) + 0.5; break;            // ties
        case 2: x = unit(gen) * 3; break;
        case 3: {
            const double specials[] = {std::nan(""), INFINITY, -INFINITY, -0.0, 0.0, 65504.0, 65520.0, -70000.0, 1e-6, 2.5, -2.5, 3.5, 255.5, -128.5, 1e30, 2147483648.0};
            x = specials[(lane / 8) % 16];
            break;
        }
        case 4: return gen() & (f.sign() | f.max_finite());  // a random finite encoding
        default: x = unit(gen) * std::ldexp(1, int(gen() % 17)); break;
    }
    return round_to_float(x, f, Mode::R, false);
}

// The reference of one lane's conversion.
uint64_t convert_lane(const PairCase& c, uint64_t bits, Mode mode, bool saturate)
{
    if (c.from.is_float) {
        const double x = float_value(c.from, bits);
        // Saturation acts only where the destination's range is the smaller (f16 -> bf16 keeps NaN).
        const bool narrower = format_of(c.to).value(format_of(c.to).max_finite()) < format_of(c.from).value(format_of(c.from).max_finite());
        if (c.to.is_float) return round_to_float(x, format_of(c.to), mode, saturate && narrower);
        return integer_result(round_integral(x, mode), c.to, saturate, true);
    }
    const int shift = 64 - 8 * c.from.bytes;
    const double x = c.from.is_signed ? double(int64_t(bits << shift) >> shift) : double((bits << shift) >> shift);
    if (c.to.is_float) return round_to_float(x, format_of(c.to), mode, saturate);
    return integer_result(x, c.to, saturate, false);
}

// One pto.vcvt over random lanes: masked by `pattern`, stored whole; compared lane by lane.
void check_conversion(const PairCase& c, const char* rnd, Mode mode, const char* sat, const char* part, int part_index,
                      const char* pattern, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<uint8_t> in(kBytes);
    const int src_lanes = 256 / c.from.bytes, dst_lanes = 256 / c.to.bytes;
    for (int i = 0; i < src_lanes; ++i) write_lane(in.data() + i * c.from.bytes, source_lane(c.from, i, gen), c.from.bytes);
    std::string attrs = std::string("rnd = \"") + rnd + "\"";
    if (*sat) attrs += std::string(", sat = \"") + sat + "\"";
    if (*part) attrs += std::string(", part = \"") + part + "\"";
    const std::string m = mask_name(c.from.bytes), all = mask_name(c.to.bytes);
    const std::string body = "    %m = pto.pset_" + m + " \"" + pattern + "\" : !pto.mask<" + m + ">\n" +
                             "    %all = pto.pset_" + all + " \"PAT_ALL\" : !pto.mask<" + all + ">\n" +
                             "    %v = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(c.from) + "\n" +
                             "    %r = pto.vcvt %v, %m {" + attrs + "} : " + vreg(c.from) + ", !pto.mask<" + m + "> -> " + vreg(c.to) + "\n" +
                             "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(c.to) + ", !pto.ptr<ui8, ub>, !pto.mask<" + all + ">\n";
    const std::vector<uint8_t> out = run_body(body, in);
    const bool saturate = std::string(sat) == "SAT";
    const bool third = std::string(pattern) == "PAT_M3";
    // Which source lane each result lane holds (-1: none): the part's lanes of the wider side.
    for (int d = 0; d < dst_lanes; ++d) {
        int s = -1;
        if (dst_lanes >= src_lanes) {
            const int ratio = dst_lanes / src_lanes;
            if (d % ratio == part_index) s = d / ratio;
        } else {
            s = (src_lanes / dst_lanes) * d + part_index;
        }
        const bool active = s >= 0 && (!third || s % 3 == 0);
        const uint64_t got = read_lane(out.data() + d * c.to.bytes, c.to.bytes);
        const uint64_t want = active ? convert_lane(c, read_lane(in.data() + s * c.from.bytes, c.from.bytes), mode, saturate) : 0;
        const uint64_t width_mask = c.to.bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * c.to.bytes)) - 1;
        const bool ok = c.to.is_float && active ? same_float(c.to, got, want & width_mask) : got == (want & width_mask);
        ASSERT_TRUE(ok) << c.from.name << " -> " << c.to.name << " rnd " << rnd << " sat " << sat << " part " << part << " "
                        << pattern << ": result lane " << d << " from source lane " << s << " (bits 0x" << std::hex
                        << read_lane(in.data() + std::max(s, 0) * c.from.bytes, c.from.bytes) << "): got 0x" << got << ", want 0x"
                        << (want & width_mask);
    }
}

TEST(VectorConvert, EveryPairInEveryModeMatchesTheReference)
{
    uint32_t seed = 100;
    for (const PairCase& c : kPairs) {
        const int ratio = std::max(c.from.bytes, c.to.bytes) / std::min(c.from.bytes, c.to.bytes);
        const std::vector<std::pair<const char*, int>> parts =
            ratio == 1 ? std::vector<std::pair<const char*, int>>{{"", 0}}
            : ratio == 2 ? std::vector<std::pair<const char*, int>>{{"EVEN", 0}, {"ODD", 1}}
                         : std::vector<std::pair<const char*, int>>{{"EVEN", 0}, {"ODD", 1}, {"P2", 2}, {"P3", 3}};
        for (const auto& [part, index] : parts)
            for (const auto& [rnd, mode] : kModes)
                for (const char* sat : {"SAT", "NOSAT"}) {
                    check_conversion(c, rnd, mode, sat, part, index, seed % 2 ? "PAT_M3" : "PAT_ALL", seed);
                    ++seed;
                }
    }
}

// The family overview's spellings (round_mode = "ROUND_Z", sat = "RS_ENABLE", part = "PART_ODD") say
// what the op page's do.
TEST(VectorConvert, OverviewSpellingsMeanTheOpPageTokens)
{
    std::vector<uint8_t> in = random_bytes(kBytes, 7);
    const auto body = [](const std::string& attrs) {
        return "    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n    %all = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
               "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
               "    %r = pto.vcvt %v, %m {" + attrs + "} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xi16>\n"
               "    pto.vsts %r, %out_ui8[%c0], %all : !pto.vreg<128xi16>, !pto.ptr<ui8, ub>, !pto.mask<b16>\n";
    };
    EXPECT_EQ(run_body(body("round_mode = \"ROUND_Z\", sat = \"RS_ENABLE\", part = \"PART_ODD\""), in),
              run_body(body("rnd = \"Z\", sat = \"SAT\", part = \"ODD\""), in));
}

// Decision: with no attributes, pto.vcvt rounds to nearest even (R), does not saturate (NOSAT) and,
// where the width changes, takes part EVEN.
TEST(VectorConvert, DefaultsAreRoundNearestNoSaturationPartEven)
{
    std::vector<uint8_t> in = random_bytes(kBytes, 8);
    const auto body = [](const std::string& attrs) {
        return "    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n    %all = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
               "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
               "    %r = pto.vcvt %v, %m" + attrs + " : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n"
               "    pto.vsts %r, %out_ui8[%c0], %all : !pto.vreg<128xf16>, !pto.ptr<ui8, ub>, !pto.mask<b16>\n";
    };
    EXPECT_EQ(run_body(body(""), in), run_body(body(" {rnd = \"R\", sat = \"NOSAT\", part = \"EVEN\"}"), in));
}

// Decision: EVEN/ODD are lane positions of the narrow side. f32 -> f16 EVEN writes source lane i to
// result lane 2i and zeroes lane 2i+1; ODD the other way round, so vor of the two is both vectors.
TEST(VectorConvert, NarrowingPartsInterleaveAndVorJoinsThem)
{
    std::vector<uint8_t> in(kBytes);
    for (int i = 0; i < 128; ++i) {
        const float v = float(i) + 0.25f;
        std::memcpy(in.data() + 4 * i, &v, 4);
    }
    const std::string body = R"(    %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    %all = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %b = pto.vlds %in_f32[%c64] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %even = pto.vcvt %a, %m {rnd = "Z", part = "EVEN"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xi16>
    %odd = pto.vcvt %b, %m {rnd = "Z", part = "ODD"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xi16>
    %both = pto.vor %even, %odd, %all : !pto.vreg<128xi16>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>
    pto.vsts %both, %out_ui8[%c0], %all : !pto.vreg<128xi16>, !pto.ptr<ui8, ub>, !pto.mask<b16>
)";
    const std::vector<uint8_t> out = run_body(body, in);
    for (int lane = 0; lane < 128; ++lane) {
        int16_t got = 0;
        std::memcpy(&got, out.data() + 2 * lane, 2);
        EXPECT_EQ(got, lane % 2 ? 64 + lane / 2 : lane / 2) << "lane " << lane;
    }
}

// Decision: widening reads one part of the source: bf16 -> f32 ODD converts source lanes 1, 3, 5, ...
// and a mask lane governs the source lane it belongs to.
TEST(VectorConvert, WideningPartsReadEveryOtherSourceLaneUnderTheSourceMask)
{
    std::vector<uint8_t> in(kBytes);
    for (int i = 0; i < 128; ++i) {
        const uint16_t bf16 = uint16_t(std::bit_cast<uint32_t>(float(i + 1)) >> 16);
        std::memcpy(in.data() + 2 * i, &bf16, 2);
    }
    const std::string body = R"(    %m = pto.pset_b16 "PAT_M3" : !pto.mask<b16>
    %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    %a = pto.vlds %in_bf16[%c0] : !pto.ptr<bf16, ub> -> !pto.vreg<128xbf16>
    %r = pto.vcvt %a, %m {part = "ODD"} : !pto.vreg<128xbf16>, !pto.mask<b16> -> !pto.vreg<64xf32>
    pto.vsts %r, %out_ui8[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<ui8, ub>, !pto.mask<b32>
)";
    const std::vector<uint8_t> out = run_body(body, in);
    for (int lane = 0; lane < 64; ++lane) {
        float got = 0;
        std::memcpy(&got, out.data() + 4 * lane, 4);
        const int source = 2 * lane + 1;
        EXPECT_EQ(got, source % 3 == 0 ? float(source + 1) : 0.0f) << "lane " << lane;
    }
}

// Decision: 4:1 pairs (8-bit <-> 32-bit lanes) have four parts: EVEN = P0, ODD = P1, and P2, P3, so that
// every source lane can be reached; part k is lane 4i + k of the narrow side.
TEST(VectorConvert, FourToOnePairsHaveFourParts)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 9);
    for (const auto& [part, k] : {std::pair<const char*, int>{"EVEN", 0}, {"ODD", 1}, {"P2", 2}, {"PART_P3", 3}}) {
        const std::string body = std::string("    %m = pto.pset_b8 \"PAT_ALL\" : !pto.mask<b8>\n    %all = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n") +
                                 "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<256xui8>\n" +
                                 "    %r = pto.vcvt %a, %m {part = \"" + part + "\"} : !pto.vreg<256xui8>, !pto.mask<b8> -> !pto.vreg<64xui32>\n" +
                                 "    pto.vsts %r, %out_ui8[%c0], %all : !pto.vreg<64xui32>, !pto.ptr<ui8, ub>, !pto.mask<b32>\n";
        const std::vector<uint8_t> out = run_body(body, in);
        for (int lane = 0; lane < 64; ++lane) {
            uint32_t got = 0;
            std::memcpy(&got, out.data() + 4 * lane, 4);
            EXPECT_EQ(got, in[std::size_t(4 * lane + k)]) << part << " lane " << lane;
        }
    }
}

// Decision: rnd = "A" is TCVT's CAST_ROUND, to nearest with ties away from zero (2.5 -> 3, -2.5 -> -3,
// 2.4 -> 2), not a directed rounding away from zero.
TEST(VectorConvert, RoundAIsNearestTiesAwayFromZero)
{
    std::vector<uint8_t> in(kBytes);
    const float values[] = {2.5f, -2.5f, 2.4f, -2.4f, 0.5f, -0.5f, 1.6f, 3.5f};
    for (int i = 0; i < 64; ++i) std::memcpy(in.data() + 4 * i, &values[i % 8], 4);
    const std::string body = R"(    %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %r = pto.vcvt %a, %m {rnd = "A"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xi32>
    pto.vsts %r, %out_ui8[%c0], %m : !pto.vreg<64xi32>, !pto.ptr<ui8, ub>, !pto.mask<b32>
)";
    const std::vector<uint8_t> out = run_body(body, in);
    const int32_t want[] = {3, -3, 2, -2, 1, -1, 2, 4};
    for (int i = 0; i < 64; ++i) {
        int32_t got = 0;
        std::memcpy(&got, out.data() + 4 * i, 4);
        EXPECT_EQ(got, want[i % 8]) << "lane " << i;
    }
}

// Decision: without saturation, a float that overflows a narrow integer saturates into int32 and keeps
// the low bits (TCVT's NOSAT: 70000.0 -> i16 is 4464, +inf -> i16 is -1); NaN converts to 0 in both.
TEST(VectorConvert, NoSaturationKeepsTheLowBitsOfTheInt32Result)
{
    std::vector<uint8_t> in(kBytes);
    const float values[] = {70000.0f, INFINITY, NAN, -70000.0f};
    for (int i = 0; i < 64; ++i) std::memcpy(in.data() + 4 * i, &values[i % 4], 4);
    const auto body = [](const char* sat) {
        return std::string("    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n    %all = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n") +
               "    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n" +
               "    %r = pto.vcvt %a, %m {sat = \"" + sat + "\", part = \"EVEN\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xi16>\n" +
               "    pto.vsts %r, %out_ui8[%c0], %all : !pto.vreg<128xi16>, !pto.ptr<ui8, ub>, !pto.mask<b16>\n";
    };
    const std::vector<uint8_t> wrapped = run_body(body("NOSAT"), in), saturated = run_body(body("SAT"), in);
    const int16_t want_wrapped[] = {4464, -1, 0, -4464}, want_saturated[] = {32767, 32767, 0, -32768};
    for (int i = 0; i < 64; ++i) {
        int16_t w = 0, s = 0;
        std::memcpy(&w, wrapped.data() + 4 * i, 2);
        std::memcpy(&s, saturated.data() + 4 * i, 2);
        EXPECT_EQ(w, want_wrapped[i % 4]) << "lane " << i;
        EXPECT_EQ(s, want_saturated[i % 4]) << "lane " << i;
    }
}

// ---- pto.vtrc -------------------------------------------------------------------------------------

TEST(VectorConvert, VtrcRoundsEveryFloatTypeInEveryMode)
{
    for (const Lane& t : {kF32, kF16, kBF16}) {
        std::mt19937 gen(11);
        std::vector<uint8_t> in(kBytes);
        for (int i = 0; i < 256 / t.bytes; ++i) write_lane(in.data() + i * t.bytes, source_lane(t, i, gen), t.bytes);
        for (const auto& [rnd, mode] : kModes) {
            const std::string body = "    %all = pto.pset_" + mask_name(t.bytes) + " \"PAT_ALL\" : !pto.mask<" + mask_name(t.bytes) + ">\n" +
                                     "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                     "    %r = pto.vtrc %a, \"ROUND_" + rnd + "\" : " + vreg(t) + " -> " + vreg(t) + "\n" +
                                     "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + mask_name(t.bytes) + ">\n";
            const std::vector<uint8_t> out = run_body(body, in);
            for (int i = 0; i < 256 / t.bytes; ++i) {
                const uint64_t bits = read_lane(in.data() + i * t.bytes, t.bytes), got = read_lane(out.data() + i * t.bytes, t.bytes);
                const uint64_t want = round_to_float(round_integral(float_value(t, bits), mode), format_of(t), Mode::R, false);
                ASSERT_TRUE(same_float(t, got, want)) << t.name << " ROUND_" << rnd << " lane " << i << ": " << float_value(t, bits)
                                                      << " gave " << float_value(t, got) << ", want " << float_value(t, want);
            }
        }
    }
}

// Decision: vtrc keeps the sign of a zero result (-0.3 -> -0 under R) and passes NaN and infinities.
TEST(VectorConvert, VtrcKeepsTheSignOfZeroAndPassesSpecials)
{
    std::vector<uint8_t> in(kBytes);
    const float values[] = {-0.3f, -0.0f, INFINITY, -INFINITY, NAN, 0.7f, -0.7f, 1e30f};
    for (int i = 0; i < 64; ++i) std::memcpy(in.data() + 4 * i, &values[i % 8], 4);
    const std::string body = R"(    %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %r = pto.vtrc %a, "ROUND_Z" : !pto.vreg<64xf32> -> !pto.vreg<64xf32>
    pto.vsts %r, %out_ui8[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<ui8, ub>, !pto.mask<b32>
)";
    const std::vector<uint8_t> out = run_body(body, in);
    for (int i = 0; i < 8; ++i) {
        float got = 0;
        std::memcpy(&got, out.data() + 4 * i, 4);
        const float want = std::trunc(values[i]);
        if (std::isnan(want)) EXPECT_TRUE(std::isnan(got));
        else EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want)) << "lane " << i;
    }
}

// ---- pto.vci, pto.vbitcast, pto.pbitcast -------------------------------------------------------------

TEST(VectorConvert, VciCountsFromItsStartInBothOrdersOnEveryIntegerType)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 12);
    for (const Lane& t : {kI8, kU8, kI16, kU16, kI32, kU32, kI64})
        for (const char* order : {"ASC", "DESC"}) {
            const std::string bits = std::to_string(t.bytes * 8);
            const int64_t start = t.bytes == 1 ? 100 : -1000;
            const std::string body = "    %s = arith.constant " + std::to_string(start) + " : i" + bits + "\n" +
                                     "    %all = pto.pset_" + mask_name(t.bytes) + " \"PAT_ALL\" : !pto.mask<" + mask_name(t.bytes) + ">\n" +
                                     "    %r = pto.vci %s {order = \"" + order + "\"} : i" + bits + " -> " + vreg(t) + "\n" +
                                     "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(t) + ", !pto.ptr<ui8, ub>, !pto.mask<" + mask_name(t.bytes) + ">\n";
            const std::vector<uint8_t> out = run_body(body, in);
            for (int i = 0; i < 256 / t.bytes; ++i) {
                const uint64_t want = uint64_t(start + (std::string(order) == "ASC" ? i : -i));
                const uint64_t width = t.bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * t.bytes)) - 1;
                ASSERT_EQ(read_lane(out.data() + i * t.bytes, t.bytes), want & width) << t.name << " " << order << " lane " << i;
            }
        }
}

TEST(VectorConvert, VbitcastKeepsEveryBit)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 13);
    for (const auto& [from, to] : {std::pair{kF32, kI32}, {kF16, kU16}, {kBF16, kI16}, {kF32, kI16}, {kI8, kI64}, {kU16, kF32}}) {
        const std::string body = "    %all = pto.pset_" + mask_name(to.bytes) + " \"PAT_ALL\" : !pto.mask<" + mask_name(to.bytes) + ">\n" +
                                 "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(from) + "\n" +
                                 "    %r = pto.vbitcast %a : " + vreg(from) + " -> " + vreg(to) + "\n" +
                                 "    pto.vsts %r, %out_ui8[%c0], %all : " + vreg(to) + ", !pto.ptr<ui8, ub>, !pto.mask<" + mask_name(to.bytes) + ">\n";
        const std::vector<uint8_t> out = run_body(body, in);
        EXPECT_TRUE(std::equal(out.begin(), out.begin() + 256, in.begin())) << from.name << " -> " << to.name;
    }
}

// Decision: pbitcast keeps the predicate image and a lane of the result is active when its first byte
// is: b16 -> b32 keeps b16 lanes 0, 2, 4, ...; b32 -> b8 activates all four bytes of an active lane.
TEST(VectorConvert, PbitcastReadsTheFirstByteOfEachLane)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 14);
    const auto body = [](const char* from, const char* to, const char* vreg_type) {
        return std::string("    %m = pto.pset_") + from + " \"PAT_M3\" : !pto.mask<" + from + ">\n" +
               "    %c = pto.pbitcast %m : !pto.mask<" + from + "> -> !pto.mask<" + to + ">\n" +
               "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<" + vreg_type + ">\n" +
               "    pto.vsts %a, %out_ui8[%c0], %c : !pto.vreg<" + vreg_type + ">, !pto.ptr<ui8, ub>, !pto.mask<" + to + ">\n";
    };
    // b16 PAT_M3 activates b16 lanes 0, 3, 6, ...: b32 lane j reads b16 lane 2j.
    std::vector<uint8_t> out = run_body(body("b16", "b32", "64xf32"), in);
    for (int b = 0; b < 256; ++b) ASSERT_EQ(out[std::size_t(b)], (b / 4 * 2) % 3 == 0 ? in[std::size_t(b)] : 0xAB) << "b16 -> b32 byte " << b;
    out = run_body(body("b32", "b8", "256xui8"), in);
    for (int b = 0; b < 256; ++b) ASSERT_EQ(out[std::size_t(b)], (b / 4) % 3 == 0 ? in[std::size_t(b)] : 0xAB) << "b32 -> b8 byte " << b;
}

// ---- what the verifier rejects ---------------------------------------------------------------------

TEST(VectorConvert, IllegalFormsReportTheirCodes)
{
    const std::string load32 = "    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n";
    const auto vcvt = [&](const std::string& attrs, const std::string& to, const std::string& mask = "b32") {
        return load32 + "    %h = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n    %r = pto.vcvt %v, %" + (mask == "b32" ? "m" : "h") + " " + attrs +
               " : !pto.vreg<64xf32>, !pto.mask<" + mask + "> -> " + to + "\n";
    };
    const std::pair<std::string, std::string> cases[] = {
        {vcvt("", "!pto.vreg<256xui8>"), "LEGAL_VCVT_PAIR"},
        {vcvt("", "!pto.vreg<64xf32>"), "LEGAL_VCVT_PAIR"},
        {vcvt("{rnd = \"X\"}", "!pto.vreg<64xi32>"), "LEGAL_VCVT_ROUND"},
        {vcvt("{sat = \"MAYBE\"}", "!pto.vreg<64xi32>"), "LEGAL_VCVT_SAT"},
        {vcvt("{part = \"EVEN\"}", "!pto.vreg<64xi32>"), "LEGAL_VCVT_PART"},
        {vcvt("{part = \"P2\"}", "!pto.vreg<128xf16>"), "LEGAL_VCVT_PART"},
        {vcvt("{part = \"MIDDLE\"}", "!pto.vreg<128xf16>"), "LEGAL_VCVT_PART"},
        {vcvt("", "!pto.vreg<64xi32>", "b16"), "LEGAL_VECTOR_MASK_WIDTH"},
        {vcvt("", "!pto.vreg<32xi32>"), "LEGAL_VREG_SHAPE"},
        {load32 + "    %r = pto.vtrc %v, \"ROUND_Q\" : !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n", "LEGAL_VTRC_ROUND"},
        {load32 + "    %r = pto.vtrc %v : !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n", "LEGAL_VTRC_ROUND"},
        {"    %v = pto.vlds %in_i32[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>\n    %r = pto.vtrc %v, \"ROUND_R\" : !pto.vreg<64xi32> -> !pto.vreg<64xi32>\n",
         "LEGAL_VECTOR_DTYPE"},
        {load32 + "    %r = pto.vtrc %v, \"ROUND_R\" : !pto.vreg<64xf32> -> !pto.vreg<64xi32>\n", "STRUCT_OPERAND_KIND"},
        {"    %s = arith.constant 0 : i32\n    %r = pto.vci %s {order = \"UP\"} : i32 -> !pto.vreg<64xi32>\n", "LEGAL_VCI_ORDER"},
        {"    %s = arith.constant 0 : i16\n    %r = pto.vci %s : i16 -> !pto.vreg<64xi32>\n", "LEGAL_VCI_INDEX"},
        {"    %s = arith.constant 0 : i32\n    %r = pto.vci %s : i32 -> !pto.vreg<64xf32>\n", "LEGAL_VECTOR_DTYPE"},
        {load32 + "    %r = pto.vbitcast %v : !pto.vreg<64xf32> -> !pto.vreg<32xf32>\n", "LEGAL_VREG_SHAPE"},
        {load32 + "    %r = pto.vbitcast %v : !pto.vreg<64xf32> -> !pto.mask<b32>\n", "STRUCT_OPERAND_KIND"},
        {load32 + "    %r = pto.pbitcast %m : !pto.mask<b32> -> !pto.mask<G>\n", "LEGAL_VECTOR_MASK_WIDTH"},
    };
    for (const auto& [body, code] : cases) {
        const std::vector<std::string> codes = static_codes(body);
        EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end()) << "expected " << code << " for\n" << body;
    }
}

// The text form prints back as it reads: the trailing rounding word of pto.vtrc stays after its operand.
TEST(VectorConvert, VtrcPrintsItsRoundingAfterTheOperand)
{
    const std::string body = "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                             "    %r = pto.vtrc %v, \"ROUND_F\" : !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n";
    const ParseResult parsed = parse_ok(program(body));
    const std::string printed = print(parsed.module);
    EXPECT_NE(printed.find("pto.vtrc %v, \"ROUND_F\""), std::string::npos) << printed;
    const ParseResult again = parse_ok(printed);
    EXPECT_EQ(print(again.module), printed);
}

}  // namespace
}  // namespace pto::as::testing
