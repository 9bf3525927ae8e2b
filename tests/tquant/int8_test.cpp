// TQUANT's int8 forms through the C++ intrinsics (symmetric and asymmetric, with and without tmp, on
// every target that has the form) against the reference, with rounding ties, saturation and NaN.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "support/test_support.hpp"
#include "tquant/reference.hpp"

using namespace pto;
using namespace pto::test;

namespace {

constexpr int kRows = 16, kCols = 64;

float random_source(std::mt19937& rng)
{
    switch (rng() % 40) {
        case 0: return std::numeric_limits<float>::quiet_NaN();
        case 1: return std::numeric_limits<float>::infinity();
        case 2: return -std::numeric_limits<float>::infinity();
        case 3: return -0.0f;
        case 4: return 2.5f;   // a tie, to even
        case 5: return -3.5f;
        case 6: return 1e30f;  // saturates
        default: return std::uniform_real_distribution<float>(-300.0f, 300.0f)(rng);
    }
}

template <QuantType Type, bool WithTmp>
void expect_int8(uint32_t seed)
{
    constexpr bool asym = Type == QuantType::INT8_ASYM;
    using Out = std::conditional_t<asym, uint8_t, int8_t>;
    using Src = Tile<TileType::Vec, float, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, Out, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Para = Tile<TileType::Vec, float, kRows, 1, BLayout::ColMajor>;
    using Tmp = Tile<TileType::Vec, float, kRows, kCols>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 10; ++trial) {
        const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
        Src src(rows, cols);
        Dst dst(rows, cols);
        Para scale, offset;
        Tmp tmp;
        for (int i = 0; i < kRows * kCols; ++i) {
            src.SetValue(uint32_t(i), random_source(rng));
            dst.SetValue(uint32_t(i), Out(77));
        }
        for (int r = 0; r < kRows; ++r) {
            scale.SetValue(uint32_t(r), r == 0 ? 1.0f : std::uniform_real_distribution<float>(0.01f, 2.0f)(rng));
            offset.SetValue(uint32_t(r), float(int(rng() % 256)));
        }
        if constexpr (WithTmp) TQUANT<Type>(dst, src, scale, tmp, asym ? &offset : nullptr);
        else if constexpr (asym) TQUANT<Type>(dst, src, scale, &offset);
        else TQUANT<Type>(dst, src, scale);
        for (int r = 0; r < kRows; ++r)
            for (int c = 0; c < kCols; ++c) {
                const int i = r * kCols + c;
                if (r < rows && c < cols)
                    ASSERT_EQ(int(dst.GetValue(uint32_t(i))),
                              tquant::int8_of(src.GetValue(uint32_t(i)), scale.GetValue(uint32_t(r)),
                                              offset.GetValue(uint32_t(r)), asym))
                        << r << "," << c << " x " << src.GetValue(uint32_t(i));
                else
                    ASSERT_EQ(int(dst.GetValue(uint32_t(i))), 77) << "outside the valid region at " << r << "," << c;
            }
    }
}

TEST(TquantInt8, SymmetricMatchesTheReference) { expect_int8<QuantType::INT8_SYM, false>(1); }
TEST(TquantInt8, AsymmetricMatchesTheReference) { expect_int8<QuantType::INT8_ASYM, false>(2); }
TEST(TquantInt8, SymmetricWithTmpMatchesTheReference) { expect_int8<QuantType::INT8_SYM, true>(3); }
TEST(TquantInt8, AsymmetricWithTmpMatchesTheReference) { expect_int8<QuantType::INT8_ASYM, true>(4); }

TEST(TquantInt8, RoundsTiesToEvenAndSaturates)
{
    Tile<TileType::Vec, float, 1, 8> src, scale;
    Tile<TileType::Vec, int8_t, 1, 32, BLayout::RowMajor, 1, 8> dst;
    const float in[8] = {0.5f, 1.5f, -2.5f, 127.5f, -128.5f, 1000.0f, std::numeric_limits<float>::quiet_NaN(), -0.4f};
    const int expected[8] = {0, 2, -2, 127, -128, 127, 0, 0};
    for (int c = 0; c < 8; ++c) src.SetValue(uint32_t(c), in[c]);
    scale.SetValue(0, 1.0f);
    TQUANT<QuantType::INT8_SYM>(dst, src, scale);
    for (int c = 0; c < 8; ++c) EXPECT_EQ(int(dst.GetValue(uint32_t(c))), expected[c]) << in[c];
}

TEST(TquantInt8, AScaleWithTooFewRowsIsRunValidShape)
{
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, DYNAMIC, 1> scale(8);
    for (int i = 0; i < 16 * 64; ++i) src.SetValue(uint32_t(i), 1.0f);
    const Diagnostic d = diagnostic_of([&] { TQUANT<QuantType::INT8_SYM>(dst, src, scale); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "scale");
}

TEST(TquantInt8, TheEngineChecksTheFormAndTmpOfTheRunTimeTarget)
{
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> scale;
    Tile<TileType::Vec, float, 16, 8> small_tmp;
    for (int i = 0; i < 16 * 64; ++i) src.SetValue(uint32_t(i), 1.0f);
    for (int r = 0; r < 16; ++r) scale.SetValue(uint32_t(r), 1.0f);
    ScopedTarget a2a3(profile::Target::A2A3);
    EXPECT_EQ(diagnostic_of([&] { engine::tquant_int8(dst.desc(), src.desc(), scale.desc(), nullptr, QuantType::INT8_SYM); }).code,
              "LEGAL_TQUANT_FORM");
    const engine::TileDesc tmp = small_tmp.desc();
    EXPECT_EQ(diagnostic_of([&] {
                  engine::tquant_int8(dst.desc(), src.desc(), scale.desc(), nullptr, QuantType::INT8_SYM, &tmp);
              }).code,
              "LEGAL_TQUANT_TMP");
}

}  // namespace
