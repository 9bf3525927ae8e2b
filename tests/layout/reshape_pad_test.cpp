// TRESHAPE (the bytes, reread) and TFILLPAD in its three forms (the valid region copied, the rest of dst's
// capacity padded with dst's pad value) against plain loops; both doors; the rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
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

TEST(Treshape, ViewsTheSameBytes)
{
    Tile<TileType::Vec, float, 8, 32> src;
    Tile<TileType::Vec, int16_t, 16, 32> as_halves;
    Tile<TileType::Vec, uint8_t, 1, 1024> as_bytes;
    std::mt19937 rng(1);
    for (int i = 0; i < 8 * 32; ++i) src.SetValue(uint32_t(i), std::bit_cast<float>(uint32_t(rng())));
    TRESHAPE(as_halves, src);
    TRESHAPE(as_bytes, as_halves);
    EXPECT_EQ(0, std::memcmp(as_bytes.data(), src.data(), 1024));
    EXPECT_EQ(reinterpret_cast<void*>(as_halves.data()), reinterpret_cast<void*>(src.data()));
    src.SetValue(0, 1.0f);  // one buffer: a write through src shows through the views
    EXPECT_EQ(as_bytes.GetValue(3), 0x3f);
}

template <typename T, PadValue Pad, TFillPadMode Mode, int DR, int DC, int SR, int SC>
void expect_fillpad(uint32_t seed)
{
    using Dst = Tile<TileType::Vec, T, DR, DC, BLayout::RowMajor, DR, DC, SLayout::NoneBox, 512, Pad>;
    using Src = Tile<TileType::Vec, T, SR, SC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 6; ++trial) {
        const int rows = 1 + int(rng() % SR), cols = 1 + int(rng() % SC);
        Src src(rows, cols);
        Dst dst;
        for (int i = 0; i < SR * SC; ++i) src.SetValue(uint32_t(i), T(float(int(rng() % 100) - 50)));
        TFILLPAD<Mode>(dst, src);
        T pad;
        if constexpr (Pad == PadValue::Zero) pad = T(0);
        else if constexpr (std::is_integral_v<T>) pad = Pad == PadValue::Max ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
        else pad = T(Pad == PadValue::Max ? INFINITY : -INFINITY);
        for (int r = 0; r < DR; ++r)
            for (int c = 0; c < DC; ++c) {
                const T want = r < rows && c < cols ? src.GetValue(uint32_t(r * SC + c)) : pad;
                const T got = dst.GetValue(uint32_t(r * DC + c));
                ASSERT_EQ(std::memcmp(&got, &want, sizeof(T)), 0) << r << "," << c;
            }
    }
}

TEST(Tfillpad, EveryFormEveryPad)
{
    expect_fillpad<float, PadValue::Min, TFillPadMode::Normal, 16, 32, 16, 32>(1);
    expect_fillpad<half, PadValue::Max, TFillPadMode::Normal, 16, 32, 16, 32>(2);
    expect_fillpad<int32_t, PadValue::Zero, TFillPadMode::Expand, 24, 64, 16, 32>(3);
    expect_fillpad<int8_t, PadValue::Min, TFillPadMode::Expand, 8, 64, 4, 32>(4);
    expect_fillpad<uint16_t, PadValue::Max, TFillPadMode::InPlace, 8, 32, 8, 32>(5);
}

TEST(Tfillpad, InPlaceOnOneTile)
{
    Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC, SLayout::NoneBox, 512, PadValue::Max> t(3, 5);
    for (int i = 0; i < 128; ++i) t.SetValue(uint32_t(i), float(i));
    TFILLPAD_INPLACE(t, t);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 16; ++c) ASSERT_EQ(t.GetValue(uint32_t(r * 16 + c)), r < 3 && c < 5 ? float(r * 16 + c) : INFINITY);
}

TEST(Tfillpad, MatTilesPadWithZeros)
{
    using Nz = Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor>;
    Nz src(20, 10), dst(20, 10);
    for (int i = 0; i < 32 * 32; ++i) src.SetValue(uint32_t(i), half(float(i % 97)));
    TFILLPAD(dst, src);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            const auto at = uint32_t(GetTileOffset<Nz>(r, c));
            ASSERT_EQ(dst.GetValue(at).bits, (r < 20 && c < 10 ? src.GetValue(at) : half(0.0f)).bits) << r << "," << c;
        }
}

TEST(LayoutRules, ReshapeAndPadCodes)
{
    Tile<TileType::Vec, float, 8, 32> f;
    Tile<TileType::Vec, float, 8, 16> small;
    Tile<TileType::Mat, float, 8, 32> mat;
    Tile<TileType::Vec, float, 8, 32, BLayout::RowMajor, 8, 32, SLayout::NoneBox, 512, PadValue::Null> null_pad;
    const auto code = [](auto check) {
        engine::FirstFinding finding;
        check(finding);
        return finding.found ? finding.first.code : std::string("none");
    };
    const auto cpu = profile::profile_of(profile::Target::Cpu);
    EXPECT_EQ(code([&](auto& s) { engine::check_treshape(cpu, small.desc(), f.desc(), s); }), "LEGAL_TRESHAPE_SIZE");
    EXPECT_EQ(code([&](auto& s) { engine::check_treshape(cpu, mat.desc(), f.desc(), s); }), "LEGAL_TRESHAPE_LOCATION");
    EXPECT_EQ(code([&](auto& s) { engine::check_tfillpad(cpu, null_pad.desc(), f.desc(), TFillPadMode::Normal, PadValue::Null, s); }),
              "LEGAL_TFILLPAD_PAD");
    EXPECT_EQ(code([&](auto& s) { engine::check_tfillpad(cpu, small.desc(), f.desc(), TFillPadMode::Expand, PadValue::Zero, s); }),
              "LEGAL_TFILLPAD_SHAPE");
    EXPECT_EQ(code([&](auto& s) { engine::check_tfillpad(cpu, mat.desc(), mat.desc(), TFillPadMode::Normal, PadValue::Zero, s); }),
              "LEGAL_TFILLPAD_LOCATION");
}

TEST(LayoutText, FillpadRuns)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %xv = pto.make_tensor_view %x, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, valid=5x7>
  %ty = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=2>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 8x16xf32, valid=5x7>)
  pto.tfillpad ins(%tx : !pto.tile_buf<vec, 8x16xf32, valid=5x7>) outs(%ty : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=2>)
  pto.tstore ins(%ty : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=2>) outs(%yv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "pad.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A5);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::vector<float> x(128), y(128);
    for (int i = 0; i < 128; ++i) x[size_t(i)] = float(i);
    const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("y", y)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int row = 0; row < 8; ++row)
        for (int c = 0; c < 16; ++c) {
            const float got = y[size_t(row * 16 + c)];
            if (row < 5 && c < 7) EXPECT_EQ(got, float(row * 16 + c));
            else EXPECT_TRUE(std::isinf(got)) << row << "," << c << " " << got;
        }
}

}  // namespace
