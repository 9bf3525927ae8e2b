// SETTF32MODE and SETHF32MODE through both doors: on a5 an enabled TF32 mode rounds every f32 input of the
// later multiplies to 10 fraction bits (CAST_RINT ties to even, CAST_ROUND ties away) against an
// independent rounding in double; disabled, on a2a3 and on cpu the sums are the IEEE ones; HF32's mode is
// kept and changes nothing; a5 rejects other rounding modes.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <random>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"

using namespace pto;

namespace {

using Left = TileLeft<float, 16, 8>;
using Right = TileRight<float, 8, 16>;
using Acc = TileAcc<float, 16, 16>;

// v rounded to 11 significant bits, ties to even or away from zero.
float tf32(float v, bool away)
{
    if (!std::isfinite(v) || v == 0.0f) return v;
    int exponent = 0;
    const double fraction = std::frexp(double(v), &exponent) * 2048.0;  // 11 bits before the point
    const double rounded = away ? std::round(fraction) : std::nearbyint(fraction);
    return float(std::ldexp(rounded, exponent - 11));
}

struct Operands {
    std::vector<float> a = std::vector<float>(16 * 8), b = std::vector<float>(8 * 16);
    explicit Operands(uint32_t seed)
    {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> value(-4.0f, 4.0f);
        for (float& v : a) v = value(rng);
        for (float& v : b) v = value(rng);
        a[0] = 1.0f + 0x1p-11f;  // a tie: even keeps 1, away gives 1 + 2^-10
        a[1] = 1.0f + 0x3p-11f;  // a tie the other way: both give 1 + 2^-9
    }
    float expected(int i, int j, int rounding) const  // 0 off, 1 even, 2 away
    {
        float sum = 0.0f;
        for (int k = 0; k < 8; ++k) {
            float x = a[std::size_t(i) * 8 + k], y = b[std::size_t(k) * 16 + j];
            if (rounding) x = tf32(x, rounding == 2), y = tf32(y, rounding == 2);
            sum = std::fma(x, y, sum);
        }
        return sum;
    }
};

std::vector<float> multiply(const Operands& o)
{
    Left a;
    Right b;
    Acc c;
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 8; ++k) a.SetValue(uint32_t(GetTileOffset<Left>(i, k)), o.a[std::size_t(i) * 8 + k]);
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 16; ++j) b.SetValue(uint32_t(GetTileOffset<Right>(k, j)), o.b[std::size_t(k) * 16 + j]);
    TMATMUL(c, a, b);
    std::vector<float> out(256);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) out[std::size_t(i) * 16 + j] = c.GetValue(uint32_t(GetTileOffset<Acc>(i, j)));
    return out;
}

void expect_sums(const Operands& o, const std::vector<float>& c, int rounding)
{
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) ASSERT_EQ(c[std::size_t(i) * 16 + j], o.expected(i, j, rounding)) << i << ", " << j;
}

class Fp32Modes : public ::testing::Test {
protected:
    void TearDown() override
    {
        SETTF32MODE<false>();
        SETHF32MODE<false>();
        runtime::set_target(profile::Target::Cpu);
    }
};

TEST_F(Fp32Modes, Tf32RoundsTheInputsOnA5Only)
{
    const Operands o(3);
    ASSERT_NE(o.expected(0, 0, 1), o.expected(0, 0, 2));  // the ties make the two modes differ
    runtime::set_target(profile::Target::A5);
    expect_sums(o, multiply(o), 0);
    SETTF32MODE<true, RoundMode::CAST_RINT>();
    expect_sums(o, multiply(o), 1);
    SETTF32MODE<true>();  // CAST_ROUND
    expect_sums(o, multiply(o), 2);
    SETTF32MODE<false>();
    expect_sums(o, multiply(o), 0);
    // a2a3 has no TF32 and cpu keeps the mode without using it.
    SETTF32MODE<true>();
    for (profile::Target target : {profile::Target::A2A3, profile::Target::Cpu}) {
        runtime::set_target(target);
        expect_sums(o, multiply(o), 0);
    }
}

TEST_F(Fp32Modes, Hf32IsKeptAndChangesNoResult)
{
    const Operands o(4);
    runtime::set_target(profile::Target::A5);
    SETHF32MODE<true, RoundMode::CAST_RINT>();
    EXPECT_TRUE(runtime::core_registers().hf32.enabled);
    EXPECT_EQ(runtime::core_registers().hf32.rounding, RoundMode::CAST_RINT);
    expect_sums(o, multiply(o), 0);
}

TEST_F(Fp32Modes, TheTextDoorSetsTheSameModes)
{
    const char* text = R"(func.func @f(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %c: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %av = pto.make_tensor_view %a, shape = [%c16, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %bv = pto.make_tensor_view %b, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %cv = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %a1 = pto.alloc_tile : !pto.tile_buf<mat, 16x8xf32, blayout=col_major, slayout=row_major>
  %b1 = pto.alloc_tile : !pto.tile_buf<mat, 16x16xf32, valid=8x16, blayout=col_major, slayout=row_major>
  %l = pto.alloc_tile : !pto.tile_buf<left, 16x8xf32, blayout=col_major, slayout=row_major>
  %r = pto.alloc_tile : !pto.tile_buf<right, 8x16xf32, blayout=row_major, slayout=col_major>
  %acc = pto.alloc_tile : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>
  pto.tload ins(%av : !pto.tensor_view<?x?xf32>) outs(%a1 : !pto.tile_buf<mat, 16x8xf32, blayout=col_major, slayout=row_major>)
  pto.tload ins(%bv : !pto.tensor_view<?x?xf32>) outs(%b1 : !pto.tile_buf<mat, 16x16xf32, valid=8x16, blayout=col_major, slayout=row_major>)
  pto.tmov ins(%a1 : !pto.tile_buf<mat, 16x8xf32, blayout=col_major, slayout=row_major>) outs(%l : !pto.tile_buf<left, 16x8xf32, blayout=col_major, slayout=row_major>)
  pto.tmov ins(%b1 : !pto.tile_buf<mat, 16x16xf32, valid=8x16, blayout=col_major, slayout=row_major>) outs(%r : !pto.tile_buf<right, 8x16xf32, blayout=row_major, slayout=col_major>)
  pto.settf32mode {enable = true, mode = "cast_rint"}
  pto.tmatmul ins(%l, %r : !pto.tile_buf<left, 16x8xf32, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 8x16xf32, blayout=row_major, slayout=col_major>) outs(%acc : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>)
  pto.settf32mode {enable = false}
  pto.tstore ins(%acc : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>) outs(%cv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    const as::ParseResult parsed = as::parse(text, "tf32.pto");
    ASSERT_TRUE(parsed.ok()) << parsed.diagnostics[0].format();
    ASSERT_TRUE(as::verify(parsed.module, profile::Target::A5).empty());
    Operands o(5);
    std::vector<float> c(256);
    as::RunOptions on_a5;
    on_a5.target = profile::Target::A5;
    const as::RunResult r = as::run(parsed.module, {test::argument("a", o.a), test::argument("b", o.b), test::argument("c", c)}, on_a5);
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    expect_sums(o, c, 1);
    EXPECT_FALSE(runtime::core_registers().tf32.enabled);  // the program turned it off again

    // a5 takes CAST_ROUND and CAST_RINT only; a2a3 and cpu any mode.
    const as::ParseResult floor = as::parse("func.func @g() {\n  pto.settf32mode {enable = true, mode = \"cast_floor\"}\n  return\n}\n", "t.pto");
    ASSERT_TRUE(floor.ok());
    const auto found = as::verify(floor.module, profile::Target::A5);
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found[0].code, "LEGAL_SETTF32MODE_MODE");
    EXPECT_TRUE(as::verify(floor.module, profile::Target::A2A3).empty());
    EXPECT_TRUE(as::verify(floor.module, profile::Target::Cpu).empty());
}

}  // namespace
