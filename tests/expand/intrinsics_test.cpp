// The broadcast instructions through the C++ intrinsics: every public overload (with a tmp tile, with
// events, DIV's DivAlgorithm argument), dynamic valid shapes, the pages' example, and TROWEXPAND for every
// element type it takes, against plain reference loops.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "support/test_support.hpp"

using namespace pto;

namespace {

constexpr int kRows = 16, kCols = 64;
using Full = Tile<TileType::Vec, float, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using Column = Tile<TileType::Vec, float, kRows, 1, BLayout::ColMajor, DYNAMIC, 1>;
using Row = Tile<TileType::Vec, float, 1, kCols, BLayout::RowMajor, 1, DYNAMIC>;

float random_float(std::mt19937& rng) { return std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng); }

}  // namespace

TEST(BroadcastIntrinsics, EveryRowOverloadComputesTheRowBroadcast)
{
    std::mt19937 rng(81);
    for (int trial = 0; trial < 8; ++trial) {
        const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
        Full src(rows, cols), dst(rows, cols);
        Column scale(rows);
        Tile<TileType::Vec, float, 8, 64> tmp;
        for (int i = 0; i < rows; ++i) {
            scale.SetValue(i, random_float(rng));
            for (int j = 0; j < cols; ++j) src.SetValue(i * kCols + j, random_float(rng));
        }
        Event<Op::TLOAD, Op::TROWEXPANDSUB> ready;
        const auto check = [&](auto op, const char* name) {
            for (int i = 0; i < rows; ++i) {
                for (int j = 0; j < cols; ++j) {
                    const float expected = op(src.GetValue(i * kCols + j), scale.GetValue(i));
                    ASSERT_EQ(dst.GetValue(i * kCols + j), expected) << name << " (" << i << ", " << j << ")";
                }
            }
        };
        TROWEXPANDSUB(dst, src, scale);
        check([](float a, float s) { return a - s; }, "TROWEXPANDSUB");
        TROWEXPANDSUB(dst, src, scale, tmp);
        check([](float a, float s) { return a - s; }, "TROWEXPANDSUB with tmp");
        TROWEXPANDMUL(dst, src, scale, ready);
        check([](float a, float s) { return a * s; }, "TROWEXPANDMUL with an event");
        TROWEXPANDDIV<DivAlgorithm::HIGH_PRECISION>(dst, src, scale, tmp, ready);
        check([](float a, float s) { return a / s; }, "TROWEXPANDDIV<HIGH_PRECISION> with tmp and an event");
        TROWEXPANDADD(dst, scale, src);  // the broadcast operand first
        check([](float a, float s) { return s + a; }, "TROWEXPANDADD, broadcast first");
        TROWEXPANDMAX(dst, src, scale);
        check([](float a, float s) { return std::fmax(a, s); }, "TROWEXPANDMAX");
        TROWEXPANDMIN(dst, src, scale);
        check([](float a, float s) { return std::fmin(a, s); }, "TROWEXPANDMIN");
    }
}

TEST(BroadcastIntrinsics, ExpDifIsTheExponentialOfTheRoundedDifference)
{
    std::mt19937 rng(82);
    Full src(kRows, 40), dst(kRows, 40);
    Column maxima(kRows);
    Row column_maxima(40);
    for (int i = 0; i < kRows; ++i) {
        maxima.SetValue(i, random_float(rng));
        for (int j = 0; j < 40; ++j) src.SetValue(i * kCols + j, random_float(rng));
    }
    for (int j = 0; j < 40; ++j) column_maxima.SetValue(j, random_float(rng));
    const auto near = [](float got, double exact) { return std::fabs(got - exact) <= 2e-7 * std::fabs(exact); };
    TROWEXPANDEXPDIF(dst, src, maxima);
    for (int i = 0; i < kRows; ++i) {
        for (int j = 0; j < 40; ++j) {
            const double exact = std::exp(double(src.GetValue(i * kCols + j) - maxima.GetValue(i)));
            ASSERT_TRUE(near(dst.GetValue(i * kCols + j), exact)) << i << ", " << j;
        }
    }
    TCOLEXPANDEXPDIF(dst, src, column_maxima);
    for (int i = 0; i < kRows; ++i) {
        for (int j = 0; j < 40; ++j) {
            const double exact = std::exp(double(src.GetValue(i * kCols + j) - column_maxima.GetValue(j)));
            ASSERT_TRUE(near(dst.GetValue(i * kCols + j), exact)) << i << ", " << j;
        }
    }
}

TEST(BroadcastIntrinsics, ColumnBroadcastsOfIntegers)
{
    using T = int16_t;
    using FullI = Tile<TileType::Vec, T, 8, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using RowI = Tile<TileType::Vec, T, 1, 32, BLayout::RowMajor, 1, DYNAMIC>;
    FullI src(7, 30), dst(7, 30);
    RowI row(30);
    for (int j = 0; j < 30; ++j) row.SetValue(j, T(j % 5 - 2));
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 30; ++j) src.SetValue(i * 32 + j, T(1000 * i - 37 * j));
    test::ScopedChecked fast(false);  // x / 0 saturates in fast mode
    TCOLEXPANDDIV(dst, src, row);
    for (int i = 0; i < 7; ++i) {
        for (int j = 0; j < 30; ++j) {
            const int a = src.GetValue(i * 32 + j), b = row.GetValue(j);
            const int expected = b != 0 ? a / b : a > 0 ? 32767 : a < 0 ? -32768 : 0;
            ASSERT_EQ(dst.GetValue(i * 32 + j), expected) << i << ", " << j;
        }
    }
    TCOLEXPANDSUB(dst, src, row);
    EXPECT_EQ(dst.GetValue(3 * 32 + 4), T(src.GetValue(3 * 32 + 4) - row.GetValue(4)));
    TCOLEXPANDADD(dst, src, row);
    TCOLEXPANDMUL(dst, src, row);
    TCOLEXPANDMAX(dst, src, row);
    EXPECT_EQ(dst.GetValue(5 * 32 + 9), std::max(src.GetValue(5 * 32 + 9), row.GetValue(9)));
    TCOLEXPANDMIN(dst, src, row);
    EXPECT_EQ(dst.GetValue(5 * 32 + 9), std::min(src.GetValue(5 * 32 + 9), row.GetValue(9)));
}

// The example of the TROWEXPANDSUB page: a 16x16 half tile and a 16x1 column-major vector. The page
// declares the vector's valid shape 1 x DYNAMIC and constructs it with 16, 16 valid columns in a tile of
// one column, which is RUN_VALID_SHAPE; with the valid shape DYNAMIC x 1 it runs.
TEST(BroadcastIntrinsics, ThePagesExampleRuns)
{
    using TileT = Tile<TileType::Vec, half, 16, 16>;
    using PagesRowVecT = Tile<TileType::Vec, half, 16, 1, BLayout::ColMajor, 1, DYNAMIC, SLayout::NoneBox>;
    EXPECT_EQ(test::diagnostic_of([] { PagesRowVecT vector(16); }).code, "RUN_VALID_SHAPE");
    using RowVecT = Tile<TileType::Vec, half, 16, 1, BLayout::ColMajor, DYNAMIC, 1, SLayout::NoneBox>;
    TileT src0, dst;
    RowVecT src1(16);
    TASSIGN(src0, 0x1000);
    TASSIGN(dst, 0x2000);
    TASSIGN(src1, 0x3000);
    for (int i = 0; i < 256; ++i) src0.SetValue(i, half(float(i % 16)));
    for (int i = 0; i < 16; ++i) src1.SetValue(i, half(float(i)));
    TROWEXPANDSUB(dst, src0, src1);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) ASSERT_EQ(float(dst.GetValue(i * 16 + j)), float(j - i));
}

template <typename T>
class RowExpand : public ::testing::Test {};
using RowExpandTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
TYPED_TEST_SUITE(RowExpand, RowExpandTypes);

TYPED_TEST(RowExpand, BroadcastsEachRowsFirstElement)
{
    using T = TypeParam;
    constexpr int kC = 64;
    using TileT = Tile<TileType::Vec, T, 8, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(83);
    for (int trial = 0; trial < 4; ++trial) {
        const int rows = 1 + int(rng() % 8), cols = 1 + int(rng() % kC);
        TileT src(rows, 1 + int(rng() % kC)), dst(rows, cols);
        for (int i = 0; i < 8 * kC; ++i) {
            src.SetValue(i, T(float(int(rng() % 200) - 100)));
            dst.SetValue(i, T(7.0f));
        }
        TROWEXPAND(dst, src);
        for (int i = 0; i < 8; ++i) {
            for (int j = 0; j < kC; ++j) {
                const bool valid = i < rows && j < cols;
                const T expected = valid ? src.GetValue(i * kC) : T(7.0f);
                ASSERT_EQ(float(dst.GetValue(i * kC + j)), float(expected)) << i << ", " << j;
            }
        }
    }
    TileT short_src(2, 4), dst(5, 4);
    EXPECT_EQ(test::diagnostic_of([&] { TROWEXPAND(dst, short_src); }).code, "RUN_VALID_SHAPE");
}
