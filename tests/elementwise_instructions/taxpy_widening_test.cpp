// TAXPY's widening form: an f16 src0 and scalar accumulated into an f32 dst, dst = scalar * src0 + dst with
// one rounding (the f16 product is exact in f32), through the intrinsic and from PTO-AS text; the other
// mixed pairs stay LEGAL_ELEMWISE_DTYPE on every target.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

constexpr int kRows = 8, kCols = 64;

float reference(float x, float a, float y) { return float(double(x) * double(a)) + y; }

TEST(TaxpyWidening, HalfIntoFloatMatchesTheReference)
{
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    const float specials[] = {std::numeric_limits<float>::infinity(), -0.0f, std::numeric_limits<float>::quiet_NaN(),
                              6e-8f, 65504.0f};
    for (int trial = 0; trial < 20; ++trial) {
        const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
        Tile<TileType::Vec, float, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC> dst(rows, cols);
        Tile<TileType::Vec, half, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC> src(rows, cols);
        std::vector<float> old(kRows * kCols);
        for (int i = 0; i < kRows * kCols; ++i) {
            src.SetValue(uint32_t(i), half(rng() % 16 == 0 ? specials[rng() % 5] : dist(rng)));
            dst.SetValue(uint32_t(i), rng() % 16 == 0 ? specials[rng() % 5] : dist(rng) * 1000.0f);
            old[std::size_t(i)] = dst.GetValue(uint32_t(i));
        }
        const half a(dist(rng) / 8.0f);
        TAXPY(dst, src, a);
        for (int r = 0; r < kRows; ++r)
            for (int c = 0; c < kCols; ++c) {
                const int i = r * kCols + c;
                const float expected = r < rows && c < cols ? reference(float(src.GetValue(uint32_t(i))), float(a), old[std::size_t(i)])
                                                            : old[std::size_t(i)];
                if (std::isnan(expected)) ASSERT_TRUE(std::isnan(dst.GetValue(uint32_t(i)))) << r << "," << c;
                else ASSERT_EQ(dst.GetValue(uint32_t(i)), expected) << r << "," << c;
            }
    }
}

TEST(TaxpyWidening, ReadingAnUnwrittenDstIsReportedInCheckedMode)
{
    ScopedChecked checked;
    Tile<TileType::Vec, float, kRows, kCols> dst;
    Tile<TileType::Vec, half, kRows, kCols> src;
    for (int i = 0; i < kRows * kCols; ++i) src.SetValue(uint32_t(i), half(1.0f));
    const Diagnostic d = diagnostic_of([&] { TAXPY(dst, src, half(2.0f)); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.operand, "dst");
}

const char* kProgram = R"(func.func @f(%x: !pto.ptr<SRC>, %y: !pto.ptr<DST>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %k = arith.constant 1.5 : SRC
  %xv = pto.make_tensor_view %x, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xSRC>
  %yv = pto.make_tensor_view %y, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xDST>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 8x64xSRC>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 8x64xDST>
  pto.tload ins(%xv : !pto.tensor_view<?x?xSRC>) outs(%tx : !pto.tile_buf<vec, 8x64xSRC>)
  pto.tload ins(%yv : !pto.tensor_view<?x?xDST>) outs(%ty : !pto.tile_buf<vec, 8x64xDST>)
  pto.taxpy ins(%tx, %k : !pto.tile_buf<vec, 8x64xSRC>, SRC) outs(%ty : !pto.tile_buf<vec, 8x64xDST>)
  pto.tstore ins(%ty : !pto.tile_buf<vec, 8x64xDST>) outs(%yv : !pto.tensor_view<?x?xDST>)
  return
}
)";

std::string program(const std::string& src, const std::string& dst)
{
    std::string text = kProgram;
    for (std::size_t at; (at = text.find("SRC")) != std::string::npos;) text.replace(at, 3, src);
    for (std::size_t at; (at = text.find("DST")) != std::string::npos;) text.replace(at, 3, dst);
    return text;
}

TEST(TaxpyWidening, PtoAsGivesTheReferenceOnEveryTarget)
{
    const as::ParseResult parsed = as::parse(program("f16", "f32"), "taxpy.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    for (profile::Target t : {profile::Target::Cpu, profile::Target::A2A3, profile::Target::A5}) {
        const auto found = as::verify(parsed.module, t);
        ASSERT_TRUE(found.empty()) << found[0].format();
    }
    std::vector<half> x(kRows * kCols);
    std::vector<float> y(kRows * kCols), old(kRows * kCols);
    for (int i = 0; i < kRows * kCols; ++i) {
        x[std::size_t(i)] = half(float(i % 77) * 0.37f - 9.0f);
        y[std::size_t(i)] = old[std::size_t(i)] = float(i) * 1.01f - 100.0f;
    }
    auto arg = [](const char* name, auto& v) {
        as::ArgumentBinding b;
        b.name = name;
        b.data = reinterpret_cast<std::byte*>(v.data());
        b.bytes = v.size() * sizeof(v[0]);
        return b;
    };
    const as::RunResult r = as::run(parsed.module, {arg("x", x), arg("y", y)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int i = 0; i < kRows * kCols; ++i)
        ASSERT_EQ(y[std::size_t(i)], reference(float(x[std::size_t(i)]), 1.5f, old[std::size_t(i)])) << i;
}

TEST(TaxpyWidening, AFloatSourceIntoAHalfDstIsLegalElemwiseDtype)
{
    const as::ParseResult parsed = as::parse(program("f32", "f16"), "taxpy.pto");
    ASSERT_TRUE(parsed.ok());
    for (profile::Target t : {profile::Target::Cpu, profile::Target::A2A3, profile::Target::A5}) {
        const auto found = as::verify(parsed.module, t);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].code, "LEGAL_ELEMWISE_DTYPE");
    }
}

}  // namespace
