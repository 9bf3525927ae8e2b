// TMATMUL_MX and TGEMV_MX through the intrinsics against two references over random shapes, partial
// valid regions, random E8M0 scales and every type pair (fp8 e4m3/e5m2, packed fp4 e2m1/e1m2): the decided
// order (each value scaled and rounded to f32, then one fused multiply-add per k, ascending), which must
// match bit for bit, and a double-precision sum, which bounds the error; every form and overload; the
// operand rules; TGET_SCALE_ADDR.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "support/rule_codes.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

// The fp4 encodings written out: sign, then the magnitude by its 3-bit code.
constexpr float kE2M1[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
constexpr float kE1M2[8] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f};

template <typename T>
constexpr bool is_fp4 = std::is_same_v<T, float4_e2m1x2_t> || std::is_same_v<T, float4_e1m2x2_t>;

template <typename T>
float nibble_value(uint8_t nibble)
{
    const float magnitude = std::is_same_v<T, float4_e2m1x2_t> ? kE2M1[nibble & 7] : kE1M2[nibble & 7];
    return nibble & 8 ? -magnitude : magnitude;
}

// Value (r, c) of an MX operand tile, decoded independently of the engine for fp4 (GetValue gives a
// 4-bit element in the low nibble) and through the type's own conversion for fp8.
template <typename TileT>
float value_of(const TileT& t, int r, int c)
{
    using E = typename TileT::DType;
    if constexpr (is_fp4<E>) {
        return nibble_value<E>(uint8_t(t.GetValue(uint32_t(GetTileOffset<TileT>(r, c))).bits & 15));
    } else {
        return float(t.GetValue(uint32_t(GetTileOffset<TileT>(r, c))));
    }
}

template <typename TileT>
void fill_operand(TileT& t, std::mt19937& rng)
{
    using E = typename TileT::DType;
    for (int r = 0; r < TileT::Rows; ++r)
        for (int c = 0; c < TileT::Cols; ++c) {
            // fp8: every finite encoding of moderate magnitude (no NaN: e4m3's 0x7F/0xFF, e5m2's exponent 31).
            uint8_t bits = uint8_t(rng());
            if constexpr (std::is_same_v<E, float8_e4m3_t>) bits = uint8_t(bits & 0xF7);
            if constexpr (std::is_same_v<E, float8_e5m2_t>) bits = uint8_t(bits & 0xEF);
            t.SetValue(uint32_t(GetTileOffset<TileT>(r, c)), E::from_bits(bits));
        }
}

template <typename ScaleT>
void fill_scales(ScaleT& s, std::mt19937& rng)
{
    for (int r = 0; r < ScaleT::Rows; ++r)
        for (int c = 0; c < ScaleT::Cols; ++c)
            s.SetValue(uint32_t(GetTileOffset<ScaleT>(r, c)), float8_e8m0_t::from_bits(uint8_t(120 + rng() % 15)));
}

float scale_of(uint8_t e) { return std::ldexp(1.0f, int(e) - 127); }

// c (m x n valid) against both references; init(i, j) is the initial value.
template <typename C, typename A, typename SA, typename B, typename SB, typename Init>
void expect_mx(const C& c, const A& a, const SA& sa, const B& b, const SB& sb, int m, int k, int n, Init&& init)
{
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float decided = init(i, j);
            double exact = decided, magnitude = std::abs(decided);
            for (int kk = 0; kk < k; ++kk) {
                const float x = value_of(a, i, kk) * scale_of(sa.GetValue(uint32_t(GetTileOffset<SA>(i, kk / 32))).bits);
                const float y = value_of(b, kk, j) * scale_of(sb.GetValue(uint32_t(GetTileOffset<SB>(kk / 32, j))).bits);
                decided = std::fma(x, y, decided);
                exact += double(x) * double(y);
                magnitude += std::abs(double(x) * double(y));
            }
            const float got = c.GetValue(uint32_t(GetTileOffset<C>(i, j)));
            ASSERT_EQ(got, decided) << "(" << i << ", " << j << ")";
            ASSERT_LE(std::abs(double(got) - exact), (k + 1) * 0x1p-24 * magnitude + 1e-30) << "(" << i << ", " << j << ")";
        }
}

// Every form of one type pair at one shape.
template <typename AT, typename BT, int M, int K, int N>
void check_pair(uint32_t seed)
{
    using A = TileLeft<AT, M, K>;
    using B = TileRight<BT, K, N>;
    using SA = TileLeftScale<float8_e8m0_t, M, K / 32>;
    using SB = TileRightScale<float8_e8m0_t, K / 32, N>;
    using C = TileAcc<float, M, N>;
    std::mt19937 rng(seed);
    A a;
    B b;
    SA sa;
    SB sb;
    fill_operand(a, rng);
    fill_operand(b, rng);
    fill_scales(sa, rng);
    fill_scales(sb, rng);
    C c, acc;
    TMATMUL_MX(c, a, sa, b, sb);
    expect_mx(c, a, sa, b, sb, M, K, N, [](int, int) { return 0.0f; });

    // Accumulating: into another tile, then in place with an AccPhase.
    TMATMUL_MX(acc, c, a, sa, b, sb);
    expect_mx(acc, a, sa, b, sb, M, K, N, [&](int i, int j) { return c.GetValue(uint32_t(GetTileOffset<C>(i, j))); });
    C before = acc;
    std::vector<float> kept(M * N);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) kept[size_t(i * N + j)] = before.GetValue(uint32_t(GetTileOffset<C>(i, j)));
    TMATMUL_MX<AccPhase::Partial>(acc, acc, a, sa, b, sb);
    expect_mx(acc, a, sa, b, sb, M, K, N, [&](int i, int j) { return kept[size_t(i * N + j)]; });

    // With a bias row.
    Tile<TileType::Bias, float, 1, N> bias;
    for (int j = 0; j < N; ++j) bias.SetValue(uint32_t(j), float(int(rng() % 200) - 100) * 0.125f);
    TMATMUL_MX(c, a, sa, b, sb, bias);
    expect_mx(c, a, sa, b, sb, M, K, N, [&](int, int j) { return bias.GetValue(uint32_t(j)); });

    // TGEMV_MX: row 0 of a.
    using Row = TileAcc<float, 16, N, 1, N>;
    Row g;
    TGEMV_MX(g, a, sa, b, sb);
    expect_mx(g, a, sa, b, sb, 1, K, N, [](int, int) { return 0.0f; });
    TGEMV_MX<AccPhase::Final>(g, a, sa, b, sb, bias);
    expect_mx(g, a, sa, b, sb, 1, K, N, [&](int, int j) { return bias.GetValue(uint32_t(j)); });
}

}  // namespace

TEST(TmatmulMx, EveryFp8PairEveryForm)
{
    check_pair<float8_e4m3_t, float8_e4m3_t, 16, 64, 32>(1);
    check_pair<float8_e4m3_t, float8_e5m2_t, 32, 128, 16>(2);
    check_pair<float8_e5m2_t, float8_e4m3_t, 16, 192, 32>(3);
    check_pair<float8_e5m2_t, float8_e5m2_t, 48, 64, 64>(4);
}

TEST(TmatmulMx, EveryFp4PairEveryForm)
{
    check_pair<float4_e2m1x2_t, float4_e2m1x2_t, 16, 128, 32>(5);
    check_pair<float4_e2m1x2_t, float4_e1m2x2_t, 32, 64, 16>(6);
    check_pair<float4_e1m2x2_t, float4_e2m1x2_t, 16, 128, 16>(7);
    check_pair<float4_e1m2x2_t, float4_e1m2x2_t, 16, 256, 32>(8);
}

TEST(TmatmulMx, PartialValidRegionsUseOnlyTheirGroups)
{
    // k = 40 values: the second scale group is partly used; m and n partial too.
    using A = TileLeft<float8_e4m3_t, 32, 64, DYNAMIC, DYNAMIC>;
    using B = TileRight<float8_e5m2_t, 64, 32, DYNAMIC, DYNAMIC>;
    using SA = TileLeftScale<float8_e8m0_t, 32, 2>;
    using SB = TileRightScale<float8_e8m0_t, 2, 32>;
    using C = TileAcc<float, 32, 32, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(9);
    A a(19, 40);
    B b(40, 23);
    SA sa;
    SB sb;
    C c(19, 23);
    fill_operand(a, rng);
    fill_operand(b, rng);
    fill_scales(sa, rng);
    fill_scales(sb, rng);
    TMATMUL_MX(c, a, sa, b, sb);
    expect_mx(c, a, sa, b, sb, 19, 40, 23, [](int, int) { return 0.0f; });
}

TEST(TmatmulMx, SpecialScalesAndTheirLimits)
{
    // k = 32 values of a 64-value capacity: one scale group is used.
    using A = TileLeft<float8_e4m3_t, 16, 64, 16, 32>;
    using B = TileRight<float8_e4m3_t, 64, 16, 32, 16>;
    using SA = TileLeftScale<float8_e8m0_t, 16, 2>;
    using SB = TileRightScale<float8_e8m0_t, 2, 16>;
    A a;
    B b;
    SA sa;
    SB sb;
    for (int i = 0; i < 16 * 64; ++i) a.SetValue(uint32_t(i), float8_e4m3_t(1.0f)), b.SetValue(uint32_t(i), float8_e4m3_t(2.0f));
    for (int i = 0; i < 16; ++i)
        for (int g = 0; g < 2; ++g) {
            sa.SetValue(uint32_t(GetTileOffset<SA>(i, g)), float8_e8m0_t::from_bits(i == 0 ? 0xFF : i == 1 ? 254 : 127));
            sb.SetValue(uint32_t(GetTileOffset<SB>(g, i)), float8_e8m0_t::from_bits(i == 1 ? 254 : i == 2 ? 0 : 127));
        }
    TileAcc<float, 16, 16> c;
    TMATMUL_MX(c, a, sa, b, sb);
    const auto at = [&](int i, int j) { return c.GetValue(uint32_t(GetTileOffset<TileAcc<float, 16, 16>>(i, j))); };
    EXPECT_TRUE(std::isnan(at(0, 5)));          // exponent 255 is NaN
    EXPECT_TRUE(std::isinf(at(1, 1)));          // 2^127 * 2 * 2^127: past f32
    EXPECT_EQ(at(1, 0), 32 * 2 * 0x1p127f);     // 2^127 * 2 summed 32 times, still finite
    EXPECT_EQ(at(3, 2), 32 * 2.0f * 0x1p-127f); // 2 * 2^-127: a subnormal f32, exact
    EXPECT_EQ(at(5, 5), 64.0f);
}

TEST(TmatmulMx, OperandRulesPerTarget)
{
    std::mt19937 rng(10);
    engine::TileDesc c, a, b, sa, sb;
    c.loc = TileType::Acc, c.dtype = engine::DType::F32, c.rows = c.valid_rows = 16, c.cols = c.valid_cols = 16;
    c.blayout = BLayout::ColMajor, c.slayout = SLayout::RowMajor, c.fractal_bytes = 1024;
    a.loc = TileType::Left, a.dtype = engine::DType::F8E4M3, a.rows = a.valid_rows = 16, a.cols = a.valid_cols = 64;
    a.blayout = BLayout::ColMajor, a.slayout = SLayout::RowMajor;
    b.loc = TileType::Right, b.dtype = engine::DType::F8E5M2, b.rows = b.valid_rows = 64, b.cols = b.valid_cols = 16;
    b.blayout = BLayout::RowMajor, b.slayout = SLayout::ColMajor;
    sa.loc = TileType::ScaleLeft, sa.dtype = engine::DType::F8E8M0, sa.rows = sa.valid_rows = 16, sa.cols = sa.valid_cols = 2;
    sb.loc = TileType::ScaleRight, sb.dtype = engine::DType::F8E8M0, sb.rows = sb.valid_rows = 2, sb.cols = sb.valid_cols = 16;
    const auto code = [&](profile::Target t) {
        return first_code_on(t, [&](const profile::Profile& p, engine::LegalitySink& sink) {
            engine::check_tmatmul(p, {.c = c, .a = a, .b = b, .a_scale = &sa, .b_scale = &sb}, sink);
        });
    };
    EXPECT_EQ(code(profile::Target::A5), "none");
    EXPECT_EQ(code(profile::Target::A2A3), "LEGAL_MATMUL_MX_DTYPE");
    b.dtype = engine::DType::F4E2M1x2;  // fp8 with fp4
    EXPECT_EQ(code(profile::Target::A5), "LEGAL_MATMUL_MX_DTYPE");
    b.dtype = engine::DType::F8E5M2;
    sb.dtype = engine::DType::U8;
    EXPECT_EQ(code(profile::Target::A5), "LEGAL_MATMUL_MX_SCALE");
    sb.dtype = engine::DType::F8E8M0;
    sa.loc = TileType::ScaleRight;
    EXPECT_EQ(code(profile::Target::Cpu), "LEGAL_MATMUL_MX_SCALE");
    sa.loc = TileType::ScaleLeft;
    sa.valid_cols = 1;  // 64 values need 2 groups
    EXPECT_EQ(code(profile::Target::A5), "RUN_VALID_SHAPE");
    // The plain forms take no fp4 and no scales: an fp8 x fp8 TMATMUL is a5's, fp4 is nobody's.
    a.dtype = b.dtype = engine::DType::F4E2M1x2;
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](const profile::Profile& p, engine::LegalitySink& sink) {
                  engine::check_tmatmul(p, {.c = c, .a = a, .b = b}, sink);
              }),
              "LEGAL_MATMUL_DTYPE");
}

TEST(TmatmulMx, GetScaleAddrBindsTheScalesBesideTheirOperand)
{
    TileLeft<float8_e4m3_t, 16, 64> a;
    TileLeftScale<float8_e8m0_t, 16, 2> sa;
    TASSIGN(a, 0x2000);
    TGET_SCALE_ADDR(sa, a);
    EXPECT_EQ(GetScaleAddr(a.data()), 0x200u);
    EXPECT_EQ(reinterpret_cast<std::byte*>(sa.data()), runtime::memory_base(TileType::ScaleLeft) + 0x200);
    TileRight<float8_e4m3_t, 64, 16> b;
    TileRightScale<float8_e8m0_t, 2, 16> sb;
    TASSIGN(b, 0x400);
    TGET_SCALE_ADDR(sb, b);
    EXPECT_EQ(reinterpret_cast<std::byte*>(sb.data()), runtime::memory_base(TileType::ScaleRight) + 0x40);
}
