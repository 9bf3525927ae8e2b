// TQUANT from PTO-AS text: both modes run through the interpreter and give what the C++ door gives; the
// verifier reports each illegal case, per target, with its code.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "tquant/reference.hpp"

using namespace pto;

namespace {

// SRC, DST, ATTRS and the group tiles' types are filled in per test.
const char* kMxProgram = R"(func.func @f(%x: !pto.ptr<SRC>, %y: !pto.ptr<DST>, %e: !pto.ptr<ui8>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %xv = pto.make_tensor_view %x, shape = [%c32, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xSRC>
  %yv = pto.make_tensor_view %y, shape = [%c32, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xDST>
  %ev = pto.make_tensor_view %e, shape = [%c1, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xui8>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 32x128xSRC>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 32x128xDST>
  %te = pto.alloc_tile : !pto.tile_buf<vec, 1x128xui8>
  %tm = pto.alloc_tile : !pto.tile_buf<vec, 1x128xf32>
  %ts = pto.alloc_tile : !pto.tile_buf<vec, 1x128xf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xSRC>) outs(%tx : !pto.tile_buf<vec, 32x128xSRC>)
  pto.tquant ins(%tx : !pto.tile_buf<vec, 32x128xSRC>) outs(%ty, %te, %tm, %ts : !pto.tile_buf<vec, 32x128xDST>, !pto.tile_buf<vec, 1x128xui8>, !pto.tile_buf<vec, 1x128xf32>, !pto.tile_buf<vec, 1x128xf32>) ATTRS
  pto.tstore ins(%ty : !pto.tile_buf<vec, 32x128xDST>) outs(%yv : !pto.tensor_view<?x?xDST>)
  pto.tstore ins(%te : !pto.tile_buf<vec, 1x128xui8>) outs(%ev : !pto.tensor_view<?x?xui8>)
  return
}
)";

std::string filled(std::string text, std::initializer_list<std::pair<std::string, std::string>> fills)
{
    for (const auto& [key, value] : fills)
        for (std::size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), value);
    return text;
}

template <typename T>
as::ArgumentBinding argument(const char* name, std::vector<T>& v)
{
    as::ArgumentBinding b;
    b.name = name;
    b.data = reinterpret_cast<std::byte*>(v.data());
    b.bytes = v.size() * sizeof(T);
    return b;
}

std::vector<std::string> codes(const std::string& text, profile::Target target)
{
    const as::ParseResult parsed = as::parse(text, "tquant.pto");
    EXPECT_TRUE(parsed.ok());
    std::vector<std::string> found;
    for (const auto& d : as::verify(parsed.module, target)) found.push_back(d.code);
    return found;
}

TEST(TquantText, MxNvAlongRowsGivesTheReference)
{
    for (const char* attrs : {"{mx_alg = #pto<mx_alg NvMxFp8E4M3>}", "{quant_type = #pto<quant_type MXFP8>, scale_alg = #pto<scale_alg NV>, grp_axis = 1 : i32}"}) {
        const std::string text = filled(kMxProgram, {{"SRC", "f32"}, {"DST", "i8"}, {"ATTRS", attrs}});
        const as::ParseResult parsed = as::parse(text, "tquant.pto");
        ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
        const auto found = as::verify(parsed.module, profile::Target::A5);
        ASSERT_TRUE(found.empty()) << found[0].format();
        std::mt19937 rng(3);
        std::vector<float> x(32 * 128);
        std::vector<int8_t> y(32 * 128);
        std::vector<uint8_t> e(128);
        for (int i = 0; i < 32 * 128; ++i) x[std::size_t(i)] = std::ldexp(float(int(rng() % 2001) - 1000) / 512.0f, (i / 32) % 30 - 15);
        as::RunOptions checked;
        checked.checked = true;
        const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("y", y), argument("e", e)}, checked);
        ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
        const test::tquant::Format fp8{false};
        for (int g = 0; g < 128; ++g) {
            test::tquant::GroupMax m;
            for (int k = 0; k < 32; ++k) m.add(x[std::size_t(g * 32 + k)]);
            const uint8_t exponent = test::tquant::exponent(m.m, fp8, true);
            ASSERT_EQ(e[std::size_t(g)], exponent) << g;
            for (int k = 0; k < 32; ++k)
                ASSERT_EQ(uint8_t(y[std::size_t(g * 32 + k)]),
                          test::tquant::quantized(x[std::size_t(g * 32 + k)], test::tquant::scaling(exponent), fp8));
        }
    }
}

const char* kInterleavedProgram = R"(func.func @f(%x: !pto.ptr<f32>, %y: !pto.ptr<i8>, %e: !pto.ptr<ui8>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %xv = pto.make_tensor_view %x, shape = [%c64, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c64, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xi8>
  %ev = pto.make_tensor_view %e, shape = [%c1, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xui8>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 64x64xf32>
  %te = pto.alloc_tile : !pto.tile_buf<vec, 1x128xui8>
  %tm = pto.alloc_tile : !pto.tile_buf<vec, 2x64xf32>
  %ts = pto.alloc_tile : !pto.tile_buf<vec, 2x64xf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 64x64xf32>)
  %ty, %te2, %tm2, %ts2 = pto.tquant %tx {mx_alg = #pto<mx_alg OcpMxFp8E4M3>, grp_axis = 0 : i32, interleave = true} : (!pto.tile_buf<vec, 64x64xf32>) -> (!pto.tile_buf<vec, 64x64xi8>, !pto.tile_buf<vec, 1x128xui8>, !pto.tile_buf<vec, 2x64xf32>, !pto.tile_buf<vec, 2x64xf32>)
  pto.tstore ins(%ty : !pto.tile_buf<vec, 64x64xi8>) outs(%yv : !pto.tensor_view<?x?xi8>)
  pto.tstore ins(%te2 : !pto.tile_buf<vec, 1x128xui8>) outs(%ev : !pto.tensor_view<?x?xui8>)
  return
}
)";

TEST(TquantText, InterleavedDnExponentsPairTheRowGroups)
{
    const as::ParseResult parsed = as::parse(kInterleavedProgram, "tquant.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A5);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::mt19937 rng(5);
    std::vector<float> x(64 * 64);
    std::vector<int8_t> y(64 * 64);
    std::vector<uint8_t> e(128);
    for (int i = 0; i < 64 * 64; ++i) x[std::size_t(i)] = std::ldexp(float(int(rng() % 2001) - 1000) / 512.0f, (i % 64 + i / 2048) % 30 - 15);
    const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("y", y), argument("e", e)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    const test::tquant::Format fp8{false};
    for (int g = 0; g < 2; ++g)
        for (int c = 0; c < 64; ++c) {
            test::tquant::GroupMax m;
            for (int k = 0; k < 32; ++k) m.add(x[std::size_t((g * 32 + k) * 64 + c)]);
            const uint8_t exponent = test::tquant::exponent(m.m, fp8, false);
            ASSERT_EQ(e[std::size_t(2 * c + g)], exponent) << g << "," << c;
            for (int k = 0; k < 32; ++k) {
                const std::size_t at = std::size_t((g * 32 + k) * 64 + c);
                ASSERT_EQ(uint8_t(y[at]), test::tquant::quantized(x[at], test::tquant::scaling(exponent), fp8));
            }
        }
}

const char* kInt8Program = R"(func.func @f(%x: !pto.ptr<f32>, %s: !pto.ptr<f32>, %o: !pto.ptr<f32>, %y: !pto.ptr<ui8>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %xv = pto.make_tensor_view %x, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %sv = pto.make_tensor_view %s, shape = [%c16, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>
  %ov = pto.make_tensor_view %o, shape = [%c16, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xui8>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>
  %ts = pto.alloc_tile : !pto.tile_buf<vec, 16x8xf32, valid=16x1>
  %to = pto.alloc_tile : !pto.tile_buf<vec, 16x8xf32, valid=16x1>
  %tt = pto.alloc_tile : !pto.tile_buf<vec, TMPxf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 16x64xf32>)
  pto.tload ins(%sv : !pto.tensor_view<?x?xf32>) outs(%ts : !pto.tile_buf<vec, 16x8xf32, valid=16x1>)
  pto.tload ins(%ov : !pto.tensor_view<?x?xf32>) outs(%to : !pto.tile_buf<vec, 16x8xf32, valid=16x1>)
  %ty = pto.tquant %tx, %ts, %to, %tt {quant_type = #pto<quant_type INT8_ASYM>} : (!pto.tile_buf<vec, 16x64xf32>, !pto.tile_buf<vec, 16x8xf32, valid=16x1>, !pto.tile_buf<vec, 16x8xf32, valid=16x1>, !pto.tile_buf<vec, TMPxf32>) -> !pto.tile_buf<vec, 16x64xui8>
  pto.tstore ins(%ty : !pto.tile_buf<vec, 16x64xui8>) outs(%yv : !pto.tensor_view<?x?xui8>)
  return
}
)";

TEST(TquantText, Int8AsymmetricWithTmpGivesTheReference)
{
    const as::ParseResult parsed = as::parse(filled(kInt8Program, {{"TMP", "16x64"}}), "tquant.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A2A3);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::mt19937 rng(9);
    std::vector<float> x(16 * 64), s(16), o(16);
    std::vector<uint8_t> y(16 * 64);
    for (auto& v : x) v = std::uniform_real_distribution<float>(-400.0f, 400.0f)(rng);
    for (int r = 0; r < 16; ++r) {
        s[std::size_t(r)] = float(int(rng() % 100) + 1) / 64.0f;
        o[std::size_t(r)] = float(int(rng() % 256));
    }
    const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("s", s), argument("o", o), argument("y", y)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int i = 0; i < 16 * 64; ++i)
        ASSERT_EQ(int(y[std::size_t(i)]), test::tquant::int8_of(x[std::size_t(i)], s[std::size_t(i / 64)], o[std::size_t(i / 64)], true)) << i;
}

TEST(TquantText, IllegalCasesNameTheirRulePerTarget)
{
    const std::string ocp_fp8 = "{mx_alg = #pto<mx_alg OcpMxFp8E4M3>}";
    // MX is an a5 instruction: a2a3 has none.
    EXPECT_EQ(codes(filled(kMxProgram, {{"SRC", "f32"}, {"DST", "i8"}, {"ATTRS", ocp_fp8}}), profile::Target::A2A3),
              std::vector<std::string>{"LEGAL_TQUANT_FORM"});
    // MXFP4 quantises f16 and bf16 only.
    EXPECT_EQ(codes(filled(kMxProgram, {{"SRC", "f32"}, {"DST", "f4e2m1x2"}, {"ATTRS", "{mx_alg = #pto<mx_alg NvMxFp4E2M1>}"}}),
                    profile::Target::A5),
              std::vector<std::string>{"LEGAL_TQUANT_DTYPE"});
    // Grouped down the columns, src's 32 rows are fine; no mode at all is not.
    EXPECT_TRUE(codes(filled(kMxProgram, {{"SRC", "f16"}, {"DST", "i8"}, {"ATTRS", "{mx_alg = #pto<mx_alg OcpMxFp8E4M3>, grp_axis = 0 : i32}"}}),
                      profile::Target::A5)
                    .empty());
    // Interleaved exponents pair row groups: grouped down the columns only, src's rows in 64s (and this
    // exp, 128 bytes, is too small for the 2 x 128 interleaved exponents).
    EXPECT_EQ(codes(filled(kMxProgram, {{"SRC", "f16"}, {"DST", "i8"}, {"ATTRS", "{mx_alg = #pto<mx_alg OcpMxFp8E4M3>, interleave = true}"}}),
                    profile::Target::A5),
              std::vector<std::string>{"LEGAL_TQUANT_MODE"});
    EXPECT_EQ(codes(filled(kMxProgram, {{"SRC", "f16"}, {"DST", "i8"}, {"ATTRS", "{mx_alg = #pto<mx_alg OcpMxFp8E4M3>, grp_axis = 0 : i32, interleave = true}"}}),
                    profile::Target::A5),
              (std::vector<std::string>{"LEGAL_TQUANT_SHAPE", "RUN_VALID_SHAPE", "RUN_VALID_SHAPE"}));
    EXPECT_EQ(codes(filled(kMxProgram, {{"SRC", "f16"}, {"DST", "i8"}, {"ATTRS", ""}}), profile::Target::Cpu),
              std::vector<std::string>{"LEGAL_TQUANT_MODE"});
    EXPECT_EQ(codes(filled(kMxProgram, {{"SRC", "f16"}, {"DST", "i8"}, {"ATTRS", "{quant_type = #pto<quant_type INT8_SYM>}"}}),
                    profile::Target::Cpu),
              std::vector<std::string>{"LEGAL_TQUANT_MODE"});
    // On a2a3 the int8 tmp is f32 the size of src.
    EXPECT_EQ(codes(filled(kInt8Program, {{"TMP", "16x8"}}), profile::Target::A2A3), std::vector<std::string>{"LEGAL_TQUANT_TMP"});
    EXPECT_TRUE(codes(filled(kInt8Program, {{"TMP", "16x8"}}), profile::Target::A5).empty());
}

}  // namespace
