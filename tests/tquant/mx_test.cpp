// TQUANT's MX forms through the C++ intrinsics against the double-precision reference (reference.hpp):
// every format, scale algorithm, group axis and source type, random partial valid regions, special
// values; the legacy and ZZ forms agree with the grouped one.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "support/test_support.hpp"
#include "tquant/reference.hpp"

using namespace pto;
using namespace pto::test;
using namespace pto::test::tquant;

namespace {

constexpr int kRows = 64, kCols = 128;
constexpr uint8_t kUntouched = 0x5A;

// A value of every magnitude a group can meet, with the special values now and then.
float random_value(std::mt19937& rng, int group_exponent)
{
    std::uniform_real_distribution<float> mantissa(-2.0f, 2.0f);
    switch (rng() % 64) {
        case 0: return std::numeric_limits<float>::quiet_NaN();
        case 1: return std::numeric_limits<float>::infinity();
        case 2: return -std::numeric_limits<float>::infinity();
        case 3: return -0.0f;
        case 4: return std::ldexp(1.0f, -130);  // f32 subnormal
        default: return std::ldexp(mantissa(rng), group_exponent - int(rng() % 12));
    }
}

// Rounds a value into the source type and reads it back as the instruction will.
template <typename T>
float as_source(float v)
{
    return float(T(v));
}

template <typename T, int GrpAxis, MxQuantAlg Alg>
void expect_mx(uint32_t seed, bool specials)
{
    constexpr bool fp4 = Alg == MxQuantAlg::OcpMxFp4E2M1 || Alg == MxQuantAlg::NvMxFp4E2M1;
    constexpr bool nv = Alg == MxQuantAlg::NvMxFp8E4M3 || Alg == MxQuantAlg::NvMxFp4E2M1;
    using Out = std::conditional_t<fp4, float4_e2m1x2_t, int8_t>;
    constexpr int kOutBytes = fp4 ? kCols / 2 : kCols;  // a row of dst: e2m1 values two to a byte
    // ND: kRows x 4 groups, exp 2-D, max and scaling flat; DN: 2 x kCols groups, all 2-D.
    constexpr int kGridRows = GrpAxis == 1 ? kRows : kRows / 32, kGridCols = GrpAxis == 1 ? 32 : kCols;
    constexpr int kFlat = GrpAxis == 1 ? kRows * kCols / 32 : kCols;
    using Src = Tile<TileType::Vec, T, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, Out, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Exp = Tile<TileType::Vec, uint8_t, kGridRows, kGridCols>;
    using Scratch = std::conditional_t<GrpAxis == 1, Tile<TileType::Vec, float, 1, kFlat>,
                                       Tile<TileType::Vec, T, kGridRows, kGridCols>>;
    const Format format{fp4};
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 6; ++trial) {
        const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
        Src src(rows, cols);
        Dst dst(rows, cols);
        Exp exp;
        Scratch max, scaling;
        std::vector<float> x(kRows * kCols);
        for (int r = 0; r < kRows; ++r)
            for (int c = 0; c < kCols; ++c) {
                const int group_exponent = int((GrpAxis == 1 ? r * 7 + c / 32 : c * 5 + r / 32) % 40) - 20;
                float v = specials ? random_value(rng, group_exponent)
                                   : std::ldexp(std::uniform_real_distribution<float>(-2, 2)(rng), group_exponent);
                x[r * kCols + c] = as_source<T>(v);
                src.SetValue(uint32_t(r * kCols + c), T(v));
            }
        std::fill_n(reinterpret_cast<uint8_t*>(dst.data()), kRows * kOutBytes, kUntouched);
        std::fill_n(exp.data(), kGridRows * kGridCols, kUntouched);
        TQUANT<GrpAxis, Alg>(dst, src, &exp, &max, &scaling);

        const uint8_t* out = reinterpret_cast<const uint8_t*>(dst.data());
        auto code_at = [&](int r, int c) {
            const uint8_t byte = out[r * kOutBytes + (fp4 ? c / 2 : c)];
            return fp4 ? uint8_t(c % 2 ? byte >> 4 : byte & 0xF) : byte;
        };
        const int group_rows = GrpAxis == 1 ? rows : (rows + 31) / 32, group_cols = GrpAxis == 1 ? (cols + 31) / 32 : cols;
        for (int i = 0; i < group_rows; ++i)
            for (int j = 0; j < group_cols; ++j) {
                auto member = [&](int k, int& r, int& c) {
                    r = GrpAxis == 1 ? i : i * 32 + k;
                    c = GrpAxis == 1 ? j * 32 + k : j;
                    return r < rows && c < cols;
                };
                GroupMax m;
                for (int k = 0, r, c; k < 32; ++k)
                    if (member(k, r, c)) m.add(x[r * kCols + c]);
                const uint8_t e = exponent(m.m, format, nv);
                ASSERT_EQ(exp.GetValue(uint32_t(i * kGridCols + j)), e) << "group " << i << "," << j << " max " << m.m;
                const int flat = GrpAxis == 1 ? i * (kCols / 32) + j : i * kGridCols + j;
                const double stored_max = double(max.GetValue(uint32_t(flat)));
                if (std::isnan(m.m)) {
                    ASSERT_TRUE(std::isnan(stored_max));
                } else {
                    ASSERT_EQ(stored_max, double(decltype(max.GetValue(0))(float(m.m))));
                }
                const double s = tquant::scaling(e);
                if (!std::isnan(s) && GrpAxis == 1) {
                    ASSERT_EQ(double(scaling.GetValue(uint32_t(flat))), s);
                }
                for (int k = 0, r, c; k < 32; ++k) {
                    if (!member(k, r, c)) continue;
                    ASSERT_EQ(int(code_at(r, c)), int(quantized(x[r * kCols + c], s, format)))
                        << "at " << r << "," << c << " x " << x[r * kCols + c] << " scaling " << s;
                }
            }
        // Outside the valid region nothing changed: whole bytes, and the high nibble after an odd e2m1 row.
        const int written_bytes = fp4 ? (cols + 1) / 2 : cols;
        for (int r = 0; r < kRows; ++r)
            for (int b = 0; b < kOutBytes; ++b)
                if (r >= rows || b >= written_bytes) {
                    ASSERT_EQ(out[r * kOutBytes + b], kUntouched) << r << "," << b;
                } else if (fp4 && cols % 2 == 1 && b == written_bytes - 1) {
                    ASSERT_EQ(out[r * kOutBytes + b] >> 4, kUntouched >> 4) << r << "," << b;
                }
    }
}

template <typename T, int GrpAxis>
void expect_every_alg(uint32_t seed)
{
    for (bool specials : {false, true}) {
        expect_mx<T, GrpAxis, MxQuantAlg::OcpMxFp8E4M3>(seed, specials);
        expect_mx<T, GrpAxis, MxQuantAlg::NvMxFp8E4M3>(seed + 1, specials);
        if constexpr (!std::is_same_v<T, float>) {
            expect_mx<T, GrpAxis, MxQuantAlg::OcpMxFp4E2M1>(seed + 2, specials);
            expect_mx<T, GrpAxis, MxQuantAlg::NvMxFp4E2M1>(seed + 3, specials);
        }
    }
}

TEST(TquantMx, FloatGroupedAlongRowsMatchesTheReference) { expect_every_alg<float, 1>(10); }
TEST(TquantMx, FloatGroupedDownColumnsMatchesTheReference) { expect_every_alg<float, 0>(20); }
TEST(TquantMx, HalfGroupedAlongRowsMatchesTheReference) { expect_every_alg<half, 1>(30); }
TEST(TquantMx, HalfGroupedDownColumnsMatchesTheReference) { expect_every_alg<half, 0>(40); }
TEST(TquantMx, Bfloat16GroupedAlongRowsMatchesTheReference) { expect_every_alg<bfloat16_t, 1>(50); }
TEST(TquantMx, Bfloat16GroupedDownColumnsMatchesTheReference) { expect_every_alg<bfloat16_t, 0>(60); }

// One group per case, the rest of the row zeros: what OCP and NV make of the edges.
struct EdgeCase {
    float value;
    bool nv;
    uint8_t exponent;
    uint8_t code;
};

TEST(TquantMx, SpecialValuesGiveTheDecidedExponentsAndCodes)
{
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const EdgeCase cases[] = {
        {448.0f, false, 127, 0x7E},        // 2^8 * 1.75: OCP scale 2^0, 448 exactly
        {500.0f, false, 127, 0x7E},        // OCP's floor leaves 500 above 448: clipped
        {500.0f, true, 128, 0x78},         // NV rounds the scale up: 250, nearest e4m3 256
        {inf, false, 255 - 8, 0x7E},       // infinity reads as the largest exponent and clips
        {inf, true, 254, 0x7E},
        {nan, false, 0xFF, 0x7F},          // a NaN group: NaN exponent, e4m3 NaN
        {nan, true, 0xFF, 0x7F},
        {-0.0f, false, 0, 0x80},           // a zero group: exponent 0, signed zero
        {0.0f, true, 0, 0x00},
        {std::ldexp(1.0f, -140), false, 0, 0x00},  // subnormal max: scale 2^127
    };
    for (const EdgeCase& e : cases) {
        Tile<TileType::Vec, float, 1, 32> src;
        Tile<TileType::Vec, int8_t, 1, 32> dst;
        Tile<TileType::Vec, uint8_t, 1, 32> exp;
        Tile<TileType::Vec, float, 1, 8> max, scaling;
        for (int c = 0; c < 32; ++c) src.SetValue(uint32_t(c), c == 3 ? e.value : 0.0f);
        if (e.nv) TQUANT<1, MxQuantAlg::NvMxFp8E4M3>(dst, src, &exp, &max, &scaling);
        else TQUANT<1, MxQuantAlg::OcpMxFp8E4M3>(dst, src, &exp, &max, &scaling);
        EXPECT_EQ(int(exp.GetValue(0)), int(e.exponent)) << e.value << (e.nv ? " nv" : " ocp");
        EXPECT_EQ(int(uint8_t(dst.GetValue(3))), int(e.code)) << e.value << (e.nv ? " nv" : " ocp");
    }
}

TEST(TquantMx, TheLegacyFormIsTheGroupedFormAlongRows)
{
    using Src = Tile<TileType::Vec, half, 16, 64>;
    using Dst = Tile<TileType::Vec, float4_e2m1x2_t, 16, 64>;  // 16 x 64 values in 16 x 32 bytes
    using Exp = Tile<TileType::Vec, uint8_t, 16, 32>;
    using Scratch = Tile<TileType::Vec, half, 1, 32>;
    Src src;
    Dst legacy, grouped;
    Exp legacy_exp, grouped_exp;
    Scratch max, scaling;
    std::mt19937 rng(7);
    for (int i = 0; i < 16 * 64; ++i) src.SetValue(uint32_t(i), half(std::ldexp(float(int(rng() % 200) - 100), int(rng() % 9))));
    TQUANT<QuantType::MXFP4_E2M1, Dst, Src, Exp, Scratch, Scratch, QuantScaleAlg::NV>(legacy, src, &legacy_exp, &max, &scaling);
    TQUANT<1, MxQuantAlg::NvMxFp4E2M1>(grouped, src, &grouped_exp, &max, &scaling);
    EXPECT_EQ(0, std::memcmp(legacy.data(), grouped.data(), 16 * 32));
    EXPECT_EQ(0, std::memcmp(legacy_exp.data(), grouped_exp.data(), 16 * 32));
}

TEST(TquantMx, TheZzFormStoresTheExponentsInBlocksOf16RowsBy2Groups)
{
    using Src = Tile<TileType::Vec, float, 32, 128>;
    using Dst = Tile<TileType::Vec, int8_t, 32, 128>;
    using Exp = Tile<TileType::Vec, uint8_t, 1, 128>;  // flat: 32 rows x 4 groups
    Src src;
    Dst dst;
    Exp exp, exp_zz;
    Tile<TileType::Vec, float, 1, 128> max, scaling;
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 128; ++c) src.SetValue(uint32_t(r * 128 + c), std::ldexp(1.0f, (r * 4 + c / 32) % 60 - 30));
    TQUANT<QuantType::MXFP8, VecStoreMode::NZ>(dst, src, &exp, &max, &scaling, &exp_zz);
    for (int r = 0; r < 32; ++r)
        for (int g = 0; g < 4; ++g) {
            const int zz = ((r / 16) * 2 + g / 2) * 32 + (r % 16) * 2 + g % 2;
            ASSERT_EQ(exp_zz.GetValue(uint32_t(zz)), exp.GetValue(uint32_t(r * 4 + g))) << r << "," << g;
            ASSERT_EQ(int(exp.GetValue(uint32_t(r * 4 + g))), (r * 4 + g) % 60 - 30 + 127 - 8);  // 2^k: k + bias - emax
        }
}

// Interleaved DN exponents are the plain DN exponents of each pair of row groups side by side; data,
// max and scaling are those of the plain call.
template <typename T, MxQuantAlg Alg, typename Exp>
void expect_interleaved_pairs(uint32_t seed)
{
    constexpr bool fp4 = Alg == MxQuantAlg::OcpMxFp4E2M1 || Alg == MxQuantAlg::NvMxFp4E2M1;
    using Out = std::conditional_t<fp4, float4_e2m1x2_t, int8_t>;
    constexpr int kRows = 128, kCols = 64, kPairRows = kRows / 64;
    using Src = Tile<TileType::Vec, T, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, Out, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Plain = Tile<TileType::Vec, uint8_t, kRows / 32, kCols>;
    using Group = Tile<TileType::Vec, float, kRows / 32, kCols>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 4; ++trial) {
        const int rows = 64 * (1 + int(rng() % 2)), cols = 1 + int(rng() % kCols);
        Src src(rows, cols);
        Dst plain_dst(rows, cols), dst(rows, cols);
        Plain plain_exp;
        Exp exp;
        Group plain_max, plain_scaling, max, scaling;
        for (int i = 0; i < kRows * kCols; ++i) src.SetValue(uint32_t(i), T(random_value(rng, int(i % 23) - 11)));
        std::fill_n(exp.data(), kPairRows * 2 * kCols, kUntouched);
        TQUANT<0, Alg>(plain_dst, src, &plain_exp, &plain_max, &plain_scaling);
        TQUANT<0, Alg, true>(dst, src, &exp, &max, &scaling);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                ASSERT_EQ(std::bit_cast<uint8_t>(dst.GetValue(uint32_t(r * kCols + c))),
                          std::bit_cast<uint8_t>(plain_dst.GetValue(uint32_t(r * kCols + c))))
                    << r << ", " << c;
        for (int i = 0; i < rows / 32; ++i)
            for (int j = 0; j < cols; ++j) {
                const uint32_t at = uint32_t(i * kCols + j);
                ASSERT_EQ(exp.GetValue(uint32_t((i / 2) * 2 * kCols + 2 * j + i % 2)), plain_exp.GetValue(at)) << i << "," << j;
                ASSERT_EQ(std::bit_cast<uint32_t>(max.GetValue(at)), std::bit_cast<uint32_t>(plain_max.GetValue(at)));
                ASSERT_EQ(std::bit_cast<uint32_t>(scaling.GetValue(at)), std::bit_cast<uint32_t>(plain_scaling.GetValue(at)));
            }
        for (int p = 0; p < kPairRows; ++p)
            for (int k = 0; k < 2 * kCols; ++k)
                if (p >= rows / 64 || k >= 2 * cols) {
                    ASSERT_EQ(exp.GetValue(uint32_t(p * 2 * kCols + k)), kUntouched) << p << "," << k;
                }
    }
}

TEST(TquantMx, InterleavedDnExponentsPairTheRowGroupsSideBySide)
{
    using Exp2d = Tile<TileType::Vec, uint8_t, 2, 128>;  // [rows / 64, 2 * cols]
    using ExpFlat = Tile<TileType::Vec, uint8_t, 1, 256>;
    expect_interleaved_pairs<float, MxQuantAlg::OcpMxFp8E4M3, Exp2d>(70);
    expect_interleaved_pairs<half, MxQuantAlg::NvMxFp8E4M3, ExpFlat>(71);
    expect_interleaved_pairs<bfloat16_t, MxQuantAlg::OcpMxFp4E2M1, Exp2d>(72);
    expect_interleaved_pairs<half, MxQuantAlg::NvMxFp4E2M1, ExpFlat>(73);
}

TEST(TquantMx, InterleavedExponentsNeedValidRowsInPairsOfGroups)
{
    Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> src(32, 64);
    Tile<TileType::Vec, int8_t, 64, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> dst(32, 64);
    Tile<TileType::Vec, uint8_t, 1, 128> exp;
    Tile<TileType::Vec, float, 2, 64> max, scaling;
    for (int i = 0; i < 64 * 64; ++i) src.SetValue(uint32_t(i), float(i % 19) - 9.0f);
    const Diagnostic d = diagnostic_of([&] { TQUANT<0, MxQuantAlg::OcpMxFp8E4M3, true>(dst, src, &exp, &max, &scaling); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "src");
}

TEST(TquantMx, DstAliasingAFloatSourceQuantisesInPlace)
{
    Tile<TileType::Vec, float, 8, 64> src;
    Tile<TileType::Vec, int8_t, 8, 64> in_place, apart;
    Tile<TileType::Vec, uint8_t, 8, 32> exp;
    Tile<TileType::Vec, float, 1, 16> max, scaling;
    TASSIGN(src, 0x0);
    TASSIGN(in_place, 0x0);
    TASSIGN(apart, 0x4000);
    TASSIGN(exp, 0x8000);
    TASSIGN(max, 0x8400);
    TASSIGN(scaling, 0x8800);
    for (int i = 0; i < 8 * 64; ++i) src.SetValue(uint32_t(i), float(i % 37) * 1.25f - 20.0f);
    TQUANT<1, MxQuantAlg::OcpMxFp8E4M3>(apart, src, &exp, &max, &scaling);
    TQUANT<1, MxQuantAlg::OcpMxFp8E4M3>(in_place, src, &exp, &max, &scaling);
    EXPECT_EQ(0, std::memcmp(in_place.data(), apart.data(), 8 * 64));
}

TEST(TquantMx, CheckedModeReportsASourceNothingWrote)
{
    ScopedChecked checked;
    Tile<TileType::Vec, float, 8, 64> src;
    Tile<TileType::Vec, int8_t, 8, 64> dst;
    Tile<TileType::Vec, uint8_t, 8, 32> exp;
    Tile<TileType::Vec, float, 1, 16> max, scaling;
    const Diagnostic d = diagnostic_of([&] { TQUANT<1, MxQuantAlg::OcpMxFp8E4M3>(dst, src, &exp, &max, &scaling); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
}

TEST(TquantMx, GroupTilesTooSmallForTheGroupsAreRunValidShape)
{
    Tile<TileType::Vec, float, 8, 64> src;
    Tile<TileType::Vec, int8_t, 8, 64> dst;
    Tile<TileType::Vec, uint8_t, 4, 32> exp;  // 8 rows of groups needed
    Tile<TileType::Vec, float, 1, 16> max, scaling;
    for (int i = 0; i < 8 * 64; ++i) src.SetValue(uint32_t(i), 1.0f);
    const Diagnostic d = diagnostic_of([&] { TQUANT<1, MxQuantAlg::OcpMxFp8E4M3>(dst, src, &exp, &max, &scaling); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "exp");
}

}  // namespace
