// TCI and TTRI against their definitions over random shapes, types, starts and diagonals; the row TCI
// leaves alone; both doors; the rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

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

template <typename T, int Descending>
void expect_sequence(uint32_t seed)
{
    using Dst = Tile<TileType::Vec, T, 4, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 8; ++trial) {
        const int rows = 1 + int(rng() % 4), cols = 1 + int(rng() % 64);
        // Starts near the type's ends, so that the sequence wraps.
        const T start = trial % 2 ? std::numeric_limits<T>::max() - T(rng() % 8) : T(rng());
        Dst dst(rows, cols);
        for (int i = 0; i < 4 * 64; ++i) dst.SetValue(uint32_t(i), T(77));
        TCI<Dst, T, Descending>(dst, start);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 64; ++c) {
                const T want = r == 0 && c < cols ? T(Descending ? start - T(c) : start + T(c)) : T(77);
                ASSERT_EQ(dst.GetValue(uint32_t(r * 64 + c)), want) << r << "," << c;
            }
    }
}

TEST(Tci, AscendingAndDescendingEveryTypeWrapping)
{
    expect_sequence<int32_t, 0>(1);
    expect_sequence<uint32_t, 1>(2);
    expect_sequence<int16_t, 1>(3);
    expect_sequence<uint16_t, 0>(4);
    Tile<TileType::Vec, int32_t, 1, 16> dst;
    Tile<TileType::Vec, float, 1, 192> tmp;
    TCI<decltype(dst), decltype(tmp), int32_t, 0>(dst, -3, tmp);
    EXPECT_EQ(dst.GetValue(15), 12);
}

TEST(Tci, CheckedModeReportsTheRowsItLeavesUnwritten)
{
    ScopedChecked checked;
    Tile<TileType::Vec, int32_t, 2, 16> seq, copy;
    TCI<decltype(seq), int32_t, 0>(seq, 0);
    EXPECT_EQ(diagnostic_of([&] { TADDS(copy, seq, 1); }).code, "RUN_UNINIT_READ");
}

template <typename T, int Upper>
void expect_triangle(uint32_t seed)
{
    using Dst = Tile<TileType::Vec, T, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 8; ++trial) {
        const int rows = 1 + int(rng() % 16), cols = 1 + int(rng() % 32), diagonal = int(rng() % 21) - 10;
        Dst dst(rows, cols);
        for (int i = 0; i < 16 * 32; ++i) dst.SetValue(uint32_t(i), T(5));
        TTRI<Dst, Upper>(dst, diagonal);
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 32; ++j) {
                const T want = i < rows && j < cols ? T((Upper ? j >= i + diagonal : j <= i + diagonal) ? 1 : 0) : T(5);
                ASSERT_EQ(float(dst.GetValue(uint32_t(i * 32 + j))), float(want)) << i << "," << j << " d " << diagonal;
            }
    }
}

TEST(Ttri, LowerAndUpperEveryDiagonal)
{
    expect_triangle<float, 0>(10);
    expect_triangle<half, 1>(11);
    expect_triangle<int32_t, 1>(12);
    expect_triangle<uint8_t, 0>(13);
}

TEST(Generate, RulesPerTarget)
{
    Tile<TileType::Vec, float, 1, 16> f;
    Tile<TileType::Vec, int32_t, 8, 16, BLayout::ColMajor> col8;
    Tile<TileType::Vec, int32_t, 1, 16> i32;
    Tile<TileType::Vec, int16_t, 1, 16> small_tmp;
    const auto code = [](auto check) {
        engine::FirstFinding finding;
        check(finding);
        return finding.found ? finding.first.code : std::string("none");
    };
    const auto a5 = profile::profile_of(profile::Target::A5), a2a3 = profile::profile_of(profile::Target::A2A3),
               cpu = profile::profile_of(profile::Target::Cpu);
    EXPECT_EQ(code([&](auto& s) { engine::check_tci(a5, f.desc(), nullptr, s); }), "LEGAL_TCI_DTYPE");
    EXPECT_EQ(code([&](auto& s) { engine::check_tci(a5, col8.desc(), nullptr, s); }), "LEGAL_TCI_LAYOUT");
    EXPECT_EQ(code([&](auto& s) { engine::check_tci(cpu, col8.desc(), nullptr, s); }), "none");
    const auto tmp = small_tmp.desc();
    EXPECT_EQ(code([&](auto& s) { engine::check_tci(a2a3, i32.desc(), &tmp, s); }), "LEGAL_TCI_TMP");
    EXPECT_EQ(code([&](auto& s) { engine::check_tci(a5, i32.desc(), &tmp, s); }), "none");
    EXPECT_EQ(code([&](auto& s) { engine::check_ttri(a5, f.desc(), 2, s); }), "LEGAL_TTRI_MODE");
}

TEST(GenerateText, SequenceAndMaskRun)
{
    const char* program = R"(func.func @f(%s: !pto.ptr<i32>, %m: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %start = arith.constant 100 : i32
  %diag = arith.constant 1 : i32
  %sv = pto.make_tensor_view %s, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi32>
  %mv = pto.make_tensor_view %m, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %ts = pto.alloc_tile : !pto.tile_buf<vec, 1x16xi32>
  %tm = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
  pto.tci ins(%start : i32) outs(%ts : !pto.tile_buf<vec, 1x16xi32>) {descending = true}
  pto.ttri ins(%diag : i32) outs(%tm : !pto.tile_buf<vec, 8x16xf32>) {isUpperOrLower = 1 : i32}
  pto.tstore ins(%ts : !pto.tile_buf<vec, 1x16xi32>) outs(%sv : !pto.tensor_view<?x?xi32>)
  pto.tstore ins(%tm : !pto.tile_buf<vec, 8x16xf32>) outs(%mv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "gen.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A5);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::vector<int32_t> s(16);
    std::vector<float> m(128);
    const as::RunResult r = as::run(parsed.module, {argument("s", s), argument("m", m)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int k = 0; k < 16; ++k) EXPECT_EQ(s[size_t(k)], 100 - k);
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 16; ++j) EXPECT_EQ(m[size_t(i * 16 + j)], j >= i + 1 ? 1.0f : 0.0f) << i << "," << j;
}

}  // namespace
