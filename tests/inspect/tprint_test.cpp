// TPRINT's exact text for tiles (full and partial valid regions, every format, floats and integers) and
// global tensors, through the intrinsic (captured standard output) and PTO-AS; its rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

TEST(Tprint, PartialFloatTileMarksTheValidRegion)
{
    Tile<TileType::Vec, float, 3, 8, BLayout::RowMajor, DYNAMIC, DYNAMIC> t(2, 3);
    for (int i = 0; i < 24; ++i) t.SetValue(uint32_t(i), float(i) * 0.5f - 1.0f);
    testing::internal::CaptureStdout();
    TPRINT(t);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(out,
              "TPRINT 3x8 Vec f32, valid 2x3\n"
              "  -1.0000  -0.5000   0.0000 |   0.5000   1.0000   1.5000   2.0000   2.5000\n"
              "   3.0000   3.5000   4.0000 |   4.5000   5.0000   5.5000   6.0000   6.5000\n"
              "----\n"
              "   7.0000   7.5000   8.0000 |   8.5000   9.0000   9.5000  10.0000  10.5000\n");
}

TEST(Tprint, IntegersHalvesAndFormats)
{
    Tile<TileType::Vec, int16_t, 1, 16> ints;
    for (int i = 0; i < 16; ++i) ints.SetValue(uint32_t(i), int16_t(i * 1000 - 8000));
    testing::internal::CaptureStdout();
    TPRINT<PrintFormat::Width10_Precision6>(ints);
    std::string want = "TPRINT 1x16 Vec i16, valid 1x16\n";
    char cell[32];
    for (int i = 0; i < 16; ++i) {
        std::snprintf(cell, sizeof cell, " %10d", i * 1000 - 8000);
        want += cell;
    }
    EXPECT_EQ(testing::internal::GetCapturedStdout(), want + "\n");
    Tile<TileType::Vec, half, 1, 16> halves;
    for (int i = 0; i < 16; ++i) halves.SetValue(uint32_t(i), half(float(i) / 3.0f));
    EXPECT_EQ(engine::format_tile(halves.desc(), PrintFormat::Width8_Precision2).substr(0, 50),
              "TPRINT 1x16 Vec f16, valid 1x16\n     0.00     0.33");
}

TEST(Tprint, GlobalTensorsPrintTheirView)
{
    std::vector<int32_t> data(12);
    for (int i = 0; i < 12; ++i) data[size_t(i)] = i;
    GlobalTensor<int32_t, Shape<1, 1, 1, 3, 4>, Stride<1, 1, 1, 4, 1>> g(data.data());
    testing::internal::CaptureStdout();
    TPRINT(g);
    EXPECT_EQ(testing::internal::GetCapturedStdout(),
              "TPRINT 3x4 GM i32\n"
              "        0        1        2        3\n"
              "        4        5        6        7\n"
              "        8        9       10       11\n");
}

TEST(Tprint, AccumulatorsNeedAGlobalTmp)
{
    TileAcc<float, 16, 16> acc;
    for (int i = 0; i < 256; ++i) acc.SetValue(uint32_t(i), 1.0f);
    std::vector<float> staging(256), small(16);
    GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> tmp(staging.data());
    GlobalTensor<float, Shape<1, 1, 1, 1, 16>, Stride<1, 1, 1, 16, 1>> too_small(small.data());
    testing::internal::CaptureStdout();
    TPRINT(acc, tmp);
    EXPECT_EQ(testing::internal::GetCapturedStdout().substr(0, 33), "TPRINT 16x16 Acc f32, valid 16x16");
    EXPECT_EQ(diagnostic_of([&] { TPRINT(acc, too_small); }).code, "RUN_VALID_SHAPE");
    engine::FirstFinding finding;
    engine::check_tprint(profile::profile_of(profile::Target::A5), Tile<TileType::Mat, float, 16, 16>().desc(), nullptr, finding, true);
    EXPECT_EQ(finding.first.code, "LEGAL_TPRINT_LOCATION");
}

TEST(TprintText, PrintsTheSameText)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %xv = pto.make_tensor_view %x, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 1x8xf32>)
  pto.tprint ins(%tx : !pto.tile_buf<vec, 1x8xf32>) {format = #pto<print_format Width8_Precision2>}
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "print.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A5);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8.125f};
    testing::internal::CaptureStdout();
    const as::RunResult r = as::run(parsed.module, {argument("x", x)}, {});
    const std::string out = testing::internal::GetCapturedStdout();
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    EXPECT_EQ(out, "TPRINT 1x8 Vec f32, valid 1x8\n     1.00     2.00     3.00     4.00     5.00     6.00     7.00     8.12\n");
}

}  // namespace
