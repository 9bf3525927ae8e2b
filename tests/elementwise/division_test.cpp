// TDIV's decisions: integer quotients truncate and saturate, a zero divisor is RUN_DIV_BY_ZERO in
// checked mode and a defined value in fast mode, float division is IEEE in both, and both precision
// algorithms give the correctly rounded quotient.
#include "support.hpp"

using namespace pto;
using namespace ewtest;

namespace {

template <typename T>
class IntegerDivision : public ::testing::Test {};

using DivisibleIntegers = ::testing::Types<int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
TYPED_TEST_SUITE(IntegerDivision, DivisibleIntegers);

// A 1 x n row-major tile over `values`.
template <typename S>
TileDesc row_tile(std::vector<S>& values, DType t)
{
    TileDesc d;
    d.data = reinterpret_cast<std::byte*>(values.data());
    d.dtype = t;
    d.rows = 1;
    d.cols = static_cast<int32_t>(values.size());
    d.valid_rows = 1;
    d.valid_cols = d.cols;
    return d;
}

}  // namespace

TYPED_TEST(IntegerDivision, TruncatesTowardZero)
{
    using T = TypeParam;
    std::mt19937 rng(21);
    std::vector<T> a(4096), b(4096), q(4096);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = random_value<T>(rng);
        // Small divisors too, so that quotients are not all 0 or +-1.
        b[i] = i % 2 ? random_value<T>(rng, true) : static_cast<T>(1 + rng() % 1000);
        if (std::is_signed_v<T> && i % 4 == 1) b[i] = static_cast<T>(-static_cast<int>(1 + rng() % 1000));
    }
    const DType t = Elem<T>::dtype;
    engine::tdiv(row_tile(q, t), row_tile(a, t), row_tile(b, t));
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(q[i], reference<T>(Arith::Div, a[i], b[i])) << +a[i] << " / " << +b[i];
    }
    if constexpr (std::is_signed_v<T>) {
        std::vector<T> x{7, -7, 7, -7, 1, -1}, y{2, 2, -2, -2, 3, 3}, z(6);
        engine::tdiv(row_tile(z, t), row_tile(x, t), row_tile(y, t));
        EXPECT_EQ(z, (std::vector<T>{3, -3, -3, 3, 0, 0}));
    }
}

TYPED_TEST(IntegerDivision, ZeroDivisorInFastModeGivesTheSaturatedQuotient)
{
    using T = TypeParam;
    ScopedChecked fast(false);
    using L = std::numeric_limits<T>;
    std::vector<T> a{5, L::max(), 0, 1}, b{0, 0, 0, 0}, q(4, T{42});
    std::vector<T> expected{L::max(), L::max(), 0, L::max()};
    if constexpr (std::is_signed_v<T>) {
        a.insert(a.end(), {-5, L::min()});
        b.insert(b.end(), {0, 0});
        expected.insert(expected.end(), {L::min(), L::min()});
        q.resize(a.size(), T{42});
    }
    const DType t = Elem<T>::dtype;
    engine::tdiv(row_tile(q, t), row_tile(a, t), row_tile(b, t));
    EXPECT_EQ(q, expected);
}

TYPED_TEST(IntegerDivision, MinimumByMinusOneSaturatesInEitherMode)
{
    using T = TypeParam;
    if constexpr (std::is_signed_v<T>) {
        using L = std::numeric_limits<T>;
        for (bool checked : {false, true}) {
            ScopedChecked mode(checked);
            std::vector<T> a{L::min(), L::min(), L::max()}, b{-1, 1, -1}, q(3);
            const DType t = Elem<T>::dtype;
            engine::tdiv(row_tile(q, t), row_tile(a, t), row_tile(b, t));
            EXPECT_EQ(q, (std::vector<T>{L::max(), L::min(), static_cast<T>(-L::max())}));
        }
    }
}

TYPED_TEST(IntegerDivision, ZeroDivisorInCheckedModeIsReportedBeforeAnyWrite)
{
    using T = TypeParam;
    ScopedChecked checked(true);
    using TileT = Tile<TileType::Vec, T, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    TileT a(6, 40), b(6, 40), c(6, 40);
    std::vector<T> x(TileT::Numel), y(TileT::Numel), old(TileT::Numel);
    std::mt19937 rng(22);
    for (int i = 0; i < TileT::Numel; ++i) {
        x[i] = random_value<T>(rng);
        y[i] = random_value<T>(rng, true);
        old[i] = random_value<T>(rng);
    }
    y[7 * 64] = 0;      // outside the valid region: no error
    y[2 * 64 + 5] = 0;  // element (2, 5)
    y[4 * 64 + 1] = 0;  // a later one
    fill_tile(a, x);
    fill_tile(b, y);
    fill_tile(c, old);
    const Diagnostic d = diagnostic_of([&] { TDIV(c, a, b); });
    EXPECT_EQ(d.code, "RUN_DIV_BY_ZERO");
    EXPECT_EQ(d.instruction, "TDIV");
    EXPECT_EQ(d.operand, "src1");
    EXPECT_NE(d.message.find("(2, 5)"), std::string::npos) << d.message;
    EXPECT_EQ((read_tile<TileT, T>(c)), old);

    y[2 * 64 + 5] = 3;
    y[4 * 64 + 1] = 3;
    fill_tile(b, y);
    EXPECT_EQ(diagnostic_of([&] { TDIV(c, a, b); }).code, "no error");
}

TEST(FloatDivision, ZeroDivisorGivesIeeeInfinityOrNanEvenInCheckedMode)
{
    ScopedChecked checked(true);
    using TileF = Tile<TileType::Vec, float, 1, 8>;
    TileF a, b, c;
    const float inf = std::numeric_limits<float>::infinity();
    fill_tile(a, std::vector<float>{1.0f, -1.0f, 0.0f, -0.0f, inf, 2.0f, -3.0f, 0.0f});
    fill_tile(b, std::vector<float>{0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.0f, -0.0f, inf});
    EXPECT_EQ(diagnostic_of([&] { TDIV(c, a, b); }).code, "no error");
    const auto q = read_tile<TileF, float>(c);
    EXPECT_EQ(q[0], inf);
    EXPECT_EQ(q[1], -inf);
    EXPECT_TRUE(std::isnan(q[2]) && std::isnan(q[3]));
    EXPECT_EQ(q[4], inf);
    EXPECT_EQ(q[5], -inf);
    EXPECT_EQ(q[6], inf);
    EXPECT_EQ(q[7], 0.0f);

    using TileH = Tile<TileType::Vec, half, 1, 16, BLayout::RowMajor, 1, 4>;
    TileH ha, hb, hc;
    fill_tile(ha, std::vector<uint16_t>{0x3c00, 0xbc00, 0x0000, 0x7c00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    fill_tile(hb, std::vector<uint16_t>(16, 0x0000));
    TDIV(hc, ha, hb);
    const auto h = read_tile<TileH, uint16_t>(hc);
    EXPECT_EQ(h[0], 0x7c00);
    EXPECT_EQ(h[1], 0xfc00);
    EXPECT_TRUE(is_nan16(kHalf, h[2]));
    EXPECT_EQ(h[3], 0x7c00);
}

TEST(FloatDivision, BothAlgorithmsGiveTheCorrectlyRoundedQuotient)
{
    std::mt19937 rng(23);
    for (DivAlgorithm algorithm : {DivAlgorithm::DEFAULT, DivAlgorithm::HIGH_PRECISION}) {
        std::vector<float> a(1000), b(1000), q(1000);
        std::vector<uint16_t> ha(1000), hb(1000), hq(1000);
        for (int i = 0; i < 1000; ++i) {
            a[i] = random_value<float>(rng);
            b[i] = random_value<float>(rng);
            ha[i] = random_value<half>(rng);
            hb[i] = random_value<half>(rng);
        }
        engine::tdiv(row_tile(q, DType::F32), row_tile(a, DType::F32), row_tile(b, DType::F32), algorithm);
        engine::tdiv(row_tile(hq, DType::F16), row_tile(ha, DType::F16), row_tile(hb, DType::F16), algorithm);
        for (int i = 0; i < 1000; ++i) {
            ASSERT_EQ(q[i], reference<float>(Arith::Div, a[i], b[i])) << a[i] << " / " << b[i];
            ASSERT_TRUE(same_result<half>(reference<half>(Arith::Div, ha[i], hb[i]), hq[i])) << ha[i] << " / " << hb[i];
        }
    }
}
