// The conversion API: the TCVT pair table per target, the defaults, the packed-type counting
// convention, the scalar helpers, and the worked examples of the Ascend documentation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include <pto/numeric/convert.hpp>

#include "numeric/reference.hpp"

namespace {

using pto::RoundMode;
using pto::SaturationMode;
using pto::engine::DType;
using pto::profile::Target;
namespace numeric = pto::numeric;

// ---- the pair table ---------------------------------------------------------------------------

// The TCVT page's "Supported Conversions" table, transcribed: source -> destinations.
const std::map<std::string, std::string> kA2A3Table = {
    {"f32", "f16 f32 bf16 i16 i32 i64"}, {"f16", "f32 i32 i16 i8 u8 i4"}, {"bf16", "f32 i32"},
    {"i16", "f16 f32"},                  {"i32", "f32 i16 i64 f16"},      {"i64", "f32 i32"},
    {"u8", "f16"},                       {"i8", "f16"},                   {"i4", "f16"},
};
const std::map<std::string, std::string> kA5Table = {
    {"f32", "f32 f16 bf16 i16 i32 i64 f8e4m3 f8e5m2 hif8"},
    {"f16", "f32 i32 i16 i8 u8 hif8"},
    {"bf16", "f32 i32 f16 f4e1m2x2 f4e2m1x2"},
    {"i16", "u8 f16 f32 u32 i32"},
    {"i32", "f32 i16 u16 i64 u8"},
    {"i64", "f32 i32"},
    {"u8", "f16 u16"},
    {"i8", "f16 i16 i32"},
    {"u32", "u8 u16 i16"},
    {"f8e4m3", "f32"},
    {"f8e5m2", "f32"},
    {"hif8", "f32"},
    {"f4e1m2x2", "bf16"},
    {"f4e2m1x2", "bf16"},
};

bool listed(const std::map<std::string, std::string>& table, DType dst, DType src)
{
    const auto it = table.find(ref::name(src));
    if (it == table.end()) return false;
    std::istringstream destinations(it->second);
    for (std::string d; destinations >> d;) {
        if (d == ref::name(dst)) return true;
    }
    return false;
}

TEST(ConversionTable, EveryPairAsThePageListsIt)
{
    int a2a3_pairs = 0;
    int a5_pairs = 0;
    for (const DType dst : ref::kAllTypes) {
        for (const DType src : ref::kAllTypes) {
            const bool on_a2a3 = listed(kA2A3Table, dst, src);
            const bool on_a5 = listed(kA5Table, dst, src);
            a2a3_pairs += on_a2a3;
            a5_pairs += on_a5;
            EXPECT_EQ(numeric::conversion_allowed_on(Target::A2A3, dst, src), on_a2a3)
                << ref::name(src) << " -> " << ref::name(dst);
            EXPECT_EQ(numeric::conversion_allowed_on(Target::A5, dst, src), on_a5)
                << ref::name(src) << " -> " << ref::name(dst);
            EXPECT_EQ(numeric::conversion_allowed_on(Target::Cpu, dst, src), on_a2a3 || on_a5);
            EXPECT_EQ(numeric::conversion_allowed(dst, src), on_a2a3 || on_a5);
        }
    }
    EXPECT_EQ(a2a3_pairs, 25);
    EXPECT_EQ(a5_pairs, 45);
}

TEST(ConversionTable, TheDifferencesThePageCallsOut)
{
    EXPECT_TRUE(numeric::conversion_allowed_on(Target::A2A3, DType::F16, DType::I32));
    EXPECT_FALSE(numeric::conversion_allowed_on(Target::A5, DType::F16, DType::I32));
    EXPECT_FALSE(numeric::conversion_allowed_on(Target::A5, DType::F8E4M3, DType::F16));
    EXPECT_FALSE(numeric::conversion_allowed_on(Target::A5, DType::F8E5M2, DType::F16));
    EXPECT_TRUE(numeric::conversion_allowed_on(Target::A2A3, DType::I4, DType::F16));
    EXPECT_FALSE(numeric::conversion_allowed_on(Target::A5, DType::I4, DType::F16));
    static_assert(numeric::conversion_allowed(DType::F16, DType::F32), "usable in constant expressions");
    static_assert(!numeric::conversion_allowed(DType::F8E8M0, DType::F32));
}

// ---- defaults -----------------------------------------------------------------------------------

TEST(ConversionDefaults, SaturationIsOffOnlyForThePyTorchNarrowings)
{
    const std::pair<DType, DType> pytorch_narrowings[] = {{DType::U8, DType::F16},  {DType::I8, DType::F16},
                                                          {DType::I16, DType::F16}, {DType::I16, DType::F32},
                                                          {DType::I16, DType::I32}, {DType::I32, DType::I64}};
    int off = 0;
    for (const DType dst : ref::kAllTypes) {
        for (const DType src : ref::kAllTypes) off += numeric::default_saturation(dst, src) == SaturationMode::OFF;
    }
    EXPECT_EQ(off, 6);
    for (const auto& [dst, src] : pytorch_narrowings) {
        EXPECT_EQ(numeric::default_saturation(dst, src), SaturationMode::OFF)
            << ref::name(src) << " -> " << ref::name(dst);
    }
    EXPECT_EQ(numeric::default_saturation(DType::F16, DType::F32), SaturationMode::ON);
}

TEST(ConversionDefaults, CastNoneIsRintExceptIntoHiFloat8)
{
    for (const DType dst : ref::kAllTypes) {
        const RoundMode expected = dst == DType::HiF8 ? RoundMode::CAST_ROUND : RoundMode::CAST_RINT;
        EXPECT_EQ(numeric::effective_round_mode(dst, RoundMode::CAST_NONE), expected) << ref::name(dst);
        for (const RoundMode mode : ref::kAllModes) {
            if (mode != RoundMode::CAST_NONE) {
                EXPECT_EQ(numeric::effective_round_mode(dst, mode), mode);
            }
        }
    }
}

// ---- worked examples ----------------------------------------------------------------------------

uint32_t f32_bits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

template <class Dst, class Src>
Dst convert_one(DType dst, DType src, Src value, RoundMode mode, SaturationMode sat = SaturationMode::OFF)
{
    Dst out{};
    numeric::convert(dst, &out, src, &value, 1, mode, sat);
    return out;
}

// The vendor's saturation example: 300.0 -> int8 clamps to 127, or keeps the low bits, 44.
TEST(ConversionExamples, SaturationOfThreeHundredToInt8)
{
    const uint16_t three_hundred = 0x5CB0;
    const auto to_int8 = [&](SaturationMode s) {
        return convert_one<int8_t>(DType::I8, DType::F16, three_hundred, RoundMode::CAST_RINT, s);
    };
    EXPECT_EQ(to_int8(SaturationMode::ON), 127);
    EXPECT_EQ(to_int8(SaturationMode::OFF), 44);
}

// Ascend C's Cast examples: float 0.5 + 2^-12 -> half in each mode.
TEST(ConversionExamples, FloatToHalfInEachMode)
{
    const float v = 0.5f + std::ldexp(1.0f, -12);
    const auto to_half = [&](RoundMode m) { return convert_one<uint16_t>(DType::F16, DType::F32, v, m); };
    EXPECT_EQ(to_half(RoundMode::CAST_RINT), 0x3800);   // 0.5
    EXPECT_EQ(to_half(RoundMode::CAST_FLOOR), 0x3800);  // 0.5
    EXPECT_EQ(to_half(RoundMode::CAST_CEIL), 0x3801);   // 0.5 + 2^-11
    EXPECT_EQ(to_half(RoundMode::CAST_ROUND), 0x3801);
    EXPECT_EQ(to_half(RoundMode::CAST_TRUNC), 0x3800);
    EXPECT_EQ(to_half(RoundMode::CAST_ODD), 0x3801);
}

// Ascend C's Cast examples: float -> float rounds to an integral value; 2^22 + 0.5 -> int64.
TEST(ConversionExamples, RoundOnlyAndFloatToInt64)
{
    const auto integral = [](float v, RoundMode m) { return convert_one<uint32_t>(DType::F32, DType::F32, v, m); };
    EXPECT_EQ(integral(0.5f, RoundMode::CAST_RINT), f32_bits(0.0f));
    EXPECT_EQ(integral(0.5f, RoundMode::CAST_FLOOR), f32_bits(0.0f));
    EXPECT_EQ(integral(0.5f, RoundMode::CAST_CEIL), f32_bits(1.0f));
    EXPECT_EQ(integral(0.5f, RoundMode::CAST_ROUND), f32_bits(1.0f));
    EXPECT_EQ(integral(0.5f, RoundMode::CAST_TRUNC), f32_bits(0.0f));
    EXPECT_EQ(integral(-0.5f, RoundMode::CAST_TRUNC), f32_bits(-0.0f));
    const float v = 4194304.5f;  // 2^22 + 0.5
    const auto to_i64 = [&](RoundMode m) { return convert_one<int64_t>(DType::I64, DType::F32, v, m); };
    EXPECT_EQ(to_i64(RoundMode::CAST_RINT), 4194304);
    EXPECT_EQ(to_i64(RoundMode::CAST_FLOOR), 4194304);
    EXPECT_EQ(to_i64(RoundMode::CAST_CEIL), 4194305);
    EXPECT_EQ(to_i64(RoundMode::CAST_ROUND), 4194305);
    EXPECT_EQ(to_i64(RoundMode::CAST_TRUNC), 4194304);
}

// Round-to-odd keeps an odd truncation and moves an even one up when anything was cut off.
TEST(ConversionExamples, RoundToOddIsVonNeumannRounding)
{
    const auto to_i32 = [](float v) { return convert_one<int32_t>(DType::I32, DType::F32, v, RoundMode::CAST_ODD); };
    EXPECT_EQ(to_i32(1.8f), 1);
    EXPECT_EQ(to_i32(2.2f), 3);
    EXPECT_EQ(to_i32(2.0f), 2);
    EXPECT_EQ(to_i32(-2.5f), -3);
}

// Non-saturating float -> narrow integer goes through an int32-saturated value (decision 6).
TEST(ConversionExamples, NonSaturatingNarrowingKeepsLowBitsOfInt32)
{
    const auto to_i16 = [](float v, SaturationMode s) {
        return convert_one<int16_t>(DType::I16, DType::F32, v, RoundMode::CAST_RINT, s);
    };
    EXPECT_EQ(to_i16(INFINITY, SaturationMode::OFF), -1);
    EXPECT_EQ(to_i16(-INFINITY, SaturationMode::OFF), 0);
    EXPECT_EQ(to_i16(NAN, SaturationMode::OFF), 0);
    EXPECT_EQ(to_i16(65537.0f, SaturationMode::OFF), 1);
    EXPECT_EQ(to_i16(65537.0f, SaturationMode::ON), 32767);
    EXPECT_EQ(to_i16(-1e10f, SaturationMode::OFF), 0);  // INT32_MIN's low bits
    EXPECT_EQ((convert_one<uint8_t>(DType::U8, DType::F16, uint16_t{0xBC00}, RoundMode::CAST_RINT)), 255);  // -1.0
}

// Saturation ON: infinities to the largest finite value, NaN to zero (Ascend saturation mode).
TEST(ConversionExamples, SaturatingFloatNarrowing)
{
    const auto to_half = [](float v, SaturationMode s) {
        return convert_one<uint16_t>(DType::F16, DType::F32, v, RoundMode::CAST_RINT, s);
    };
    EXPECT_EQ(to_half(INFINITY, SaturationMode::ON), 0x7BFF);
    EXPECT_EQ(to_half(-1e6f, SaturationMode::ON), 0xFBFF);
    EXPECT_EQ(to_half(NAN, SaturationMode::ON), 0x0000);
    EXPECT_EQ(to_half(INFINITY, SaturationMode::OFF), 0x7C00);
    EXPECT_EQ(to_half(65519.0f, SaturationMode::OFF), 0x7BFF);
    EXPECT_EQ(to_half(65520.0f, SaturationMode::OFF), 0x7C00);
    // A widening conversion carries NaN and infinity through in both modes.
    const uint16_t half_infinity = 0x7C00;
    EXPECT_EQ((convert_one<uint32_t>(DType::F32, DType::F16, half_infinity, RoundMode::CAST_RINT, SaturationMode::ON)),
              0x7F800000u);
}

// HiFloat8 encodings of a few values, from the format description.
TEST(ConversionExamples, HiFloat8Encodings)
{
    const auto to_hif8 = [](float v) { return convert_one<uint8_t>(DType::HiF8, DType::F32, v, RoundMode::CAST_NONE); };
    EXPECT_EQ(to_hif8(0.0f), 0x00);
    EXPECT_EQ(to_hif8(-0.0f), 0x00);
    EXPECT_EQ(to_hif8(1.0f), 0x08);     // dot 0001: exponent 0, fraction 000
    EXPECT_EQ(to_hif8(3.0f), 0x14);     // dot 001: exponent +1, fraction 100
    EXPECT_EQ(to_hif8(-3.0f), 0x94);
    EXPECT_EQ(to_hif8(32768.0f), 0x6E);  // the largest value
    EXPECT_EQ(to_hif8(40960.0f), 0x6F);  // ties away past it: infinity
    EXPECT_EQ(to_hif8(std::ldexp(1.0f, -22)), 0x01);
    EXPECT_EQ(to_hif8(std::ldexp(1.0f, -23)), 0x01);  // ties away from zero
    EXPECT_EQ(to_hif8(NAN), 0x80);
}

// ---- packed types --------------------------------------------------------------------------------

TEST(PackedTypes, Fp4CountsValuesAndKeepsTheNeighbourNibble)
{
    const uint16_t bf16[5] = {0x3F80, 0xC040, 0x40C0, 0x3F00, 0xBF00};  // 1, -3, 6, 0.5, -0.5
    uint8_t packed[4] = {0xAA, 0xAA, 0xAA, 0xAA};
    numeric::convert(DType::F4E2M1x2, packed, DType::BF16, bf16, 5, RoundMode::CAST_RINT, SaturationMode::ON);
    EXPECT_EQ(packed[0], 0xD2);  // value 0 (1.0 = 0x2) low, value 1 (-3.0 = 0xD) high
    EXPECT_EQ(packed[1], 0x17);  // 6.0 = 0x7, 0.5 = 0x1
    EXPECT_EQ(packed[2], 0xA9);  // -0.5 = 0x9 low; value 5 (high) kept
    EXPECT_EQ(packed[3], 0xAA);  // untouched
    uint16_t back[6] = {0, 0, 0, 0, 0, 0xBEEF};
    numeric::convert(DType::BF16, back, DType::F4E2M1x2, packed, 5, RoundMode::CAST_RINT, SaturationMode::ON);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(back[i], bf16[i]);
    EXPECT_EQ(back[5], 0xBEEF);
}

TEST(PackedTypes, Int4CountsNibblesAndKeepsTheNeighbourNibble)
{
    const uint16_t halfs[3] = {0x4000, 0xC400, 0x4700};  // 2, -4, 7
    uint8_t nibbles[2] = {0x00, 0xF0};
    numeric::convert(DType::I4, nibbles, DType::F16, halfs, 3, RoundMode::CAST_RINT, SaturationMode::ON);
    EXPECT_EQ(nibbles[0], 0xC2);
    EXPECT_EQ(nibbles[1], 0xF7);  // element 2 in the low nibble; element 3 (high) kept
    uint16_t back[3] = {};
    numeric::convert(DType::F16, back, DType::I4, nibbles, 3, RoundMode::CAST_RINT, SaturationMode::ON);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(back[i], halfs[i]);
}

// ---- scalar helpers --------------------------------------------------------------------------------

TEST(ScalarHelpers, ToDoubleReadsEveryTypeExactly)
{
    const uint8_t e4m3[] = {0x7E, 0xFE, 0x01};
    EXPECT_EQ(numeric::to_double(DType::F8E4M3, e4m3, 0), 448.0);
    EXPECT_EQ(numeric::to_double(DType::F8E4M3, e4m3, 1), -448.0);
    EXPECT_EQ(numeric::to_double(DType::F8E4M3, e4m3, 2), std::ldexp(1.0, -9));
    const uint8_t pair = 0x9F;  // e1m2: value 0 = 0xF (-1.75), value 1 = 0x9 (-0.25)
    EXPECT_EQ(numeric::to_double(DType::F4E1M2x2, &pair, 0), -1.75);
    EXPECT_EQ(numeric::to_double(DType::F4E1M2x2, &pair, 1), -0.25);
    EXPECT_EQ(numeric::to_double(DType::I4, &pair, 0), -1.0);
    EXPECT_EQ(numeric::to_double(DType::I4, &pair, 1), -7.0);
    const int64_t big = (int64_t{1} << 62) + 1;
    EXPECT_EQ(numeric::to_double(DType::I64, &big, 0), std::ldexp(1.0, 62));  // rounds to nearest even
    const uint8_t e8m0 = 0xFF;
    EXPECT_TRUE(std::isnan(numeric::to_double(DType::F8E8M0, &e8m0, 0)));
}

TEST(ScalarHelpers, FromDoubleRoundsOnceLikeConvert)
{
    std::mt19937_64 rng(7);
    const double specials[] = {0.0,   -0.0,   1.0,      -1.5,      65504.0, 65520.0, 1e300,
                               -1e300, 1e-300, 3.5,      2.5,       -2.5,    NAN,     INFINITY,
                               -INFINITY,      448.0,    464.0,     0x1.0000010000001p0,
                               4294967295.5,   -2147483648.5};
    std::vector<double> values(std::begin(specials), std::end(specials));
    for (int i = 0; i < 2000; ++i) {
        const uint64_t bits = (rng() & 0x800FFFFFFFFFFFFFull) | ((960 + rng() % 130) << 52);  // 2^-63 .. 2^66
        double d;
        std::memcpy(&d, &bits, sizeof d);
        values.push_back(d);
    }
    int mismatches = 0;
    for (const DType t : ref::kAllTypes) {
        for (const RoundMode mode : ref::kAllModes) {
            for (const SaturationMode sat : ref::kBothSaturations) {
                for (const double v : values) {
                    auto buffer = ref::make_buffer(t, 3);
                    numeric::from_double(t, buffer.data(), 1, v, mode, sat);
                    const uint64_t got = ref::read_bits(t, buffer.data(), 1);
                    const uint64_t want = ref::expected_from_binary64(t, v, mode, sat);
                    if (got != want && mismatches++ < 10) {
                        ADD_FAILURE() << ref::name(t) << " " << ref::name(mode) << " from " << v << ": expected 0x"
                                      << std::hex << want << ", got 0x" << got;
                    }
                    EXPECT_EQ(ref::read_bits(t, buffer.data(), 0), 0u);
                    EXPECT_EQ(ref::read_bits(t, buffer.data(), 2), 0u);
                }
            }
        }
    }
    EXPECT_EQ(mismatches, 0);
}

}  // namespace
