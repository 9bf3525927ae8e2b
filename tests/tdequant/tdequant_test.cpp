// TDEQUANT: dst(r, c) = (src(r, c) - offset(r)) * scale(r), against a plain reference loop, through the
// C++ intrinsic (int8 and int16 sources, random partial valid regions) and from PTO-AS text; its
// illegal cases with their codes.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

constexpr int kRows = 16, kCols = 64;
constexpr float kUntouched = -12345.0f;

// The reference: each step rounded to float, as the instruction computes.
float reference(double x, float offset, float scale) { return float(double(float(x - double(offset))) * double(scale)); }

template <typename T>
void expect_dequant(uint32_t seed)
{
    using Dst = Tile<TileType::Vec, float, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Src = Tile<TileType::Vec, T, kRows, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Para = Tile<TileType::Vec, float, kRows, 1, BLayout::ColMajor>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 10; ++trial) {
        const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
        Dst dst(rows, cols);
        Src src(rows, cols);
        Para scale, offset;
        std::uniform_int_distribution<int> value(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
        std::uniform_real_distribution<float> real(-4.0f, 4.0f);
        for (int i = 0; i < kRows * kCols; ++i) {
            src.SetValue(i, T(value(rng)));
            dst.SetValue(i, kUntouched);
        }
        for (int r = 0; r < kRows; ++r) {
            scale.SetValue(r, real(rng));
            offset.SetValue(r, real(rng) * 10.0f);
        }
        TDEQUANT(dst, src, scale, offset);
        for (int r = 0; r < kRows; ++r)
            for (int c = 0; c < kCols; ++c) {
                const int i = r * kCols + c;
                if (r < rows && c < cols)
                    ASSERT_EQ(dst.GetValue(i), reference(double(src.GetValue(i)), offset.GetValue(r), scale.GetValue(r)))
                        << r << "," << c;
                else
                    ASSERT_EQ(dst.GetValue(i), kUntouched) << "outside the valid region at " << r << "," << c;
            }
    }
}

TEST(Tdequant, Int8MatchesTheReference) { expect_dequant<int8_t>(1); }
TEST(Tdequant, Int16MatchesTheReference) { expect_dequant<int16_t>(2); }

TEST(Tdequant, ScaleWithTooFewRowsIsRunValidShape)
{
    using Dst = Tile<TileType::Vec, float, 16, 64>;
    using Src = Tile<TileType::Vec, int8_t, 16, 64>;
    using Para = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, DYNAMIC, 1>;
    Dst dst;
    Src src;
    Para scale(8), offset(16);
    for (int i = 0; i < 16 * 64; ++i) src.SetValue(i, int8_t(i));
    const Diagnostic d = diagnostic_of([&] { TDEQUANT(dst, src, scale, offset); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "scale");
}

const char* kProgram = R"(func.func @f(%x: !pto.ptr<SRC>, %s: !pto.ptr<f32>, %o: !pto.ptr<f32>, %y: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %xv = pto.make_tensor_view %x, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xSRC>
  %sv = pto.make_tensor_view %s, shape = [%c16, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>
  %ov = pto.make_tensor_view %o, shape = [%c16, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 16x64xSRC>
  %ts = pto.alloc_tile : !pto.tile_buf<vec, 16x8xf32, valid=16x1>
  %to = pto.alloc_tile : !pto.tile_buf<vec, 16x8xf32, valid=16x1>
  pto.tload ins(%xv : !pto.tensor_view<?x?xSRC>) outs(%tx : !pto.tile_buf<vec, 16x64xSRC>)
  pto.tload ins(%sv : !pto.tensor_view<?x?xf32>) outs(%ts : !pto.tile_buf<vec, 16x8xf32, valid=16x1>)
  pto.tload ins(%ov : !pto.tensor_view<?x?xf32>) outs(%to : !pto.tile_buf<vec, 16x8xf32, valid=16x1>)
  %ty = pto.tdequant %tx, %ts, %to : (!pto.tile_buf<vec, 16x64xSRC>, !pto.tile_buf<vec, 16x8xf32, valid=16x1>, !pto.tile_buf<vec, 16x8xf32, valid=16x1>) -> !pto.tile_buf<vec, 16x64xf32>
  pto.tstore ins(%ty : !pto.tile_buf<vec, 16x64xf32>) outs(%yv : !pto.tensor_view<?x?xf32>)
  return
}
)";

std::string program(const std::string& src_type)
{
    std::string text = kProgram;
    for (std::size_t at; (at = text.find("SRC")) != std::string::npos;) text.replace(at, 3, src_type);
    return text;
}

TEST(Tdequant, PtoAsGivesTheReference)
{
    const as::ParseResult parsed = as::parse(program("i16"), "tdequant.pto");
    ASSERT_TRUE(parsed.ok());
    ASSERT_TRUE(as::verify(parsed.module, profile::Target::A2A3).empty());
    std::mt19937 rng(5);
    std::vector<int16_t> x(16 * 64);
    std::vector<float> s(16), o(16), y(16 * 64, 0.0f);
    for (auto& v : x) v = int16_t(rng());
    for (int r = 0; r < 16; ++r) {
        s[std::size_t(r)] = float(int(rng() % 200) - 100) / 16.0f;
        o[std::size_t(r)] = float(int(rng() % 200) - 100) / 4.0f;
    }
    auto arg = [](const char* name, auto& v) {
        as::ArgumentBinding b;
        b.name = name;
        b.data = reinterpret_cast<std::byte*>(v.data());
        b.bytes = v.size() * sizeof(v[0]);
        return b;
    };
    as::RunOptions checked;
    checked.checked = true;
    const as::RunResult r = as::run(parsed.module, {arg("x", x), arg("s", s), arg("o", o), arg("y", y)}, checked);
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int i = 0; i < 16 * 64; ++i)
        ASSERT_EQ(y[std::size_t(i)], reference(x[std::size_t(i)], o[std::size_t(i / 64)], s[std::size_t(i / 64)])) << i;
}

TEST(Tdequant, AnIntegerThatIsNotInt8OrInt16IsLegalTdequantDtype)
{
    const as::ParseResult parsed = as::parse(program("i32"), "tdequant.pto");
    ASSERT_TRUE(parsed.ok());
    const auto found = as::verify(parsed.module, profile::Target::Cpu);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].code, "LEGAL_TDEQUANT_DTYPE");
}

}  // namespace
