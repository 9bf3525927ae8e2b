// THISTOGRAM: every byte pass of u16 and u32 sources, with their cascaded filters, against a plain
// counting loop; both doors; the rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/asm_arguments.hpp"
#include "support/rule_codes.hpp"
#include "support/test_support.hpp"
#include "support/text_program.hpp"

using namespace pto;
using namespace pto::test;

namespace {

uint32_t byte_of(uint32_t v, int k) { return (v >> (8 * k)) & 0xFFu; }

// The cumulative histogram of byte k over the elements `keep` accepts.
template <typename Keep>
std::vector<uint32_t> cumulative(const std::vector<uint32_t>& row, int k, Keep keep)
{
    std::vector<uint32_t> out(256, 0);
    for (uint32_t v : row)
        if (keep(v))
            for (uint32_t b = byte_of(v, k); b < 256; ++b) ++out[b];
    return out;
}

template <HistByte Byte>
void expect_u32_pass(uint32_t seed)
{
    constexpr int k = int(Byte), filters = 3 - k;
    using Src = Tile<TileType::Vec, uint32_t, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, uint32_t, 8, 256>;
    using Idx = Tile<TileType::Vec, uint8_t, 4, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    const int rows = 1 + int(rng() % 8), cols = 1 + int(rng() % 64);
    Src src(rows, cols);
    Idx idx(filters > 0 ? filters : 1, cols);
    Dst dst;
    // Few distinct high bytes, so that a filter keeps a good share of each row.
    for (int i = 0; i < 8 * 64; ++i) src.SetValue(uint32_t(i), (uint32_t(rng() % 3) * 0x01010100u) | (rng() & 0xFFu) | (rng() & 0x00010100u));
    const uint32_t model = src.GetValue(0);
    for (int f = 0; f < 4; ++f)
        for (int c = 0; c < 64; ++c) idx.SetValue(uint32_t(f * 64 + c), uint8_t(byte_of(model, 3 - f)));
    THISTOGRAM<Byte>(dst, src, idx);
    for (int r = 0; r < rows; ++r) {
        std::vector<uint32_t> row;
        for (int c = 0; c < cols; ++c) row.push_back(src.GetValue(uint32_t(r * 64 + c)));
        const auto want = cumulative(row, k, [&](uint32_t v) {
            for (int f = 0; f < filters; ++f)
                if (byte_of(v, 3 - f) != byte_of(model, 3 - f)) return false;
            return true;
        });
        for (int b = 0; b < 256; ++b) ASSERT_EQ(dst.GetValue(uint32_t(r * 256 + b)), want[size_t(b)]) << "byte " << k << " row " << r << " bin " << b;
    }
}

TEST(Thistogram, U32EveryBytePass)
{
    expect_u32_pass<HistByte::BYTE_3>(1);
    expect_u32_pass<HistByte::BYTE_2>(2);
    expect_u32_pass<HistByte::BYTE_1>(3);
    expect_u32_pass<HistByte::BYTE_0>(4);
}

TEST(Thistogram, U16BothBytesWithAMatchBytePerRow)
{
    using Src = Tile<TileType::Vec, uint16_t, 6, 128, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, uint32_t, 6, 256>;
    using Idx = Tile<TileType::Vec, uint8_t, 32, 1, BLayout::ColMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(5);
    Src src(5, 100);
    Idx idx(5, 1);
    Dst high, low;
    for (int i = 0; i < 6 * 128; ++i) src.SetValue(uint32_t(i), uint16_t(((rng() % 4) << 8) | (rng() & 0xFF)));
    for (int r = 0; r < 32; ++r) idx.SetValue(uint32_t(r), uint8_t(r % 4));
    THISTOGRAM<HistByte::BYTE_1>(high, src, idx);
    THISTOGRAM<HistByte::BYTE_0>(low, src, idx);
    for (int r = 0; r < 5; ++r) {
        std::vector<uint32_t> row;
        for (int c = 0; c < 100; ++c) row.push_back(src.GetValue(uint32_t(r * 128 + c)));
        const auto want_high = cumulative(row, 1, [](uint32_t) { return true; });
        const auto want_low = cumulative(row, 0, [&](uint32_t v) { return byte_of(v, 1) == uint32_t(r % 4); });
        for (int b = 0; b < 256; ++b) {
            ASSERT_EQ(high.GetValue(uint32_t(r * 256 + b)), want_high[size_t(b)]) << r << "," << b;
            ASSERT_EQ(low.GetValue(uint32_t(r * 256 + b)), want_low[size_t(b)]) << r << "," << b;
        }
        EXPECT_EQ(high.GetValue(uint32_t(r * 256 + 255)), 100u);
    }
}

TEST(Thistogram, Rules)
{
    Tile<TileType::Vec, uint32_t, 2, 256> dst;
    Tile<TileType::Vec, uint16_t, 2, 64> u16;
    Tile<TileType::Vec, uint32_t, 2, 64> u32;
    Tile<TileType::Vec, int32_t, 2, 64> i32;
    Tile<TileType::Vec, uint8_t, 32, 1, BLayout::ColMajor> dn;
    Tile<TileType::Vec, uint8_t, 3, 64> rows;
    Tile<TileType::Vec, uint32_t, 2, 128> narrow;
    using engine::check_thistogram;
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { check_thistogram(p, dst.desc(), u16.desc(), dn.desc(), HistByte::BYTE_0, s); }), "none");
    EXPECT_EQ(first_code_on(profile::Target::A2A3, [&](auto& p, auto& s) { check_thistogram(p, dst.desc(), u16.desc(), dn.desc(), HistByte::BYTE_0, s); }),
              "LEGAL_THISTOGRAM_TARGET");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { check_thistogram(p, dst.desc(), u16.desc(), dn.desc(), HistByte::BYTE_2, s); }),
              "LEGAL_THISTOGRAM_BYTE");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { check_thistogram(p, dst.desc(), i32.desc(), rows.desc(), HistByte::BYTE_0, s); }),
              "LEGAL_THISTOGRAM_DTYPE");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { check_thistogram(p, dst.desc(), u16.desc(), rows.desc(), HistByte::BYTE_0, s); }),
              "LEGAL_THISTOGRAM_LAYOUT");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { check_thistogram(p, narrow.desc(), u32.desc(), rows.desc(), HistByte::BYTE_0, s); }),
              "RUN_VALID_SHAPE");
}

TEST(ThistogramText, U32PassRuns)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<ui32>, %i: !pto.ptr<ui8>, %y: !pto.ptr<ui32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %xv = pto.make_tensor_view %x, shape = [%c2, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui32>
  %iv = pto.make_tensor_view %i, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui8>
  %yv = pto.make_tensor_view %y, shape = [%c2, %c256], strides = [%c256, %c1] : !pto.tensor_view<?x?xui32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 2x32xui32>
  %ti = pto.alloc_tile : !pto.tile_buf<vec, 1x32xui8>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 2x256xui32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xui32>) outs(%tx : !pto.tile_buf<vec, 2x32xui32>)
  pto.tload ins(%iv : !pto.tensor_view<?x?xui8>) outs(%ti : !pto.tile_buf<vec, 1x32xui8>)
  pto.thistogram ins(%tx, %ti : !pto.tile_buf<vec, 2x32xui32>, !pto.tile_buf<vec, 1x32xui8>) outs(%ty : !pto.tile_buf<vec, 2x256xui32>) {byte = #pto.hist_byte<BYTE_2>}
  pto.tstore ins(%ty : !pto.tile_buf<vec, 2x256xui32>) outs(%yv : !pto.tensor_view<?x?xui32>)
  return
}
)";
    std::vector<uint32_t> x(64), y(512);
    std::vector<uint8_t> idx(32, 0x11);
    std::mt19937 rng(9);
    for (auto& v : x) v = ((rng() % 2) ? 0x11000000u : 0x22000000u) | (rng() & 0x00FFFFFFu);
    const as::RunResult r = run_verified(program, "hist.pto", {argument("x", x), argument("i", idx), argument("y", y)});
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    for (int row = 0; row < 2; ++row) {
        std::vector<uint32_t> values(x.begin() + row * 32, x.begin() + row * 32 + 32);
        const auto want = cumulative(values, 2, [](uint32_t v) { return byte_of(v, 3) == 0x11u; });
        for (int b = 0; b < 256; ++b) ASSERT_EQ(y[size_t(row * 256 + b)], want[size_t(b)]) << row << "," << b;
    }
}

}  // namespace
