// The three-operand kinds (Ternary3, TernaryScalar, DstProduct, DstScaled, Axpy, Expand) through their
// intrinsics on random partial valid regions, for f32, f16, bf16 and i32 where the row takes it (bf16:
// TADDC and TSUBC on a5, TADDSC and TSUBSC on the cpu profile only, TEXPANDS on a2a3), against a
// reference computed in double and rounded as the instruction rounds (each step in float, then once to
// the element type). Elements outside dst's valid region stay untouched; checked mode requires dst
// written where the instruction reads it.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "support/test_support.hpp"

using namespace pto;

namespace {

constexpr int kRows = 8, kCols = 64;

template <typename T>
using DynTile = Tile<TileType::Vec, T, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

// One step of float arithmetic, or of wrapping integer arithmetic.
template <typename T>
double step(double v)
{
    if constexpr (std::is_integral_v<T>) return double(T(int64_t(v)));
    else return double(float(v));
}

template <typename T>
T element(double v)
{
    if constexpr (std::is_integral_v<T>) return T(int64_t(v));
    else return T(float(v));
}

// Runs `instruction(dst, a, b, c)` where a, b, c are tiles of random values and dst starts random too,
// and checks dst against `formula(a, b, c, old dst)` computed with `step` after each operation.
template <typename T, typename Instruction, typename Formula>
void expect_kind(uint32_t seed, Instruction instruction, Formula formula)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-50.0, 50.0);
    const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
    DynTile<T> dst(rows, cols), a(rows, cols), b(rows, cols), c(rows, cols);
    std::vector<double> old(kRows * kCols);
    for (int i = 0; i < kRows * kCols; ++i) {
        a.SetValue(i, element<T>(std::round(dist(rng) * 4) / 4));
        b.SetValue(i, element<T>(std::round(dist(rng) * 4) / 4));
        c.SetValue(i, element<T>(std::round(dist(rng) * 4) / 4));
        dst.SetValue(i, element<T>(std::round(dist(rng) * 4) / 4));
        old[std::size_t(i)] = double(dst.GetValue(i));
    }
    instruction(dst, a, b, c);
    for (int r = 0; r < kRows; ++r)
        for (int col = 0; col < kCols; ++col) {
            const int i = r * kCols + col;
            const double want = r < rows && col < cols
                                    ? double(element<T>(formula(double(a.GetValue(i)), double(b.GetValue(i)),
                                                                double(c.GetValue(i)), old[std::size_t(i)])))
                                    : old[std::size_t(i)];
            ASSERT_EQ(double(dst.GetValue(i)), want) << r << "," << col;
        }
}

template <typename T>
void expect_every_kind(uint32_t seed)
{
    const double s = 0.75;  // the scalar, exact in every type here but i32 (which truncates it to 0)
    const double st = double(element<T>(s));
    expect_kind<T>(seed, [](auto& d, auto& a, auto& b, auto& c) { TADDC(d, a, b, c); },
                   [](double a, double b, double c, double) { return step<T>(step<T>(a + b) + c); });
    expect_kind<T>(seed + 1, [](auto& d, auto& a, auto& b, auto& c) { TSUBC(d, a, b, c); },
                   [](double a, double b, double c, double) { return step<T>(step<T>(a - b) + c); });
    expect_kind<T>(seed + 2, [&](auto& d, auto& a, auto&, auto& c) { TADDSC(d, a, element<T>(s), c); },
                   [&](double a, double, double c, double) { return step<T>(step<T>(a + st) + c); });
    expect_kind<T>(seed + 3, [&](auto& d, auto& a, auto&, auto& c) { TSUBSC(d, a, element<T>(s), c); },
                   [&](double a, double, double c, double) { return step<T>(step<T>(a - st) + c); });
    expect_kind<T>(seed + 4, [&](auto& d, auto&, auto&, auto&) { TEXPANDS(d, element<T>(s)); },
                   [&](double, double, double, double) { return st; });
    if constexpr (!std::is_integral_v<T> && !std::is_same_v<T, bfloat16_t>) {
        expect_kind<T>(seed + 5, [](auto& d, auto& a, auto& b, auto&) { TMULADDDST(d, a, b); },
                       [](double a, double b, double, double d) { return step<T>(step<T>(a * b) + d); });
        expect_kind<T>(seed + 6, [](auto& d, auto& a, auto& b, auto&) { TFUSEDMULADD(d, a, b); },
                       [](double a, double b, double, double d) { return step<T>(step<T>(a * d) + b); });
        expect_kind<T>(seed + 7, [](auto& d, auto& a, auto& b, auto&) { TFUSEDMULADDRELU(d, a, b); },
                       [](double a, double b, double, double d) { return std::max(step<T>(step<T>(a * d) + b), 0.0); });
        expect_kind<T>(seed + 8, [&](auto& d, auto& a, auto&, auto&) { TAXPY(d, a, element<T>(s)); },
                       [&](double a, double, double, double d) { return step<T>(step<T>(a * st) + d); });
    }
}

TEST(TernaryKinds, F32) { expect_every_kind<float>(10); }
TEST(TernaryKinds, F16) { expect_every_kind<half>(20); }
TEST(TernaryKinds, BF16) { expect_every_kind<bfloat16_t>(40); }
TEST(TernaryKinds, I32) { expect_every_kind<int32_t>(30); }

// bf16 TADDSC and TSUBSC are the cpu profile's (CPU_DTYPES): the real targets' rules refuse them, and
// checked mode runs them and warns WARN_CPU_ONLY once, naming the row's dtype rule.
TEST(TernaryKinds, Bf16ScalarFormsAreCpuOnlyAndWarnInCheckedMode)
{
    using pto::engine::DType;
    static_assert(rules::taddsc_dtype_ok(profile::kCpu, DType::BF16) && rules::tsubsc_dtype_ok(profile::kCpu, DType::BF16));
    static_assert(!rules::taddsc_dtype_ok(profile::kA2A3, DType::BF16) && !rules::taddsc_dtype_ok(profile::kA5, DType::BF16));
    static_assert(!rules::tsubsc_dtype_ok(profile::kA2A3, DType::BF16) && !rules::tsubsc_dtype_ok(profile::kA5, DType::BF16));
    const bool was = runtime::checked();
    runtime::set_checked(true);
    Tile<TileType::Vec, bfloat16_t, kRows, kCols> dst, a, c;
    for (int i = 0; i < kRows * kCols; ++i) {
        a.SetValue(i, bfloat16_t(1.5f));
        c.SetValue(i, bfloat16_t(0.25f));
    }
    const auto expect_warned = [&](const char* name, float want, auto instruction) {
        runtime::clear_warnings();
        const Diagnostic d = test::diagnostic_of(instruction);
        EXPECT_EQ(d.code, "no error") << name << ": " << d.format();
        const auto& warnings = runtime::warnings();
        ASSERT_EQ(warnings.size(), 1u) << name;
        EXPECT_EQ(warnings[0].code, "WARN_CPU_ONLY") << name;
        EXPECT_EQ(warnings[0].instruction, name);
        EXPECT_TRUE(test::mentions(warnings[0], std::string("LEGAL_") + name + "_DTYPE")) << warnings[0].format("warning");
        for (int i = 0; i < kRows * kCols; ++i) ASSERT_EQ(float(dst.GetValue(i)), want) << name << " " << i;
        runtime::clear_warnings();
    };
    expect_warned("TADDSC", 2.0f, [&] { TADDSC(dst, a, bfloat16_t(0.25f), c); });
    expect_warned("TSUBSC", 1.5f, [&] { TSUBSC(dst, a, bfloat16_t(0.25f), c); });
    runtime::set_checked(was);
}

TEST(TernaryKinds, ReadingAnUnwrittenDstIsReportedInCheckedMode)
{
    const bool was = runtime::checked();
    runtime::set_checked(true);
    Tile<TileType::Vec, float, kRows, kCols> dst, a, b;
    for (int i = 0; i < kRows * kCols; ++i) {
        a.SetValue(i, 1.0f);
        b.SetValue(i, 2.0f);
    }
    const Diagnostic d = test::diagnostic_of([&] { TMULADDDST(dst, a, b); });
    runtime::set_checked(was);
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.operand, "dst");
}

}  // namespace
