// TSCATTER (index and mask-pattern forms) and TGATHERB against plain loops over random data and shapes,
// both doors, and their rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstring>
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

template <typename T>
T random_value(std::mt19937& rng)
{
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
        return T(std::uniform_real_distribution<float>(-50.0f, 50.0f)(rng));
    else return T(rng() | 1u);  // never zero, so a cleared element shows
}

template <typename T>
bool same_bits(T a, T b)
{
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
bool is_zero(T v)
{
    T zero{};
    std::memset(&zero, 0, sizeof zero);
    return same_bits(v, zero);
}

// ---- index form ------------------------------------------------------------------------------------------

template <typename T, typename I, int R, int C>
void expect_index_scatter(uint32_t seed)
{
    using Data = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Index = Tile<TileType::Vec, I, R, 32 / sizeof(I) * ((C * int(sizeof(I)) + 31) / 32), BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 5; ++trial) {
        const int rows = 1 + int(rng() % R), cols = 1 + int(rng() % C);
        Data src(rows, cols), dst(R, C);
        Index idx(rows, cols);
        for (int i = 0; i < R * C; ++i) {
            src.SetValue(uint32_t(i), random_value<T>(rng));
            dst.SetValue(uint32_t(i), random_value<T>(rng));
        }
        // A permutation of part of dst's capacity, with some repeated indices: the later one wins.
        std::vector<I> want_from(size_t(R * C), I(-1));
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) idx.SetValue(uint32_t(i * Index::Cols + j), I(rng() % uint32_t(R * C)));
        std::vector<T> want(size_t(R * C));
        std::memset(want.data(), 0, want.size() * sizeof(T));
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) want[size_t(idx.GetValue(uint32_t(i * Index::Cols + j)))] = src.GetValue(uint32_t(i * C + j));
        TSCATTER(dst, src, idx);
        for (int k = 0; k < R * C; ++k) ASSERT_TRUE(same_bits(dst.GetValue(uint32_t(k)), want[size_t(k)])) << k;
    }
}

TEST(Tscatter, IndexFormEveryWidth)
{
    expect_index_scatter<float, uint32_t, 8, 16>(1);
    expect_index_scatter<int32_t, int32_t, 4, 32>(2);
    expect_index_scatter<half, uint16_t, 6, 32>(3);
    expect_index_scatter<bfloat16_t, int16_t, 3, 16>(4);
    expect_index_scatter<int8_t, uint16_t, 4, 64>(5);
}

TEST(Tscatter, IndexPastTheCapacityIsAnError)
{
    Tile<TileType::Vec, float, 2, 8> src, dst;
    Tile<TileType::Vec, uint32_t, 2, 8> idx;
    for (int i = 0; i < 16; ++i) {
        src.SetValue(uint32_t(i), float(i));
        idx.SetValue(uint32_t(i), uint32_t(15 - i));
    }
    idx.SetValue(5, 16);
    const Diagnostic d = diagnostic_of([&] { TSCATTER(dst, src, idx); });
    EXPECT_EQ(d.code, "RUN_SCATTER_INDEX");
    EXPECT_TRUE(mentions(d, "(0, 5)")) << d.format();
}

// ---- mask-pattern form ------------------------------------------------------------------------------------

template <MaskPattern P, ScatterAxis Axis, typename T>
void expect_mask_scatter(uint32_t seed)
{
    constexpr int kFirst[] = {0, 0, 1, 0, 1, 2, 3, 0};  // by MaskPattern value
    constexpr int kStep[] = {1, 2, 2, 4, 4, 4, 4, 1};
    constexpr int first = kFirst[int(P)], step = kStep[int(P)];
    using Dst = Tile<TileType::Vec, T, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Src = Tile<TileType::Vec, T, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 4; ++trial) {
        const int dr = 1 + int(rng() % 16), dc = 1 + int(rng() % 32);
        const auto kept = [&](int extent) { return extent > first ? (extent - first + step - 1) / step : 0; };
        const bool rows = Axis == ScatterAxis::SCATTER_ROW;
        const int sr = rows ? dr : kept(dr), sc = rows ? kept(dc) : dc;
        if (sr == 0 || sc == 0) continue;
        Dst dst(dr, dc);
        Src src(sr, sc);
        for (int i = 0; i < 16 * 32; ++i) {
            src.SetValue(uint32_t(i), random_value<T>(rng));
            dst.SetValue(uint32_t(i), random_value<T>(rng));
        }
        TSCATTER<P, Axis>(dst, src);
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 32; ++c) {
                const int along = rows ? c : r;
                const bool hit = r < (rows ? sr : dr) && c < (rows ? dc : sc) && along >= first && (along - first) % step == 0 &&
                                 (along - first) / step < (rows ? sc : sr);
                const T got = dst.GetValue(uint32_t(r * 32 + c));
                if (hit) {
                    const T want = rows ? src.GetValue(uint32_t(r * 32 + (c - first) / step)) : src.GetValue(uint32_t((r - first) / step * 32 + c));
                    ASSERT_TRUE(same_bits(got, want)) << r << "," << c;
                } else {
                    ASSERT_TRUE(is_zero(got)) << r << "," << c;  // the whole capacity was cleared
                }
            }
    }
}

TEST(Tscatter, MaskFormEveryPatternBothAxes)
{
    for_each_constant<MaskPattern::P0101, MaskPattern::P1010, MaskPattern::P0001, MaskPattern::P0010, MaskPattern::P0100,
                      MaskPattern::P1000, MaskPattern::P1111>([](auto p) {
        expect_mask_scatter<decltype(p)::value, ScatterAxis::SCATTER_ROW, float>(uint32_t(decltype(p)::value));
        expect_mask_scatter<decltype(p)::value, ScatterAxis::SCATTER_COL, half>(10 + uint32_t(decltype(p)::value));
        expect_mask_scatter<decltype(p)::value, ScatterAxis::SCATTER_ROW, uint8_t>(20 + uint32_t(decltype(p)::value));
    });
}

TEST(Tscatter, MaskFormShapesMustMatchThePattern)
{
    Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> dst(4, 16), src(4, 7);
    for (int i = 0; i < 64; ++i) src.SetValue(uint32_t(i), 1.0f);
    EXPECT_EQ(diagnostic_of([&] { TSCATTER<MaskPattern::P0101>(dst, src); }).code, "RUN_VALID_SHAPE");  // 8 kept columns
}

// ---- TGATHERB ---------------------------------------------------------------------------------------------

template <typename T>
void expect_gatherb(uint32_t seed)
{
    constexpr int kBlock = 32 / int(sizeof(T));
    using Src = Tile<TileType::Vec, T, 8, 4 * kBlock>;
    using Dst = Tile<TileType::Vec, T, 6, 4 * kBlock, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Off = Tile<TileType::Vec, uint32_t, 6, 8, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    Src src;
    for (int i = 0; i < Src::Rows * Src::Cols; ++i) src.SetValue(uint32_t(i), random_value<T>(rng));
    for (int trial = 0; trial < 4; ++trial) {
        const int rows = 1 + int(rng() % 6), blocks = 1 + int(rng() % 4);
        Dst dst(rows, blocks * kBlock);
        Off off(rows, blocks);
        for (int r = 0; r < rows; ++r)
            for (int b = 0; b < blocks; ++b) off.SetValue(uint32_t(r * 8 + b), uint32_t(rng() % (8 * 4)) * 32);  // any block of src
        TGATHERB(dst, src, off);
        const auto* bytes = reinterpret_cast<const unsigned char*>(src.data());
        for (int r = 0; r < rows; ++r)
            for (int b = 0; b < blocks; ++b) {
                const uint32_t at = off.GetValue(uint32_t(r * 8 + b));
                ASSERT_EQ(0, std::memcmp(reinterpret_cast<const unsigned char*>(dst.data()) + (r * Dst::Cols + b * kBlock) * sizeof(T), bytes + at, 32))
                    << r << "," << b;
            }
    }
}

TEST(Tgatherb, BlocksAtByteOffsetsEveryWidth)
{
    expect_gatherb<float>(31);
    expect_gatherb<half>(32);
    expect_gatherb<int8_t>(33);
    expect_gatherb<uint32_t>(34);
}

TEST(Tgatherb, OffsetsPastTheSourceAreAnError)
{
    Tile<TileType::Vec, float, 2, 16> src, dst;
    Tile<TileType::Vec, uint32_t, 2, 8, BLayout::RowMajor, 2, 2> off;
    for (int i = 0; i < 32; ++i) src.SetValue(uint32_t(i), float(i));
    for (int i = 0; i < 16; ++i) off.SetValue(uint32_t(i), 0);
    off.SetValue(9, 100);  // row 1, block 1: bytes 100..131 of a 128-byte tile
    const Diagnostic d = diagnostic_of([&] { TGATHERB(dst, src, off); });
    EXPECT_EQ(d.code, "RUN_GATHERB_OFFSET");
    EXPECT_TRUE(mentions(d, "block 1 of row 1")) << d.format();
}

TEST(ScatterRules, Codes)
{
    Tile<TileType::Vec, float, 4, 16> f;
    Tile<TileType::Vec, int64_t, 4, 16> i64;
    Tile<TileType::Vec, uint16_t, 4, 16> u16;
    Tile<TileType::Vec, uint32_t, 4, 16> u32;
    Tile<TileType::Vec, half, 4, 16> h;
    Tile<TileType::Mat, float, 4, 16> mat;
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tscatter_index(p, f.desc(), f.desc(), u16.desc(), s); }),
              "LEGAL_TSCATTER_INDICES_DTYPE");
    EXPECT_EQ(first_code_on(profile::Target::A2A3, [&](auto& p, auto& s) { engine::check_tscatter_index(p, i64.desc(), i64.desc(), u32.desc(), s); }),
              "LEGAL_TSCATTER_DTYPE");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tscatter_index(p, i64.desc(), i64.desc(), u32.desc(), s); }),
              "none");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) {
                  engine::check_tscatter_mask(p, mat.desc(), f.desc(), MaskPattern::P1111, ScatterAxis::SCATTER_ROW, s);
              }),
              "LEGAL_TSCATTER_LAYOUT");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tgatherb(p, f.desc(), h.desc(), u32.desc(), s); }),
              "LEGAL_TGATHERB_DTYPE");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tgatherb(p, f.desc(), f.desc(), u16.desc(), s); }),
              "LEGAL_TGATHERB_OFFSET_DTYPE");
}

// ---- the text door -----------------------------------------------------------------------------------------

TEST(ScatterText, IndexAndMaskScattersAndBlockGatherRun)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f32>, %i: !pto.ptr<i32>, %o: !pto.ptr<ui32>, %y: !pto.ptr<f32>, %z: !pto.ptr<f32>, %w: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %xv = pto.make_tensor_view %x, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %iv = pto.make_tensor_view %i, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>
  %ov = pto.make_tensor_view %o, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xui32>
  %yv = pto.make_tensor_view %y, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %zv = pto.make_tensor_view %z, shape = [%c4, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %wv = pto.make_tensor_view %w, shape = [%c4, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32>
  %ti = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi32>
  %to = pto.alloc_tile : !pto.tile_buf<vec, 4x8xui32, valid=4x2>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32>
  %tz = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf32>
  %tw = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 4x8xf32>)
  pto.tload ins(%iv : !pto.tensor_view<?x?xi32>) outs(%ti : !pto.tile_buf<vec, 4x8xi32>)
  pto.tload ins(%ov : !pto.tensor_view<?x?xui32>) outs(%to : !pto.tile_buf<vec, 4x8xui32, valid=4x2>)
  pto.tscatter ins(%tx, %ti : !pto.tile_buf<vec, 4x8xf32>, !pto.tile_buf<vec, 4x8xi32>) outs(%ty : !pto.tile_buf<vec, 4x8xf32>)
  pto.tscatter ins(%tx : !pto.tile_buf<vec, 4x8xf32>) outs(%tz : !pto.tile_buf<vec, 4x16xf32>) {maskPattern = #pto.mask_pattern<P1010>}
  pto.tgatherb ins(%tx, %to : !pto.tile_buf<vec, 4x8xf32>, !pto.tile_buf<vec, 4x8xui32, valid=4x2>) outs(%tw : !pto.tile_buf<vec, 4x16xf32>)
  pto.tstore ins(%ty : !pto.tile_buf<vec, 4x8xf32>) outs(%yv : !pto.tensor_view<?x?xf32>)
  pto.tstore ins(%tz : !pto.tile_buf<vec, 4x16xf32>) outs(%zv : !pto.tensor_view<?x?xf32>)
  pto.tstore ins(%tw : !pto.tile_buf<vec, 4x16xf32>) outs(%wv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    std::vector<float> x(32), y(32), z(64), w(64);
    std::vector<int32_t> idx(32);
    std::vector<uint32_t> off(32, 0);
    std::mt19937 rng(41);
    for (int k = 0; k < 32; ++k) {
        x[size_t(k)] = float(k) + 0.5f;
        idx[size_t(k)] = 31 - k;
    }
    for (int r = 0; r < 4; ++r)
        for (int b = 0; b < 2; ++b) off[size_t(r * 8 + b)] = uint32_t(rng() % 4) * 32;
    const as::RunResult r = run_verified(program, "scatter.pto", {argument("x", x), argument("i", idx), argument("o", off), argument("y", y), argument("z", z), argument("w", w)});
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    for (int k = 0; k < 32; ++k) EXPECT_EQ(y[size_t(31 - k)], x[size_t(k)]);
    for (int row = 0; row < 4; ++row)
        for (int c = 0; c < 16; ++c) EXPECT_EQ(z[size_t(row * 16 + c)], c % 2 == 1 ? x[size_t(row * 8 + c / 2)] : 0.0f) << row << "," << c;
    for (int row = 0; row < 4; ++row)
        for (int c = 0; c < 16; ++c) EXPECT_EQ(w[size_t(row * 16 + c)], x[size_t(off[size_t(row * 8 + c / 8)] / 4 + c % 8)]) << row << "," << c;
}

}  // namespace
