// TTRANS against the definition dst(i, j) = src(j, i), bit for bit, over random shapes and valid regions,
// 1-, 2- and 4-byte elements, the register-blocked row-major path and the general one (column-major
// tiles), in place; the row-major kernel alone against the element loop on every SIMD target; both
// doors; the rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "engine/layout/transpose_kernel.hpp"
#include "support/asm_arguments.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

template <typename T, BLayout SrcLayout, int R, int C>
void expect_transpose(uint32_t seed)
{
    using Src = Tile<TileType::Vec, T, R, C, SrcLayout, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, T, C, R, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 8; ++trial) {
        const int rows = trial == 0 ? R : 1 + int(rng() % R), cols = trial == 0 ? C : 1 + int(rng() % C);
        Src src(rows, cols);
        Dst dst(cols, rows);
        std::vector<T> before(static_cast<size_t>(R * C));
        for (int i = 0; i < R * C; ++i) {
            const auto bits = rng();
            std::memcpy(&before[size_t(i)], &bits, sizeof(T));
            src.SetValue(uint32_t(i), before[size_t(i)]);
        }
        std::memset(dst.data(), 0x5C, sizeof(T) * R * C);
        Tile<TileType::Vec, T, 1, 32 / sizeof(T)> tmp;
        TTRANS(dst, src, tmp);
        for (int i = 0; i < C; ++i)
            for (int j = 0; j < R; ++j) {
                const T got = dst.GetValue(uint32_t(i * R + j));
                if (i < cols && j < rows) {
                    const T want = before[size_t(GetTileOffset<Src>(j, i))];
                    ASSERT_EQ(std::memcmp(&got, &want, sizeof(T)), 0) << "trial " << trial << " at " << i << "," << j;
                } else {
                    T untouched;
                    std::memset(&untouched, 0x5C, sizeof(T));
                    ASSERT_EQ(std::memcmp(&got, &untouched, sizeof(T)), 0) << i << "," << j;
                }
            }
    }
}

TEST(Ttrans, RowMajorEveryElementSize)
{
    expect_transpose<float, BLayout::RowMajor, 40, 24>(1);
    expect_transpose<half, BLayout::RowMajor, 48, 32>(2);
    expect_transpose<int8_t, BLayout::RowMajor, 64, 96>(3);
    expect_transpose<uint32_t, BLayout::RowMajor, 8, 64>(4);
}

// The kernel alone against the plain element loop, on random bits: sizes on both sides of its bands (two
// and, with 64-byte vectors, four 16-byte blocks one above the other) and between them, strides wider
// than the rows; nothing outside the transposed region is written.
template <typename Word>
void expect_kernel_matches_loop(uint32_t seed)
{
    std::mt19937 rng(seed);
    constexpr int kBand = 32 / sizeof(Word), kWideBand = 64 / sizeof(Word);
    const int edges[] = {1, kBand / 2 - 1, kBand / 2, kBand - 1, kBand, kBand + 1, kWideBand - 1, kWideBand + kBand + kBand / 2 + 3, 3 * kWideBand + 5};
    for (int trial = 0; trial < 40; ++trial) {
        const int rows = trial < 9 ? edges[trial] : 1 + int(rng() % (4 * kWideBand));
        const int cols = trial < 9 ? edges[8 - trial] : 1 + int(rng() % (4 * kWideBand));
        const int64_t src_stride = cols + int64_t(rng() % 5), dst_stride = rows + int64_t(rng() % 5);
        std::vector<Word> src(size_t(rows * src_stride)), dst(size_t(cols * dst_stride)), want;
        for (Word& w : src) w = Word(rng());
        for (Word& w : dst) w = Word(rng());
        want = dst;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) want[size_t(c * dst_stride + r)] = src[size_t(r * src_stride + c)];
        engine::layout::transpose_rows(int(sizeof(Word)), {src.data(), src_stride, dst.data(), dst_stride, rows, cols});
        ASSERT_EQ(dst, want) << sizeof(Word) << "-byte elements, " << rows << " x " << cols;
    }
}

// On every SIMD target this CPU runs: the bands are one block high on 16-byte targets.
TEST(Ttrans, KernelMatchesTheElementLoopOnEveryTarget)
{
    for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        expect_kernel_matches_loop<uint32_t>(11);
        expect_kernel_matches_loop<uint16_t>(12);
        expect_kernel_matches_loop<uint8_t>(13);
        if (HasFatalFailure()) break;
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

TEST(Ttrans, ColumnMajorSources)
{
    expect_transpose<float, BLayout::ColMajor, 24, 40>(5);
    expect_transpose<bfloat16_t, BLayout::ColMajor, 32, 16>(6);
}

TEST(Ttrans, InPlaceOnASquareTile)
{
    Tile<TileType::Vec, float, 32, 32> t;
    Tile<TileType::Vec, float, 1, 8> tmp;
    for (int i = 0; i < 32 * 32; ++i) t.SetValue(uint32_t(i), float(i));
    TTRANS(t, t, tmp);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) ASSERT_EQ(t.GetValue(uint32_t(i * 32 + j)), float(j * 32 + i));
}

TEST(Ttrans, RulesPerTarget)
{
    Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> col;
    Tile<TileType::Vec, float, 16, 16> row;
    Tile<TileType::Vec, half, 16, 16> narrow;
    Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, 8, 16> small;
    const auto code = [](profile::Target t, const engine::TileDesc& d, const engine::TileDesc& s) {
        engine::FirstFinding finding;
        engine::check_ttrans(profile::profile_of(t), d, s, nullptr, finding);
        return finding.found ? finding.first.code : std::string("none");
    };
    EXPECT_EQ(code(profile::Target::A5, row.desc(), col.desc()), "none");
    EXPECT_EQ(code(profile::Target::A2A3, row.desc(), col.desc()), "LEGAL_TTRANS_LAYOUT");
    EXPECT_EQ(code(profile::Target::A5, narrow.desc(), row.desc()), "LEGAL_TTRANS_DTYPE");
    EXPECT_EQ(code(profile::Target::A5, row.desc(), small.desc()), "RUN_VALID_SHAPE");
}

TEST(TtransText, RunsAndChecks)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f16>, %y: !pto.ptr<f16>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %xv = pto.make_tensor_view %x, shape = [%c16, %c48], strides = [%c48, %c1] : !pto.tensor_view<?x?xf16>
  %yv = pto.make_tensor_view %y, shape = [%c48, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf16>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 16x48xf16>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 48x16xf16>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf16>) outs(%tx : !pto.tile_buf<vec, 16x48xf16>)
  %t = pto.ttrans %tx : !pto.tile_buf<vec, 16x48xf16> -> !pto.tile_buf<vec, 48x16xf16>
  pto.tstore ins(%t : !pto.tile_buf<vec, 48x16xf16>) outs(%yv : !pto.tensor_view<?x?xf16>)
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "ttrans.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A2A3);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::vector<uint16_t> x(16 * 48), y(48 * 16);
    for (size_t i = 0; i < x.size(); ++i) x[i] = uint16_t(i * 2654435761u >> 7);
    const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("y", y)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int i = 0; i < 48; ++i)
        for (int j = 0; j < 16; ++j) ASSERT_EQ(y[size_t(i * 16 + j)], x[size_t(j * 48 + i)]) << i << "," << j;
}

}  // namespace
