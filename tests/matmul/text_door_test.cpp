// The matrix instructions from PTO-AS: a GEMM through L1 and L0 (TLOAD into Nz/Zn L1 tiles, TMOV into
// Left/Right, TMATMUL then TMATMUL_ACC, TMATMUL_BIAS, TGEMV, TSTORE of the accumulator) gives the C++
// door's bits; and the verifier reports an illegal triple per target.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"

using namespace pto;
using namespace pto::test;

namespace {

const char* kProgram = R"(func.func @gemm(%a: !pto.ptr<IN>, %b: !pto.ptr<IN>, %bias: !pto.ptr<f32>, %c: !pto.ptr<f32>, %g: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %av = pto.make_tensor_view %a, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xIN>
  %bv = pto.make_tensor_view %b, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xIN>
  %biasv = pto.make_tensor_view %bias, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %cv = pto.make_tensor_view %c, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %gv = pto.make_tensor_view %g, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %a1 = pto.alloc_tile : !pto.tile_buf<mat, 32x32xIN, blayout=col_major, slayout=row_major>
  %b1 = pto.alloc_tile : !pto.tile_buf<mat, 32x32xIN, blayout=col_major, slayout=row_major>
  %bias1 = pto.alloc_tile : !pto.tile_buf<mat, 1x32xf32>
  %l = pto.alloc_tile : !pto.tile_buf<left, 32x32xIN, blayout=col_major, slayout=row_major>
  %r = pto.alloc_tile : !pto.tile_buf<right, 32x32xIN, blayout=row_major, slayout=col_major>
  %bt = pto.alloc_tile : !pto.tile_buf<bias, 1x32xf32>
  %acc = pto.alloc_tile : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>
  %row = pto.alloc_tile : !pto.tile_buf<acc, 16x32xf32, valid=1x32, blayout=col_major, slayout=row_major, fractal=1024>
  pto.tload ins(%av : !pto.tensor_view<?x?xIN>) outs(%a1 : !pto.tile_buf<mat, 32x32xIN, blayout=col_major, slayout=row_major>)
  pto.tload ins(%bv : !pto.tensor_view<?x?xIN>) outs(%b1 : !pto.tile_buf<mat, 32x32xIN, blayout=col_major, slayout=row_major>)
  pto.tload ins(%biasv : !pto.tensor_view<?x?xf32>) outs(%bias1 : !pto.tile_buf<mat, 1x32xf32>)
  pto.tmov ins(%a1 : !pto.tile_buf<mat, 32x32xIN, blayout=col_major, slayout=row_major>) outs(%l : !pto.tile_buf<left, 32x32xIN, blayout=col_major, slayout=row_major>)
  pto.tmov ins(%b1 : !pto.tile_buf<mat, 32x32xIN, blayout=col_major, slayout=row_major>) outs(%r : !pto.tile_buf<right, 32x32xIN, blayout=row_major, slayout=col_major>)
  pto.tmov ins(%bias1 : !pto.tile_buf<mat, 1x32xf32>) outs(%bt : !pto.tile_buf<bias, 1x32xf32>)
  pto.tmatmul.bias ins(%l, %r, %bt : !pto.tile_buf<left, 32x32xIN, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x32xIN, blayout=row_major, slayout=col_major>, !pto.tile_buf<bias, 1x32xf32>) outs(%acc : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>)
  %acc2 = pto.tmatmul_acc %acc, %l, %r : (!pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>, !pto.tile_buf<left, 32x32xIN, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x32xIN, blayout=row_major, slayout=col_major>) -> !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>
  pto.tgemv ins(%l, %r : !pto.tile_buf<left, 32x32xIN, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x32xIN, blayout=row_major, slayout=col_major>) outs(%row : !pto.tile_buf<acc, 16x32xf32, valid=1x32, blayout=col_major, slayout=row_major, fractal=1024>)
  pto.tstore ins(%acc2 : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>) outs(%cv : !pto.tensor_view<?x?xf32>)
  pto.tstore ins(%row : !pto.tile_buf<acc, 16x32xf32, valid=1x32, blayout=col_major, slayout=row_major, fractal=1024>) outs(%gv : !pto.tensor_view<?x?xf32>)
  return
}
)";

std::string with_input_type(const char* type)
{
    std::string text = kProgram;
    for (std::size_t at; (at = text.find("IN")) != std::string::npos;) text.replace(at, 2, type);
    return text;
}

TEST(TmatmulText, BiasThenAccumulateThenGemvGiveTheDecidedSums)
{
    const as::ParseResult parsed = as::parse(with_input_type("f16"), "gemm.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A5);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::mt19937 rng(7);
    std::vector<half> a(32 * 32), b(32 * 32);
    std::vector<float> bias(32), c(32 * 32), g(32);
    for (auto& v : a) v = half(std::ldexp(float(int(rng() % 31) - 15), int(rng() % 6) - 3));
    for (auto& v : b) v = half(std::ldexp(float(int(rng() % 31) - 15), int(rng() % 6) - 3));
    for (auto& v : bias) v = std::uniform_real_distribution<float>(-10.0f, 10.0f)(rng);
    const as::RunResult r = as::run(parsed.module, {argument("a", a), argument("b", b), argument("bias", bias), argument("c", c), argument("g", g)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
            float sum = bias[size_t(j)];
            for (int k = 0; k < 32; ++k) sum = std::fma(float(a[size_t(i * 32 + k)]), float(b[size_t(k * 32 + j)]), sum);
            for (int k = 0; k < 32; ++k) sum = std::fma(float(a[size_t(i * 32 + k)]), float(b[size_t(k * 32 + j)]), sum);
            ASSERT_EQ(c[size_t(i * 32 + j)], sum) << i << "," << j;
            if (i == 0) {
                float row = 0.0f;
                for (int k = 0; k < 32; ++k) row = std::fma(float(a[size_t(k)]), float(b[size_t(k * 32 + j)]), row);
                ASSERT_EQ(g[size_t(j)], row) << j;
            }
        }
}

TEST(TmatmulText, TheVerifierReportsAnIllegalTriplePerTarget)
{
    const as::ParseResult parsed = as::parse(with_input_type("f8E4M3FN"), "gemm.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    std::vector<std::string> a2a3, a5;
    for (const auto& d : as::verify(parsed.module, profile::Target::A2A3)) a2a3.push_back(d.code);
    for (const auto& d : as::verify(parsed.module, profile::Target::A5)) a5.push_back(d.code);
    EXPECT_NE(std::find(a2a3.begin(), a2a3.end(), "LEGAL_MATMUL_DTYPE"), a2a3.end());
    EXPECT_EQ(std::find(a5.begin(), a5.end(), "LEGAL_MATMUL_DTYPE"), a5.end());
}

}  // namespace

namespace {

const char* kMxProgram = R"(func.func @mx(%a: !pto.ptr<f8E4M3FN>, %sa: !pto.ptr<f8e8m0>, %b: !pto.ptr<f8E5M2>, %sb: !pto.ptr<f8e8m0>, %c: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %av = pto.make_tensor_view %a, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf8E4M3FN>
  %sav = pto.make_tensor_view %sa, shape = [%c16, %c2], strides = [%c2, %c1] : !pto.tensor_view<?x?xf8e8m0>
  %bv = pto.make_tensor_view %b, shape = [%c64, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf8E5M2>
  %sbv = pto.make_tensor_view %sb, shape = [%c2, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf8e8m0>
  %cv = pto.make_tensor_view %c, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %a1 = pto.alloc_tile : !pto.tile_buf<mat, 16x64xf8E4M3FN, blayout=col_major, slayout=row_major>
  %sa1 = pto.alloc_tile : !pto.tile_buf<mat, 16x2xf8e8m0, blayout=row_major, slayout=row_major, fractal=32>
  %b1 = pto.alloc_tile : !pto.tile_buf<mat, 64x32xf8E5M2, blayout=col_major, slayout=row_major>
  %sb1 = pto.alloc_tile : !pto.tile_buf<mat, 2x32xf8e8m0, blayout=col_major, slayout=col_major, fractal=32>
  %l = pto.alloc_tile : !pto.tile_buf<left, 16x64xf8E4M3FN, blayout=col_major, slayout=row_major>
  %sl = pto.alloc_tile : !pto.tile_buf<scale_left, 16x2xf8e8m0, blayout=row_major, slayout=row_major, fractal=32>
  %r = pto.alloc_tile : !pto.tile_buf<right, 64x32xf8E5M2, blayout=row_major, slayout=col_major>
  %sr = pto.alloc_tile : !pto.tile_buf<scale_right, 2x32xf8e8m0, blayout=col_major, slayout=col_major, fractal=32>
  %acc = pto.alloc_tile : !pto.tile_buf<acc, 16x32xf32, blayout=col_major, slayout=row_major, fractal=1024>
  pto.tload ins(%av : !pto.tensor_view<?x?xf8E4M3FN>) outs(%a1 : !pto.tile_buf<mat, 16x64xf8E4M3FN, blayout=col_major, slayout=row_major>)
  pto.tload ins(%sav : !pto.tensor_view<?x?xf8e8m0>) outs(%sa1 : !pto.tile_buf<mat, 16x2xf8e8m0, blayout=row_major, slayout=row_major, fractal=32>)
  pto.tload ins(%bv : !pto.tensor_view<?x?xf8E5M2>) outs(%b1 : !pto.tile_buf<mat, 64x32xf8E5M2, blayout=col_major, slayout=row_major>)
  pto.tload ins(%sbv : !pto.tensor_view<?x?xf8e8m0>) outs(%sb1 : !pto.tile_buf<mat, 2x32xf8e8m0, blayout=col_major, slayout=col_major, fractal=32>)
  pto.tmov ins(%a1 : !pto.tile_buf<mat, 16x64xf8E4M3FN, blayout=col_major, slayout=row_major>) outs(%l : !pto.tile_buf<left, 16x64xf8E4M3FN, blayout=col_major, slayout=row_major>)
  pto.tmov ins(%sa1 : !pto.tile_buf<mat, 16x2xf8e8m0, blayout=row_major, slayout=row_major, fractal=32>) outs(%sl : !pto.tile_buf<scale_left, 16x2xf8e8m0, blayout=row_major, slayout=row_major, fractal=32>)
  pto.tmov ins(%b1 : !pto.tile_buf<mat, 64x32xf8E5M2, blayout=col_major, slayout=row_major>) outs(%r : !pto.tile_buf<right, 64x32xf8E5M2, blayout=row_major, slayout=col_major>)
  pto.tmov ins(%sb1 : !pto.tile_buf<mat, 2x32xf8e8m0, blayout=col_major, slayout=col_major, fractal=32>) outs(%sr : !pto.tile_buf<scale_right, 2x32xf8e8m0, blayout=col_major, slayout=col_major, fractal=32>)
  pto.tmatmul.mx ins(%l, %sl, %r, %sr : !pto.tile_buf<left, 16x64xf8E4M3FN, blayout=col_major, slayout=row_major>, !pto.tile_buf<scale_left, 16x2xf8e8m0, blayout=row_major, slayout=row_major, fractal=32>, !pto.tile_buf<right, 64x32xf8E5M2, blayout=row_major, slayout=col_major>, !pto.tile_buf<scale_right, 2x32xf8e8m0, blayout=col_major, slayout=col_major, fractal=32>) outs(%acc : !pto.tile_buf<acc, 16x32xf32, blayout=col_major, slayout=row_major, fractal=1024>)
  pto.tmatmul.mx.acc ins(%acc, %l, %sl, %r, %sr : !pto.tile_buf<acc, 16x32xf32, blayout=col_major, slayout=row_major, fractal=1024>, !pto.tile_buf<left, 16x64xf8E4M3FN, blayout=col_major, slayout=row_major>, !pto.tile_buf<scale_left, 16x2xf8e8m0, blayout=row_major, slayout=row_major, fractal=32>, !pto.tile_buf<right, 64x32xf8E5M2, blayout=row_major, slayout=col_major>, !pto.tile_buf<scale_right, 2x32xf8e8m0, blayout=col_major, slayout=col_major, fractal=32>) outs(%acc : !pto.tile_buf<acc, 16x32xf32, blayout=col_major, slayout=row_major, fractal=1024>)
  pto.tstore ins(%acc : !pto.tile_buf<acc, 16x32xf32, blayout=col_major, slayout=row_major, fractal=1024>) outs(%cv : !pto.tensor_view<?x?xf32>)
  return
}
)";

TEST(TmatmulText, MxFormsGiveTheIntrinsicsBits)
{
    std::mt19937 rng(11);
    std::vector<uint8_t> a(16 * 64), sa(16 * 2), b(64 * 32), sb(2 * 32);
    for (auto& x : a) x = uint8_t(rng() & 0xF7);  // finite e4m3
    for (auto& x : b) x = uint8_t(rng() & 0xEF);  // finite e5m2
    for (auto& x : sa) x = uint8_t(120 + rng() % 15);
    for (auto& x : sb) x = uint8_t(120 + rng() % 15);
    std::vector<float> c(16 * 32);
    const as::ParseResult parsed = as::parse(kMxProgram, "mx.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::Cpu);
    ASSERT_TRUE(found.empty()) << found[0].format();
    const as::RunResult r = as::run(parsed.module,
                                    {argument("a", a), argument("sa", sa), argument("b", b), argument("sb", sb), argument("c", c)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());

    using L = TileLeft<float8_e4m3_t, 16, 64>;
    using SL = TileLeftScale<float8_e8m0_t, 16, 2>;
    using R = TileRight<float8_e5m2_t, 64, 32>;
    using SR = TileRightScale<float8_e8m0_t, 2, 32>;
    using C = TileAcc<float, 16, 32>;
    L l;
    SL sl;
    R rt;
    SR sr;
    C want;
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 64; ++k) l.SetValue(uint32_t(GetTileOffset<L>(i, k)), float8_e4m3_t::from_bits(a[size_t(i * 64 + k)]));
    for (int k = 0; k < 64; ++k)
        for (int j = 0; j < 32; ++j) rt.SetValue(uint32_t(GetTileOffset<R>(k, j)), float8_e5m2_t::from_bits(b[size_t(k * 32 + j)]));
    for (int i = 0; i < 16; ++i)
        for (int g = 0; g < 2; ++g) sl.SetValue(uint32_t(GetTileOffset<SL>(i, g)), float8_e8m0_t::from_bits(sa[size_t(i * 2 + g)]));
    for (int g = 0; g < 2; ++g)
        for (int j = 0; j < 32; ++j) sr.SetValue(uint32_t(GetTileOffset<SR>(g, j)), float8_e8m0_t::from_bits(sb[size_t(g * 32 + j)]));
    TMATMUL_MX(want, l, sl, rt, sr);
    TMATMUL_MX(want, want, l, sl, rt, sr);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) ASSERT_EQ(c[size_t(i * 32 + j)], want.GetValue(uint32_t(GetTileOffset<C>(i, j)))) << i << "," << j;
}

}  // namespace
