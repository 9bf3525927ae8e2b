// The matrix instructions through the intrinsics against two references over random shapes, partial
// valid regions and every type triple: the decided order (each element from its initial value, one fused
// multiply-add per k, ascending), which must match bit for bit, and a double-precision sum, which bounds
// the error; special values; the operand rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

template <typename T>
T random_input(std::mt19937& rng)
{
    if constexpr (std::is_same_v<T, int8_t>) {
        return T(int(rng() % 256) - 128);
    } else {
        // Magnitudes spread over several binades; values exact in every input type.
        const float v = std::ldexp(float(int(rng() % 15) - 7), int(rng() % 5) - 2);
        return T(v);
    }
}

template <typename Acc>
Acc random_init(std::mt19937& rng)
{
    if constexpr (std::is_same_v<Acc, int32_t>) {
        return Acc(int64_t(rng()) - (int64_t(1) << 31));
    } else {
        return std::uniform_real_distribution<float>(-50.0f, 50.0f)(rng);
    }
}

template <typename T>
double wide(T v)
{
    return double(float(v));
}

enum class Form { Plain, Accumulate, AccumulateInPlace, Bias };

// c = init + a . b for random m, k, n within tiles A, B, C, checked element by element.
template <typename A, typename B, typename C, bool Gemv = false>
void expect_products_in(uint32_t seed, Form form)
{
    using In = typename A::DType;
    using Acc = typename C::DType;
    constexpr int M = A::Rows, K = A::Cols, N = B::Cols;
    using Bias = Tile<TileType::Bias, Acc, 1, N, BLayout::RowMajor, 1, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 5; ++trial) {
        const int m = Gemv ? 1 : 1 + int(rng() % M), k = 1 + int(rng() % K), n = 1 + int(rng() % N);
        A a(m, k);
        B b(k, n);
        C c(m, n), c_in(m, n);
        Bias bias(n);
        std::vector<In> av(size_t(m) * k), bv(size_t(k) * n);
        std::vector<Acc> init(size_t(m) * n, Acc(0));
        for (int i = 0; i < m; ++i)
            for (int kk = 0; kk < k; ++kk) a.SetValue(uint32_t(GetTileOffset<A>(i, kk)), av[size_t(i) * k + kk] = random_input<In>(rng));
        for (int kk = 0; kk < k; ++kk)
            for (int j = 0; j < n; ++j) b.SetValue(uint32_t(GetTileOffset<B>(kk, j)), bv[size_t(kk) * n + j] = random_input<In>(rng));
        if (form == Form::Accumulate || form == Form::AccumulateInPlace) {
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    init[size_t(i) * n + j] = random_init<Acc>(rng);
                    (form == Form::Accumulate ? c_in : c).SetValue(uint32_t(GetTileOffset<C>(i, j)), init[size_t(i) * n + j]);
                }
        } else if (form == Form::Bias) {
            for (int j = 0; j < n; ++j) {
                const Acc v = random_init<Acc>(rng);
                bias.SetValue(uint32_t(j), v);
                for (int i = 0; i < m; ++i) init[size_t(i) * n + j] = v;
            }
        }
        if constexpr (Gemv) {
            switch (form) {
                case Form::Plain: TGEMV(c, a, b); break;
                case Form::Accumulate: TGEMV_ACC(c, c_in, a, b); break;
                case Form::AccumulateInPlace: TGEMV_ACC<AccPhase::Final>(c, c, a, b); break;
                case Form::Bias: TGEMV_BIAS(c, a, b, bias); break;
            }
        } else {
            switch (form) {
                case Form::Plain: TMATMUL(c, a, b); break;
                case Form::Accumulate: TMATMUL_ACC(c, c_in, a, b); break;
                case Form::AccumulateInPlace: TMATMUL_ACC(c, a, b); break;
                case Form::Bias: TMATMUL_BIAS<AccPhase::Partial>(c, a, b, bias); break;
            }
        }
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                Acc ordered = init[size_t(i) * n + j];
                double exact = double(ordered), largest_partial = std::fabs(exact);
                for (int kk = 0; kk < k; ++kk) {
                    const In x = av[size_t(i) * k + kk], y = bv[size_t(kk) * n + j];
                    if constexpr (std::is_same_v<Acc, int32_t>) {
                        ordered = Acc(uint32_t(ordered) + uint32_t(int32_t(x) * int32_t(y)));
                    } else {
                        ordered = std::fma(float(x), float(y), ordered);
                        exact += wide(x) * wide(y);
                        largest_partial = std::max(largest_partial, std::fabs(exact));
                    }
                }
                const Acc got = c.GetValue(uint32_t(GetTileOffset<C>(i, j)));
                ASSERT_EQ(std::memcmp(&got, &ordered, sizeof(Acc)), 0)
                    << "trial " << trial << " (" << i << "," << j << ") of " << m << "x" << k << "x" << n << ": " << double(got) << " vs " << double(ordered);
                if constexpr (!std::is_same_v<Acc, int32_t>) {
                    // k roundings, each within half an ulp (2^-24 relative) of a running sum no larger than
                    // the largest partial sum (plus the error so far, a second-order term).
                    ASSERT_NEAR(double(got), exact, k * std::ldexp(largest_partial, -24) * (1 + k * std::ldexp(1.0, -23)));
                }
            }
    }
}

// The cube's layouts: Left Nz, Right Zn, Acc Nz.
template <typename In, typename Acc, int M, int K, int N, bool Gemv = false>
void expect_products(uint32_t seed, Form form)
{
    expect_products_in<TileLeft<In, M, K, DYNAMIC, DYNAMIC>, TileRight<In, K, N, DYNAMIC, DYNAMIC>,
                       TileAcc<Acc, M, N, DYNAMIC, DYNAMIC>, Gemv>(seed, form);
}

template <TileType Loc, typename T, int Rows, int Cols, BLayout B, SLayout S = SLayout::NoneBox,
          int Fractal = TileConfig::fractalABSize>
using TileIn = Tile<Loc, T, Rows, Cols, B, DYNAMIC, DYNAMIC, S, Fractal>;

TEST(Tmatmul, FloatInputsEveryForm)
{
    for (Form f : {Form::Plain, Form::Accumulate, Form::AccumulateInPlace, Form::Bias})
        expect_products<float, float, 48, 24, 48>(1 + uint32_t(f), f);
}

TEST(Tmatmul, HalfAndBfloat16Inputs)
{
    for (Form f : {Form::Plain, Form::Accumulate, Form::Bias}) {
        expect_products<half, float, 32, 48, 80>(10 + uint32_t(f), f);
        expect_products<bfloat16_t, float, 16, 32, 64>(20 + uint32_t(f), f);
    }
}

TEST(Tmatmul, Int8IntoInt32WrapsExactly)
{
    for (Form f : {Form::Plain, Form::Accumulate, Form::AccumulateInPlace, Form::Bias})
        expect_products<int8_t, int32_t, 32, 64, 48>(30 + uint32_t(f), f);
}

TEST(Tmatmul, Fp8AndHif8Inputs)
{
    expect_products<float8_e4m3_t, float, 16, 64, 32>(40, Form::Plain);
    expect_products<float8_e5m2_t, float, 16, 64, 32>(41, Form::Accumulate);
    expect_products<hifloat8_t, float, 16, 64, 32>(42, Form::Bias);
}

// The cpu target takes any layout: unboxed ones (column-major through row-major panels, row-major in
// place), Nz with the Left box on Acc and Right (in place or staged), and both tile shapes of the same
// sums must give the bits the cube's layouts give.
TEST(Tmatmul, EveryLayoutGivesTheSameBits)
{
    using enum TileType;
    using enum BLayout;
    for (Form f : {Form::Plain, Form::Accumulate, Form::AccumulateInPlace, Form::Bias}) {
        const uint32_t seed = 70 + uint32_t(f);
        expect_products_in<TileIn<Left, float, 48, 24, ColMajor>, TileIn<Right, float, 24, 48, ColMajor>,
                           TileIn<Acc, float, 48, 48, ColMajor>>(seed, f);
        expect_products_in<TileIn<Left, half, 32, 48, RowMajor>, TileIn<Right, half, 48, 80, RowMajor>,
                           TileIn<Acc, float, 32, 80, RowMajor>>(seed, f);
        expect_products_in<TileIn<Left, int8_t, 32, 64, RowMajor, SLayout::ColMajor>,
                           TileIn<Right, int8_t, 64, 64, ColMajor, SLayout::RowMajor>,
                           TileIn<Acc, int32_t, 32, 64, ColMajor, SLayout::RowMajor>>(seed, f);
        expect_products_in<TileIn<Left, bfloat16_t, 32, 48, ColMajor, SLayout::RowMajor>,
                           TileIn<Right, bfloat16_t, 48, 64, ColMajor, SLayout::RowMajor>,
                           TileIn<Acc, float, 32, 64, RowMajor>>(seed, f);
    }
}

// The same values in the cube's layouts (the fast paths) and in column-major tiles (row-major panels).
TEST(Tmatmul, FastAndGeneralPathsAgreeBitForBit)
{
    constexpr int M = 64, K = 64, N = 64;
    const int m = 61, k = 50, n = 37;  // partial boxes everywhere
    std::mt19937 rng(80);
    TileLeft<half, M, K, DYNAMIC, DYNAMIC> a(m, k);
    TileRight<half, K, N, DYNAMIC, DYNAMIC> b(k, n);
    TileAcc<float, M, N, DYNAMIC, DYNAMIC> c(m, n), c_in(m, n);
    TileIn<TileType::Left, half, M, K, BLayout::ColMajor> a2(m, k);
    TileIn<TileType::Right, half, K, N, BLayout::ColMajor> b2(k, n);
    TileIn<TileType::Acc, float, M, N, BLayout::ColMajor> c2(m, n), c_in2(m, n);
    for (int i = 0; i < m; ++i)
        for (int kk = 0; kk < k; ++kk) {
            const half v = random_input<half>(rng);
            a.SetValue(uint32_t(GetTileOffset<decltype(a)>(i, kk)), v);
            a2.SetValue(uint32_t(GetTileOffset<decltype(a2)>(i, kk)), v);
        }
    for (int kk = 0; kk < k; ++kk)
        for (int j = 0; j < n; ++j) {
            const half v = random_input<half>(rng);
            b.SetValue(uint32_t(GetTileOffset<decltype(b)>(kk, j)), v);
            b2.SetValue(uint32_t(GetTileOffset<decltype(b2)>(kk, j)), v);
        }
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            const float v = random_init<float>(rng);
            c_in.SetValue(uint32_t(GetTileOffset<decltype(c_in)>(i, j)), v);
            c_in2.SetValue(uint32_t(GetTileOffset<decltype(c_in2)>(i, j)), v);
        }
    TMATMUL_ACC(c, c_in, a, b);
    TMATMUL_ACC(c2, c_in2, a2, b2);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            const float fast = c.GetValue(uint32_t(GetTileOffset<decltype(c)>(i, j)));
            const float general = c2.GetValue(uint32_t(GetTileOffset<decltype(c2)>(i, j)));
            ASSERT_EQ(std::memcmp(&fast, &general, sizeof(float)), 0) << "(" << i << "," << j << ")";
        }
}

// Vector width never changes a result: every SIMD target this CPU runs (4, 8 or 16 lanes) gives the
// decided sums, through the fast paths and the general one.
TEST(Tmatmul, EverySimdTargetGivesTheDecidedSums)
{
    for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        for (Form f : {Form::Plain, Form::Accumulate, Form::Bias}) {
            expect_products<float, float, 48, 24, 48>(90 + uint32_t(f), f);
            expect_products<int8_t, int32_t, 32, 64, 48>(95 + uint32_t(f), f);
            expect_products_in<TileIn<TileType::Left, half, 32, 48, BLayout::ColMajor>,
                               TileIn<TileType::Right, half, 48, 80, BLayout::ColMajor>,
                               TileIn<TileType::Acc, float, 32, 80, BLayout::ColMajor>>(99 + uint32_t(f), f);
        }
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

// f16 and bf16 in the cube's layouts (Left widened in place, Right's Zn boxes widened as they are
// transposed) on every SIMD target, against the scalar conversion and one std::fma per k: random shapes
// (partial boxes), an eighth of the inputs special (infinities, a quiet NaN, subnormals, negative zero).
// Bit for bit except a NaN's sign and payload when several operands of a step are NaN: which one the FMA
// instruction keeps depends on the form the compiler chose.
template <typename In>
void expect_special_products_on_every_target(uint32_t seed, std::initializer_list<uint16_t> special_bits)
{
    constexpr int M = 64, K = 64, N = 64;
    const std::vector<uint16_t> specials(special_bits);
    for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        std::mt19937 rng(seed);
        for (int trial = 0; trial < 4; ++trial) {
            const int m = 1 + int(rng() % M), k = 1 + int(rng() % K), n = 1 + int(rng() % N);
            TileLeft<In, M, K, DYNAMIC, DYNAMIC> a(m, k);
            TileRight<In, K, N, DYNAMIC, DYNAMIC> b(k, n);
            TileAcc<float, M, N, DYNAMIC, DYNAMIC> c(m, n);
            const auto input = [&] { return rng() % 8 == 0 ? In::from_bits(specials[rng() % specials.size()]) : random_input<In>(rng); };
            std::vector<In> av(size_t(m) * k), bv(size_t(k) * n);
            for (int i = 0; i < m; ++i)
                for (int kk = 0; kk < k; ++kk) a.SetValue(uint32_t(GetTileOffset<decltype(a)>(i, kk)), av[size_t(i) * k + kk] = input());
            for (int kk = 0; kk < k; ++kk)
                for (int j = 0; j < n; ++j) b.SetValue(uint32_t(GetTileOffset<decltype(b)>(kk, j)), bv[size_t(kk) * n + j] = input());
            TMATMUL(c, a, b);
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    float ordered = 0.0f;
                    for (int kk = 0; kk < k; ++kk) ordered = std::fma(float(av[size_t(i) * k + kk]), float(bv[size_t(kk) * n + j]), ordered);
                    const float got = c.GetValue(uint32_t(GetTileOffset<decltype(c)>(i, j)));
                    const bool both_nan = std::isnan(got) && std::isnan(ordered);
                    ASSERT_TRUE(both_nan || std::memcmp(&got, &ordered, sizeof(float)) == 0)
                        << "trial " << trial << " (" << i << "," << j << ") of " << m << "x" << k << "x" << n << ": " << got << " vs " << ordered;
                }
        }
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

TEST(Tmatmul, HalfAndBfloat16SpecialValuesOnEverySimdTarget)
{
    // +-inf, quiet NaN, the smallest and largest subnormals of each sign, -0.
    expect_special_products_on_every_target<half>(110, {0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff, 0x03ff, 0x8001, 0x8000});
    expect_special_products_on_every_target<bfloat16_t>(111, {0x7f80, 0xff80, 0x7fc0, 0x0001, 0x807f, 0x007f, 0x8001, 0x8000});
}

TEST(Tmatmul, ANaNAccumulatorKeepsItsBitsThroughAnInvalidProductOnEverySimdTarget)
{
    // c_in(0, 0) is a NaN with a payload; its first step multiplies inf by 0, which alone would give the
    // default NaN. The FMA instruction keeps the accumulator's NaN, and so must every other target.
    constexpr uint32_t kNaN = 0x7fc01234u;
    TileLeft<float, 16, 8> a;
    TileRight<float, 8, 16> b;
    TileAcc<float, 16, 16> c;
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 8; ++k) a.SetValue(uint32_t(GetTileOffset<decltype(a)>(i, k)), k == 0 && i == 0 ? INFINITY : 1.0f);
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 16; ++j) b.SetValue(uint32_t(GetTileOffset<decltype(b)>(k, j)), k == 0 ? 0.0f : 1.0f);
    for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) c.SetValue(uint32_t(GetTileOffset<decltype(c)>(i, j)), i == 0 && j == 0 ? std::bit_cast<float>(kNaN) : 2.0f);
        TMATMUL_ACC(c, a, b);
        EXPECT_EQ(std::bit_cast<uint32_t>(c.GetValue(uint32_t(GetTileOffset<decltype(c)>(0, 0)))), kNaN) << hwy::TargetName(target);
        EXPECT_EQ(c.GetValue(uint32_t(GetTileOffset<decltype(c)>(1, 1))), 9.0f) << hwy::TargetName(target);
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

TEST(Tgemv, EveryFormTakesOneRow)
{
    for (Form f : {Form::Plain, Form::Accumulate, Form::AccumulateInPlace, Form::Bias}) {
        expect_products<half, float, 16, 48, 64, true>(50 + uint32_t(f), f);
        expect_products<int8_t, int32_t, 16, 64, 32, true>(60 + uint32_t(f), f);
    }
}

TEST(Tmatmul, SpecialValuesPropagateAsTheirFusedSteps)
{
    TileLeft<float, 16, 8> a;
    TileRight<float, 8, 16> b;
    TileAcc<float, 16, 16> c;
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 8; ++k) a.SetValue(uint32_t(GetTileOffset<decltype(a)>(i, k)), 1.0f);
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 16; ++j) b.SetValue(uint32_t(GetTileOffset<decltype(b)>(k, j)), 1.0f);
    a.SetValue(uint32_t(GetTileOffset<decltype(a)>(0, 3)), std::numeric_limits<float>::infinity());
    a.SetValue(uint32_t(GetTileOffset<decltype(a)>(1, 3)), std::numeric_limits<float>::quiet_NaN());
    b.SetValue(uint32_t(GetTileOffset<decltype(b)>(3, 1)), 0.0f);  // inf * 0 in row 0, column 1
    TMATMUL(c, a, b);
    EXPECT_TRUE(std::isinf(c.GetValue(uint32_t(GetTileOffset<decltype(c)>(0, 0)))));
    EXPECT_TRUE(std::isnan(c.GetValue(uint32_t(GetTileOffset<decltype(c)>(0, 1)))));
    EXPECT_TRUE(std::isnan(c.GetValue(uint32_t(GetTileOffset<decltype(c)>(1, 5)))));
    EXPECT_EQ(c.GetValue(uint32_t(GetTileOffset<decltype(c)>(2, 2))), 8.0f);
}

TEST(TmatmulIllegal, OperandRulesPerTarget)
{
    TileLeft<float, 16, 8> a;
    TileRight<float, 8, 16> b;
    TileAcc<float, 16, 16> c;
    engine::TileDesc cd = c.desc(), ad = a.desc(), bd = b.desc();
    const auto code = [&](profile::Target t, const engine::MatmulOperands& o) {
        engine::FirstFinding finding;
        engine::check_tmatmul(profile::profile_of(t), o, finding);
        return finding.found ? finding.first.code : std::string("none");
    };
    EXPECT_EQ(code(profile::Target::A5, {.c = cd, .a = ad, .b = bd}), "none");
    engine::TileDesc fp8 = ad, fp8b = bd;
    fp8.dtype = fp8b.dtype = engine::DType::F8E4M3;
    EXPECT_EQ(code(profile::Target::A5, {.c = cd, .a = fp8, .b = fp8b}), "none");
    EXPECT_EQ(code(profile::Target::A2A3, {.c = cd, .a = fp8, .b = fp8b}), "LEGAL_MATMUL_DTYPE");
    engine::TileDesc row_major = ad;
    row_major.blayout = BLayout::RowMajor;
    EXPECT_EQ(code(profile::Target::A5, {.c = cd, .a = row_major, .b = bd}), "LEGAL_MATMUL_LAYOUT");
    EXPECT_EQ(code(profile::Target::A5, {.c = cd, .a = bd, .b = ad}), "LEGAL_MATMUL_LOCATION");
    engine::TileDesc short_b = bd;
    short_b.valid_rows = 4;
    EXPECT_EQ(code(profile::Target::A5, {.c = cd, .a = ad, .b = short_b}), "RUN_VALID_SHAPE");
    engine::TileDesc wide_c = cd;
    wide_c.cols = 32;
    EXPECT_EQ(code(profile::Target::A2A3, {.c = wide_c, .a = ad, .b = bd}), "LEGAL_MATMUL_SHAPE");
    Tile<TileType::Bias, half, 1, 16> half_bias;
    const engine::TileDesc bias = half_bias.desc();
    EXPECT_EQ(code(profile::Target::A5, {.c = cd, .a = ad, .b = bd, .bias = &bias}), "LEGAL_MATMUL_BIAS");
    const Diagnostic d = diagnostic_of([&] { TMATMUL(c, a, b); });
    EXPECT_EQ(d.code, "no error");
}

}  // namespace
