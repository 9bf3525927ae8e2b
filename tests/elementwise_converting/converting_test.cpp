// TADDRELUCONV, TSUBRELUCONV, TADDDEQRELU: results of another element type than the sources, against a
// reference loop (the sum in the source's arithmetic, one rounding into the destination type).
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

constexpr int kRows = 8, kCols = 64;

// The value nearest to v in the range of the integer type T (ties to even), as saturation gives.
template <typename T>
T saturate(double v)
{
    const double r = std::nearbyint(v);
    return T(std::clamp(r, double(std::numeric_limits<T>::min()), double(std::numeric_limits<T>::max())));
}

template <typename Dst, typename Src, bool Subtract>
void expect_relu_conversion(uint32_t seed)
{
    using D = Tile<TileType::Vec, Dst, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using S = Tile<TileType::Vec, Src, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-300.0f, 300.0f);
    const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
    D dst(rows, cols);
    S a(rows, cols), b(rows, cols);
    for (int i = 0; i < kRows * kCols; ++i) {
        a.SetValue(i, Src(dist(rng)));
        b.SetValue(i, Src(dist(rng)));
        dst.SetValue(i, Dst(7));
    }
    if constexpr (Subtract) TSUBRELUCONV(dst, a, b);
    else TADDRELUCONV(dst, a, b);
    for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kCols; ++c) {
            const int i = r * kCols + c;
            if (r >= rows || c >= cols) {
                ASSERT_EQ(double(dst.GetValue(i)), 7.0) << "outside the valid region";
                continue;
            }
            const double x = double(a.GetValue(i)), y = double(b.GetValue(i));
            double v = Subtract ? x - y : x + y;
            if constexpr (std::is_same_v<Src, float>) v = Subtract ? double(float(x) - float(y)) : double(float(x) + float(y));
            v = v > 0 ? v : 0.0;
            if constexpr (std::is_integral_v<Dst>) ASSERT_EQ(dst.GetValue(i), saturate<Dst>(v)) << x << ", " << y;
            else ASSERT_EQ(float(dst.GetValue(i)), float(half(float(v)))) << x << ", " << y;
        }
}

TEST(ConvertingElementwise, TaddreluconvF32ToF16) { expect_relu_conversion<half, float, false>(1); }
TEST(ConvertingElementwise, TaddreluconvF16ToI8Saturates) { expect_relu_conversion<int8_t, half, false>(2); }
TEST(ConvertingElementwise, TsubreluconvI16ToI8Saturates) { expect_relu_conversion<int8_t, int16_t, true>(3); }
TEST(ConvertingElementwise, TsubreluconvF32ToF16) { expect_relu_conversion<half, float, true>(4); }

TEST(ConvertingElementwise, TadddeqreluScalesTheInt32SumIntoHalf)
{
    using D = Tile<TileType::Vec, half, kRows, kCols>;
    using S = Tile<TileType::Vec, int32_t, kRows, kCols>;
    D dst, tmp;
    S a, b;
    std::mt19937 rng(9);
    for (int i = 0; i < kRows * kCols; ++i) {
        a.SetValue(i, int32_t(rng()));
        b.SetValue(i, int32_t(rng() % 2001) - 1000);
    }
    a.SetValue(0, std::numeric_limits<int32_t>::max());  // the sum wraps
    b.SetValue(0, 1);
    const float scale = 0.0078125f;
    TADDDEQRELU(dst, a, b, scale, tmp);
    for (int i = 0; i < kRows * kCols; ++i) {
        const auto sum = int32_t(uint32_t(a.GetValue(i)) + uint32_t(b.GetValue(i)));
        const float want = float(half(scale * float(sum)));
        ASSERT_EQ(float(dst.GetValue(i)), want > 0 ? want : 0.0f) << i;
    }
}

TEST(ConvertingElementwise, AnUndocumentedPairIsLegalDtype)
{
    Tile<TileType::Vec, float, kRows, kCols> dst;
    Tile<TileType::Vec, half, kRows, kCols> a, b;
    for (int i = 0; i < kRows * kCols; ++i) {
        a.SetValue(i, half(1.0f));
        b.SetValue(i, half(2.0f));
    }
    const Diagnostic d = diagnostic_of([&] { engine::taddreluconv(dst.desc(), a.desc(), b.desc()); });
    EXPECT_EQ(d.code, "LEGAL_TADDRELUCONV_DTYPE");
}

}  // namespace
