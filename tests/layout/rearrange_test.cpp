// TCONCAT (three forms), TINTERLEAVE, TDEINTERLEAVE (two forms) and TPACK against plain loops over random
// data and shapes; the views TSUBVIEW/SUBVIEW and TALIAS; both doors; the rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
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
    if constexpr (std::is_floating_point_v<T>) return T(std::uniform_real_distribution<float>(-100.0f, 100.0f)(rng));
    else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return T(std::uniform_real_distribution<float>(-100.0f, 100.0f)(rng));
    else return T(rng());
}

template <typename TileT>
void fill_random(TileT& t, std::mt19937& rng)
{
    for (int i = 0; i < TileT::Rows * TileT::Cols; ++i) t.SetValue(uint32_t(i), random_value<typename TileT::DType>(rng));
}

template <typename T>
bool same_bits(T a, T b)
{
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// ---- TCONCAT --------------------------------------------------------------------------------------------

template <typename T, int R, int C0, int C1>
void expect_concat(uint32_t seed)
{
    using Src0 = Tile<TileType::Vec, T, R, C0, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Src1 = Tile<TileType::Vec, T, R, C1, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, T, R, C0 + C1, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 5; ++trial) {
        const int rows = 1 + int(rng() % R), cols0 = 1 + int(rng() % C0), cols1 = 1 + int(rng() % C1);
        Src0 a(rows, cols0);
        Src1 b(rows, cols1);
        Dst dst(rows, cols0 + cols1);
        fill_random(a, rng);
        fill_random(b, rng);
        TCONCAT(dst, a, b);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols0 + cols1; ++c) {
                const T want = c < cols0 ? a.GetValue(uint32_t(r * C0 + c)) : b.GetValue(uint32_t(r * C1 + c - cols0));
                ASSERT_TRUE(same_bits(dst.GetValue(uint32_t(r * (C0 + C1) + c)), want)) << r << "," << c;
            }
    }
}

TEST(Tconcat, JoinsValidRowsEveryType)
{
    expect_concat<float, 8, 16, 24>(1);
    expect_concat<half, 4, 32, 16>(2);
    expect_concat<bfloat16_t, 6, 16, 16>(3);
    expect_concat<int8_t, 5, 32, 64>(4);
    expect_concat<uint16_t, 3, 16, 32>(5);
    expect_concat<int32_t, 7, 8, 16>(6);
}

TEST(Tconcat, LengthTilesGiveEachRowItsLength)
{
    using Src = Tile<TileType::Vec, float, 8, 16>;
    using Dst = Tile<TileType::Vec, float, 8, 32>;
    using Len = Tile<TileType::Vec, int32_t, 8, 8, BLayout::RowMajor, 8, 1>;
    std::mt19937 rng(7);
    Src a, b;
    Dst dst, dst6;
    Len la, lb, total;
    fill_random(a, rng);
    fill_random(b, rng);
    for (int i = 0; i < 8 * 32; ++i) {
        dst.SetValue(uint32_t(i), -1.0f);
        dst6.SetValue(uint32_t(i), -1.0f);
    }
    std::vector<int> n0(8), n1(8);
    for (int r = 0; r < 8; ++r) {
        n0[size_t(r)] = int(rng() % 17);
        n1[size_t(r)] = int(rng() % 17);
        la.SetValue(uint32_t(r * 8), n0[size_t(r)] * 4);
        lb.SetValue(uint32_t(r * 8), n1[size_t(r)] * 4);
    }
    TCONCAT(dst, a, b, la, lb);
    TCONCAT(dst6, a, b, total, la, lb);
    for (int r = 0; r < 8; ++r) {
        EXPECT_EQ(total.GetValue(uint32_t(r * 8)), (n0[size_t(r)] + n1[size_t(r)]) * 4);
        for (int c = 0; c < 32; ++c) {
            const int k0 = n0[size_t(r)], k1 = n1[size_t(r)];
            const float want = c < k0 ? a.GetValue(uint32_t(r * 16 + c)) : c < k0 + k1 ? b.GetValue(uint32_t(r * 16 + c - k0)) : -1.0f;
            ASSERT_EQ(dst.GetValue(uint32_t(r * 32 + c)), want) << r << "," << c;
            ASSERT_EQ(dst6.GetValue(uint32_t(r * 32 + c)), want) << r << "," << c;
        }
    }
    // A length counts units of the length type's size, rounded down: 6 in an i32 tile is one element.
    la.SetValue(8, 6);
    lb.SetValue(8, 2 * 4);
    TCONCAT(dst6, a, b, total, la, lb);
    EXPECT_EQ(total.GetValue(8), 3 * 4);
    EXPECT_EQ(dst6.GetValue(32 + 1), b.GetValue(16));
    // A row that asks for more than a source row holds (src0's rows have 16 elements).
    la.SetValue(8, 17 * 4);
    const Diagnostic d = diagnostic_of([&] { TCONCAT(dst, a, b, la, lb); });
    EXPECT_EQ(d.code, "RUN_TCONCAT_LENGTH");
    EXPECT_TRUE(mentions(d, "row 1")) << d.format();
}

TEST(Tconcat, LengthsAreCutToDstsValidColumns)
{
    using Src = Tile<TileType::Vec, half, 2, 32>;
    using Dst = Tile<TileType::Vec, half, 2, 32, BLayout::RowMajor, 2, 20>;
    using Len = Tile<TileType::Vec, uint16_t, 2, 16, BLayout::RowMajor, 2, 1>;
    std::mt19937 rng(9);
    Src a, b;
    Dst dst;
    Len la, lb, total;
    fill_random(a, rng);
    fill_random(b, rng);
    la.SetValue(0, 12 * 2);  // row 0: 12 + 30 elements asked, 12 + 8 fit
    lb.SetValue(0, 30 * 2);
    la.SetValue(16, 25 * 2);  // row 1: src0 alone overflows dst's 20 valid columns
    lb.SetValue(16, 4 * 2);
    TCONCAT(dst, a, b, total, la, lb);
    EXPECT_EQ(total.GetValue(0), 20 * 2);
    EXPECT_EQ(total.GetValue(16), 20 * 2);
    for (int c = 0; c < 20; ++c) {
        EXPECT_EQ(dst.GetValue(uint32_t(c)).bits, (c < 12 ? a.GetValue(uint32_t(c)) : b.GetValue(uint32_t(c - 12))).bits) << c;
        EXPECT_EQ(dst.GetValue(uint32_t(32 + c)).bits, a.GetValue(uint32_t(32 + c)).bits) << c;
    }
}

TEST(Tconcat, ValidShapesMustAgree)
{
    Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> a(4, 8), b(3, 8);
    Tile<TileType::Vec, float, 4, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC> dst(4, 16);
    std::mt19937 rng(8);
    fill_random(a, rng);
    fill_random(b, rng);
    EXPECT_EQ(diagnostic_of([&] { TCONCAT(dst, a, b); }).code, "RUN_VALID_SHAPE");
    b.SetValidShape(4, 8);
    dst.SetValidShape(4, 15);
    EXPECT_EQ(diagnostic_of([&] { TCONCAT(dst, a, b); }).code, "RUN_VALID_SHAPE");
}

// ---- TINTERLEAVE / TDEINTERLEAVE -------------------------------------------------------------------------

template <typename T, int R, int C>
void expect_interleave(uint32_t seed)
{
    using Full = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Wide = Tile<TileType::Vec, T, R, 2 * C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 4; ++trial) {
        const int rows = 1 + int(rng() % R), cols = 2 * (1 + int(rng() % (C / 2)));
        Full a(rows, cols), b(rows, cols), lo(rows, cols), hi(rows, cols), even(rows, cols), odd(rows, cols);
        fill_random(a, rng);
        fill_random(b, rng);
        TINTERLEAVE(hi, lo, b, a);
        for (int r = 0; r < rows; ++r)
            for (int j = 0; j < 2 * cols; ++j) {
                const T want = j % 2 == 0 ? a.GetValue(uint32_t(r * C + j / 2)) : b.GetValue(uint32_t(r * C + j / 2));
                const T got = j < cols ? lo.GetValue(uint32_t(r * C + j)) : hi.GetValue(uint32_t(r * C + j - cols));
                ASSERT_TRUE(same_bits(got, want)) << r << "," << j;
            }
        // The two halves of the stream de-interleave back into the sources.
        TDEINTERLEAVE(odd, even, hi, lo);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                ASSERT_TRUE(same_bits(even.GetValue(uint32_t(r * C + c)), a.GetValue(uint32_t(r * C + c)))) << r << "," << c;
                ASSERT_TRUE(same_bits(odd.GetValue(uint32_t(r * C + c)), b.GetValue(uint32_t(r * C + c)))) << r << "," << c;
            }
        // One source holding a whole stream: even positions and odd ones.
        Wide stream(rows, 2 * cols);
        fill_random(stream, rng);
        TDEINTERLEAVE(odd, even, stream);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                ASSERT_TRUE(same_bits(even.GetValue(uint32_t(r * C + c)), stream.GetValue(uint32_t(r * 2 * C + 2 * c))));
                ASSERT_TRUE(same_bits(odd.GetValue(uint32_t(r * C + c)), stream.GetValue(uint32_t(r * 2 * C + 2 * c + 1))));
            }
    }
}

TEST(Tinterleave, StreamsSplitAndJoinEveryWidth)
{
    expect_interleave<float, 4, 16>(11);
    expect_interleave<half, 3, 32>(12);
    expect_interleave<uint8_t, 5, 64>(13);
    expect_interleave<int32_t, 2, 8>(14);
}

TEST(Tinterleave, InPlaceOnItsSources)
{
    Tile<TileType::Vec, int32_t, 2, 8> a, b;
    for (int i = 0; i < 16; ++i) {
        a.SetValue(uint32_t(i), i);
        b.SetValue(uint32_t(i), 100 + i);
    }
    TINTERLEAVE(b, a, b, a);  // dst0 = a, dst1 = b: every source element is read first
    for (int r = 0; r < 2; ++r)
        for (int j = 0; j < 16; ++j) {
            const int want = j % 2 == 0 ? r * 8 + j / 2 : 100 + r * 8 + j / 2;
            EXPECT_EQ(j < 8 ? a.GetValue(uint32_t(r * 8 + j)) : b.GetValue(uint32_t(r * 8 + j - 8)), want) << r << "," << j;
        }
}

TEST(Tinterleave, OddColumnsAreRejected)
{
    Tile<TileType::Vec, float, 2, 8, BLayout::RowMajor, DYNAMIC, DYNAMIC> a(2, 7), b(2, 7), c(2, 7), d(2, 7);
    std::mt19937 rng(15);
    fill_random(a, rng);
    fill_random(b, rng);
    EXPECT_EQ(diagnostic_of([&] { TINTERLEAVE(d, c, b, a); }).code, "RUN_VALID_SHAPE");
    Tile<TileType::Vec, float, 2, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> stream(2, 16);
    fill_random(stream, rng);
    EXPECT_EQ(diagnostic_of([&] { TDEINTERLEAVE(d, c, stream); }).code, "RUN_VALID_SHAPE");  // 7 is not 16 / 2
}

// ---- TPACK -----------------------------------------------------------------------------------------------

TEST(Tpack, IntegersKeepTheirLowBytes)
{
    std::mt19937 rng(21);
    Tile<TileType::Vec, int32_t, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> wide(3, 11);
    Tile<TileType::Vec, int16_t, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> narrow(3, 11);
    Tile<TileType::Vec, uint8_t, 4, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC> bytes(3, 11);
    Tile<TileType::Vec, int32_t, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> back(3, 11);
    fill_random(wide, rng);
    TPACK(narrow, wide);
    TPACK(bytes, narrow);
    TPACK(back, narrow);  // sign-extends
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 11; ++c) {
            const int32_t v = wide.GetValue(uint32_t(r * 16 + c));
            ASSERT_EQ(narrow.GetValue(uint32_t(r * 16 + c)), int16_t(v));
            ASSERT_EQ(bytes.GetValue(uint32_t(r * 32 + c)), uint8_t(v));
            ASSERT_EQ(back.GetValue(uint32_t(r * 16 + c)), int32_t(int16_t(v)));
        }
}

TEST(Tpack, FloatsRoundToNearestEven)
{
    Tile<TileType::Vec, float, 2, 8> f;
    Tile<TileType::Vec, half, 2, 16, BLayout::RowMajor, 2, 8> h;
    const float values[16] = {1.0f, 1.00048828125f, 1.000732421875f, 65520.0f, -3.5f, 1e-8f, NAN, INFINITY,
                              0.1f, -0.1f, 2049.0f, 2051.0f, -0.0f, 70000.0f, 6.1e-5f, 3.14159f};
    for (int i = 0; i < 16; ++i) f.SetValue(uint32_t(i), values[i]);
    TPACK(h, f);
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 8; ++c) {
            const float v = values[r * 8 + c];
            const half got = h.GetValue(uint32_t(r * 16 + c));
            if (std::isnan(v)) EXPECT_TRUE(std::isnan(float(got)));
            else EXPECT_EQ(got.bits, half(v).bits) << v;
        }
}

// ---- TSUBVIEW / SUBVIEW / TALIAS -------------------------------------------------------------------------

TEST(Tsubview, QuartersViewTheSourceBytes)
{
    using Src = Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, 4, 64>;
    using Quarter = Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, 2, 32>;
    Src src;
    for (int i = 0; i < 256; ++i) src.SetValue(uint32_t(i), float(i));
    Quarter q[4];
    SUBVIEW(q[0], src, 0, 0);
    SUBVIEW(q[1], src, 0, 32);
    TSUBVIEW(q[2], src, 2, 0);
    TSUBVIEW(q[3], src, 2, 32);
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 32; ++j)
                ASSERT_EQ(q[k].GetValue(uint32_t(i * 64 + j)), float((2 * (k / 2) + i) * 64 + 32 * (k % 2) + j)) << k;
    // An instruction on a view writes the source's bytes.
    Quarter doubled;
    TSUBVIEW(doubled, src, 2, 32);
    TADD(doubled, q[3], q[3]);
    EXPECT_EQ(src.GetValue(3 * 64 + 63), 2.0f * float(3 * 64 + 63));
    EXPECT_EQ(src.GetValue(1 * 64 + 63), float(1 * 64 + 63));
    // Outside the source's valid region.
    Quarter bad;
    const Diagnostic d = diagnostic_of([&] { TSUBVIEW(bad, src, 3, 0); });
    EXPECT_EQ(d.code, "RUN_SUBVIEW_RANGE");
    EXPECT_EQ(d.instruction, "TSUBVIEW");
}

TEST(Tsubview, BoxedTilesViewFromABox)
{
    using Nz = Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor>;
    using View = Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
    Nz src;
    for (int i = 0; i < 1024; ++i) src.SetValue(uint32_t(i), half(float(i % 1000)));
    View v;
    TSUBVIEW(v, src, 16, 16);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j)
            ASSERT_EQ(v.GetValue(uint32_t(GetTileOffset<View>(i, j))).bits,
                      src.GetValue(uint32_t(GetTileOffset<Nz>(16 + i, 16 + j))).bits) << i << "," << j;
    EXPECT_EQ(diagnostic_of([&] { TSUBVIEW(v, src, 3, 16); }).code, "RUN_SUBVIEW_ALIGN");
}

TEST(Talias, ViewsTheSameBytesAsItsOwnType)
{
    Tile<TileType::Vec, float, 8, 32> src;
    Tile<TileType::Vec, uint32_t, 4, 32> bits;
    for (int i = 0; i < 256; ++i) src.SetValue(uint32_t(i), float(i) * 0.5f);
    TALIAS(bits, src);
    for (int i = 0; i < 128; ++i) ASSERT_EQ(bits.GetValue(uint32_t(i)), std::bit_cast<uint32_t>(float(i) * 0.5f));
    bits.SetValue(0, std::bit_cast<uint32_t>(7.0f));
    EXPECT_EQ(src.GetValue(0), 7.0f);
}

TEST(LayoutRules, RearrangeAndViewCodes)
{
    Tile<TileType::Vec, float, 8, 32> f;
    Tile<TileType::Vec, half, 8, 32> h;
    Tile<TileType::Vec, int32_t, 8, 32> i32;
    Tile<TileType::Mat, float, 8, 32> mat;
    Tile<TileType::Vec, float, 16, 32> big;
    Tile<TileType::Vec, float, 8, 32, BLayout::ColMajor> col;
    const auto cpu = profile::profile_of(profile::Target::Cpu);
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tpack(cpu, f.desc(), i32.desc(), s); }), "LEGAL_TPACK_DTYPE");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tpack(cpu, h.desc(), f.desc(), s); }), "none");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tpack(cpu, col.desc(), f.desc(), s); }), "LEGAL_TPACK_LAYOUT");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tconcat(cpu, f.desc(), h.desc(), f.desc(), nullptr, s); }), "LEGAL_TCONCAT_DTYPE");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tconcat(cpu, mat.desc(), f.desc(), f.desc(), nullptr, s); }), "LEGAL_TCONCAT_LAYOUT");
    const engine::TileDesc fd = f.desc();
    const engine::ConcatLengths float_lengths{nullptr, &fd, &fd};
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tconcat(cpu, big.desc(), f.desc(), f.desc(), &float_lengths, s); }),
              "LEGAL_TCONCAT_INDEX_DTYPE");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tinterleave(cpu, f.desc(), f.desc(), h.desc(), h.desc(), s); }), "LEGAL_TINTERLEAVE_DTYPE");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tdeinterleave(cpu, col.desc(), f.desc(), f.desc(), nullptr, s); }),
              "LEGAL_TDEINTERLEAVE_LAYOUT");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_tsubview(cpu, big.desc(), f.desc(), 0, 0, s); }), "LEGAL_TSUBVIEW_TILE");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_talias(cpu, big.desc(), f.desc(), s); }), "LEGAL_TALIAS_SIZE");
    EXPECT_EQ(first_code([&](auto& s) { engine::check_talias(cpu, mat.desc(), f.desc(), s); }), "LEGAL_TALIAS_LOCATION");
}

// ---- the text door -----------------------------------------------------------------------------------------

// Loads %x (8x16 f32) and %y (8x16 f32), runs `body` and stores %out (8x32 f32) to %z.
std::string program_with(const std::string& body)
{
    return R"(func.func @f(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %z: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %xv = pto.make_tensor_view %x, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %zv = pto.make_tensor_view %z, shape = [%c8, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
  %out = pto.alloc_tile : !pto.tile_buf<vec, 8x32xf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 8x16xf32>)
  pto.tload ins(%yv : !pto.tensor_view<?x?xf32>) outs(%ty : !pto.tile_buf<vec, 8x16xf32>)
)" + body + R"(
  pto.tstore ins(%out : !pto.tile_buf<vec, 8x32xf32>) outs(%zv : !pto.tensor_view<?x?xf32>)
  return
}
)";
}

struct TextData {
    std::vector<float> x = std::vector<float>(128), y = std::vector<float>(128), z = std::vector<float>(256, 0.0f);
    TextData()
    {
        for (int i = 0; i < 128; ++i) {
            x[size_t(i)] = float(i) + 0.25f;
            y[size_t(i)] = -float(i) - 0.5f;
        }
    }
    std::vector<as::ArgumentBinding> args() { return {argument("x", x), argument("y", y), argument("z", z)}; }
};

TEST(RearrangeText, ConcatRuns)
{
    TextData d;
    const as::RunResult r = run_verified(program_with(
        "  pto.tconcat ins(%tx, %ty : !pto.tile_buf<vec, 8x16xf32>, !pto.tile_buf<vec, 8x16xf32>) outs(%out : !pto.tile_buf<vec, 8x32xf32>)"),
        "rearrange.pto", d.args());
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    for (int row = 0; row < 8; ++row)
        for (int c = 0; c < 32; ++c) ASSERT_EQ(d.z[size_t(row * 32 + c)], c < 16 ? d.x[size_t(row * 16 + c)] : d.y[size_t(row * 16 + c - 16)]);
}

TEST(RearrangeText, InterleaveThroughViewsRuns)
{
    // Interleave into the two halves of %out, reached as subviews (one SSA, one DPS).
    TextData d;
    const std::string half = "!pto.tile_buf<vec, 8x32xf32, valid=8x16>";
    const std::string body = "  %lo = pto.subview %out, %c0, %c0 : (!pto.tile_buf<vec, 8x32xf32>, index, index) -> " + half + "\n" +
                             "  %hi = pto.alloc_tile : " + half + "\n" +
                             "  pto.subview ins(%out, %c0, %c16 : !pto.tile_buf<vec, 8x32xf32>, index, index) outs(%hi : " + half + ")\n" +
                             "  %sx = pto.talias %tx : !pto.tile_buf<vec, 8x16xf32> -> !pto.tile_buf<vec, 8x16xf32>\n" +
                             "  pto.tinterleave ins(%sx, %ty : !pto.tile_buf<vec, 8x16xf32>, !pto.tile_buf<vec, 8x16xf32>) outs(%lo, %hi : " +
                             half + ", " + half + ")";
    const as::RunResult r = run_verified(program_with(body), "rearrange.pto", d.args());
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    for (int row = 0; row < 8; ++row)
        for (int j = 0; j < 32; ++j) {
            const float want = j % 2 == 0 ? d.x[size_t(row * 16 + j / 2)] : d.y[size_t(row * 16 + j / 2)];
            ASSERT_EQ(d.z[size_t(row * 32 + j)], want) << row << "," << j;
        }
}

TEST(RearrangeText, DeinterleaveAndPackRun)
{
    TextData d;
    const std::string body =
        "  %even = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, valid=8x8>\n"
        "  %odd = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, valid=8x8>\n"
        "  pto.tdeinterleave ins(%tx : !pto.tile_buf<vec, 8x16xf32>) outs(%even, %odd : !pto.tile_buf<vec, 8x16xf32, valid=8x8>, "
        "!pto.tile_buf<vec, 8x16xf32, valid=8x8>)\n"
        "  %h = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf16, valid=8x8>\n"
        "  pto.tpack ins(%odd : !pto.tile_buf<vec, 8x16xf32, valid=8x8>) outs(%h : !pto.tile_buf<vec, 8x16xf16, valid=8x8>)\n"
        "  %back = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, valid=8x8>\n"
        "  pto.tpack ins(%h : !pto.tile_buf<vec, 8x16xf16, valid=8x8>) outs(%back : !pto.tile_buf<vec, 8x16xf32, valid=8x8>)\n"
        "  %both = pto.subview %out, %c0, %c0 : (!pto.tile_buf<vec, 8x32xf32>, index, index) -> !pto.tile_buf<vec, 8x32xf32, valid=8x16>\n"
        "  pto.tconcat ins(%even, %back : !pto.tile_buf<vec, 8x16xf32, valid=8x8>, !pto.tile_buf<vec, 8x16xf32, valid=8x8>) outs(%both : "
        "!pto.tile_buf<vec, 8x32xf32, valid=8x16>)";
    // %out's columns past 16 were never written: fill them first.
    const std::string program = program_with(
        "  pto.tconcat ins(%tx, %ty : !pto.tile_buf<vec, 8x16xf32>, !pto.tile_buf<vec, 8x16xf32>) outs(%out : !pto.tile_buf<vec, 8x32xf32>)\n" +
        body);
    const as::RunResult r = run_verified(program, "rearrange.pto", d.args());
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    for (int row = 0; row < 8; ++row)
        for (int c = 0; c < 16; ++c) {
            const float want = c < 8 ? d.x[size_t(row * 16 + 2 * c)] : float(half(d.x[size_t(row * 16 + 2 * (c - 8) + 1)]));
            ASSERT_EQ(d.z[size_t(row * 32 + c)], want) << row << "," << c;
        }
}

TEST(RearrangeText, SubviewOutsideItsSourceIsReported)
{
    TextData d;
    const std::string body =
        "  %v = pto.subview %out, %c1, %c0 : (!pto.tile_buf<vec, 8x32xf32>, index, index) -> !pto.tile_buf<vec, 8x32xf32>\n"
        "  pto.tconcat ins(%tx, %ty : !pto.tile_buf<vec, 8x16xf32>, !pto.tile_buf<vec, 8x16xf32>) outs(%v : !pto.tile_buf<vec, 8x32xf32>)";
    const as::RunResult r = run_verified(program_with(body), "rearrange.pto", d.args());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "RUN_SUBVIEW_RANGE");
    EXPECT_EQ(r.diagnostics[0].location, "rearrange.pto:15:8");
}

}  // namespace
