// MSCATTER: DESIGN.md's decisions (one test each, named after it) and the C++ examples of the MSCATTER
// pages, run unchanged in both template spellings the pages use.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace pto;
using namespace mscatter_test;

namespace {

using Table10x8 = GlobalTensor<int32_t, Shape<1, 1, 1, 10, 8>, Stride<1, 1, 1, 8, 1>>;
using Src4x8 = Tile<TileType::Vec, int32_t, 4, 8>;
using RowIdx4 = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 4>;

// Source row r holds 100 r + c.
void fill_source(Src4x8& src)
{
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 8; ++c) src.SetValue(uint32_t(r * 8 + c), 100 * r + c);
    }
}

}  // namespace

TEST(MScatterDesign, CallWithoutTemplateArgumentsMeansCoalesceRow)
{
    std::vector<int32_t> data(80, -1);
    Table10x8 table(data.data());
    Src4x8 src;
    RowIdx4 idx;
    fill_source(src);
    const int rows[4] = {9, 0, 4, 5};
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), rows[r]);
    MSCATTER(table, src, idx);
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 8; ++c) EXPECT_EQ(data[std::size_t(rows[r] * 8 + c)], 100 * r + c);
    }
    EXPECT_EQ(data[8], -1);
}

TEST(MScatterDesign, IndicesAreReadAsUint32SoANegativeInt32IsLarge)
{
    ScopedChecked unchecked(false);
    Src4x8 src;
    RowIdx4 idx;
    fill_source(src);
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), -1 - 2 * r);  // 4294967295, ...93, ...91, ...89
    std::vector<int32_t> wrapped(80, -1), clamped(80, -1), skipped(80, -1);
    Table10x8 wrap_table(wrapped.data()), clamp_table(clamped.data()), skip_table(skipped.data());
    MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Wrap>(wrap_table, src, idx);
    MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Clamp>(clamp_table, src, idx);
    MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Skip>(skip_table, src, idx);
    for (int r = 0; r < 4; ++r) {
        const uint32_t row = uint32_t(-1 - 2 * r) % 10;  // 5, 3, 1, 9: not 9, 7, 5, 3
        EXPECT_EQ(wrapped[std::size_t(row * 8)], 100 * r);
    }
    EXPECT_EQ(clamped[9 * 8 + 1], 301);  // every row clamps to 9; the last source wins
    EXPECT_TRUE(std::all_of(skipped.begin(), skipped.end(), [](int32_t v) { return v == -1; }));
}

TEST(MScatterDesign, UndefinedOutOfRangeIndexIsAnErrorInCheckedMode)
{
    ScopedChecked checked(true);
    std::vector<int32_t> data(80, -1);
    Table10x8 table(data.data());
    Src4x8 src;
    RowIdx4 idx;
    TASSIGN(src, 0x0);
    TASSIGN(idx, 0x400);
    fill_source(src);
    const int rows[4] = {1, 2, 3, -4};
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), rows[r]);
    expect_diagnostic([&] { MSCATTER(table, src, idx); }, "RUN_SCATTER_INDEX",
                      {"MSCATTER", "source row 3", "4294967292", "10 rows"});
    EXPECT_EQ(data[8], -1);  // reported before anything is written

    Tile<TileType::Vec, int32_t, 4, 8> eidx;
    TASSIGN(eidx, 0x800);
    for (int i = 0; i < 32; ++i) eidx.SetValue(uint32_t(i), i == 30 ? 80 : i);
    expect_diagnostic([&] { MSCATTER<Coalesce::Elem>(table, src, eidx); }, "RUN_SCATTER_INDEX",
                      {"source (3, 6)", "index 80", "80 elements"});
}

TEST(MScatterDesign, UndefinedOutOfRangeIndexIsClampedWhenUnchecked)
{
    ScopedChecked unchecked(false);
    std::vector<int32_t> data(80, -1);
    Table10x8 table(data.data());
    Src4x8 src;
    RowIdx4 idx;
    fill_source(src);
    const int rows[4] = {1, 12, 3, 2};
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), rows[r]);
    MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined>(table, src, idx);
    EXPECT_EQ(data[9 * 8 + 4], 104);
}

// --- the examples of the MSCATTER pages -------------------------------------------------------------------

namespace {

template <typename T, int R, int C, int TableRows>
AICORE void example_weight_update(__gm__ T* tablePtr)
{
    using SrcTile     = Tile<TileType::Vec, T,       R, C, BLayout::RowMajor, R, C>;
    using IdxTile     = Tile<TileType::Vec, int32_t, 1, R, BLayout::RowMajor, 1, R>;
    using TableShape  = Shape<1, 1, 1, TableRows, C>;
    using TableStride = Stride<1, 1, 1, C, 1>;
    using TableTensor = GlobalTensor<T, TableShape, TableStride>;

    TableTensor tableGM(tablePtr);
    SrcTile src; TASSIGN(src, 0x0000);
    IdxTile idx; TASSIGN(idx, 0x1000);

    MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Skip, ScatterConflict::Last>(
        tableGM, src, idx);
}

// The same kernel in the policy-first spelling of the A5 test pages.
template <typename T, int R, int C, int TableRows>
AICORE void example_weight_update_policy_first(__gm__ T* tablePtr)
{
    using SrcTile    = Tile<TileType::Vec, T,        R,         C, BLayout::RowMajor, R, C>;
    using IdxTile    = Tile<TileType::Vec, int32_t,  1,         R, BLayout::RowMajor, 1, R>;

    using TableShape  = Shape<1, 1, 1, TableRows, C>;
    using TableStride = Stride<1, 1, 1, C, 1>;
    using TableTensor = GlobalTensor<T, TableShape, TableStride>;

    TableTensor tableGM(tablePtr);
    SrcTile    src;    TASSIGN(src,    0x0000);
    IdxTile    idx;    TASSIGN(idx,    0x1000);

    MSCATTER<ScatterAtomicOp::None, ScatterOOB::Skip, ScatterConflict::Last, Coalesce::Row>(
        tableGM, src, idx);
}

AICORE void example_gradient_accumulation(__gm__ float* gradTable)
{
    constexpr int NumTokens = 16, D = 64, Vocab = 65536;

    using SrcTile     = Tile<TileType::Vec, float,   NumTokens, D, BLayout::RowMajor, NumTokens, D>;
    using IdxTile     = Tile<TileType::Vec, int32_t, 1, NumTokens, BLayout::RowMajor, 1, NumTokens>;
    using TableShape  = Shape<1, 1, 1, Vocab, D>;
    using TableStride = Stride<1, 1, 1, D, 1>;
    using TableTensor = GlobalTensor<float, TableShape, TableStride>;

    TableTensor tableGM(gradTable);
    SrcTile grads; TASSIGN(grads, 0x0000);
    IdxTile idx;   TASSIGN(idx,   0x4000);

    MSCATTER<Coalesce::Row, ScatterAtomicOp::Add, ScatterOOB::Skip, ScatterConflict::Default>(
        tableGM, grads, idx);
}

AICORE void example_sparse_update(__gm__ float* data)
{
    constexpr int R = 8, C = 32, TableRows = 64, TableCols = 64;

    using SrcTile     = Tile<TileType::Vec, float,   R, C, BLayout::RowMajor, R, C>;
    using IdxTile     = Tile<TileType::Vec, int32_t, R, C, BLayout::RowMajor, R, C>;
    using TableShape  = Shape<1, 1, 1, TableRows, TableCols>;
    using TableStride = Stride<1, 1, 1, TableCols, 1>;
    using TableTensor = GlobalTensor<float, TableShape, TableStride>;

    TableTensor dataGM(data);
    SrcTile src; TASSIGN(src, 0x0000);
    IdxTile idx; TASSIGN(idx, 0x0800);

    MSCATTER<Coalesce::Elem, ScatterAtomicOp::None, ScatterOOB::Wrap, ScatterConflict::Last>(
        dataGM, src, idx);
}

AICORE void example_last_deterministic(__gm__ half* tablePtr)
{
    constexpr int R = 8, C = 64, TableRows = 65536;

    using SrcTile     = Tile<TileType::Vec, half,    R, C, BLayout::RowMajor, R, C>;
    using IdxTile     = Tile<TileType::Vec, int32_t, R, 1, BLayout::ColMajor, R, 1>;
    using TableShape  = Shape<1, 1, 1, TableRows, C>;
    using TableStride = Stride<1, 1, 1, C, 1>;
    using TableTensor = GlobalTensor<half, TableShape, TableStride>;

    TableTensor tableGM(tablePtr);
    SrcTile src; TASSIGN(src, 0x0000);
    IdxTile idx; TASSIGN(idx, 0x1000);

    MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Clamp, ScatterConflict::Last>(
        tableGM, src, idx);
}

// The dynamic-shape fragment, completed into a kernel with the pointer and offsets it names.
void example_elem2d_dyn(float* dstGm, uint64_t srcUbOffsetBytes, uint64_t idxUbOffsetBytes)
{
    constexpr auto kPadCols = 16;
    using SrcTileT    = Tile<TileType::Vec, float,   1, kPadCols, BLayout::RowMajor, -1, -1>;
    using IdxTileT    = Tile<TileType::Vec, int32_t, 1, kPadCols, BLayout::RowMajor, -1, -1>;
    using TableShape  = Shape<1, 1, 1, -1, -1>;
    using TableStride = Stride<1, 1, 1, -1, -1>;

    int64_t validCols = 9, tableR = 3, tableC = 10;
    TableShape  tableShape(tableR, tableC);
    TableStride tableStride(tableC, (int64_t)1);
    GlobalTensor<float, TableShape, TableStride> tableGM(dstGm, tableShape, tableStride);

    SrcTileT srcTile(1, validCols);
    IdxTileT idxTile(1, validCols);
    TASSIGN(srcTile, srcUbOffsetBytes);
    TASSIGN(idxTile, idxUbOffsetBytes);

    MSCATTER<Coalesce::Elem, ScatterAtomicOp::None, ScatterOOB::Skip>(tableGM, srcTile, idxTile);
}

// Writes values at logical (r, c) of a UB tile type assigned at `offset`, as a TLOAD would have.
template <typename TileT, typename Fn>
void fill_ub(uint64_t offset, Fn&& value_at)
{
    TileT tile;
    TASSIGN(tile, offset);
    for (int r = 0; r < TileT::Rows; ++r) {
        for (int c = 0; c < TileT::Cols; ++c) {
            tile.SetValue(uint32_t(GetTileOffset<TileT>(r, c)), value_at(r, c));
        }
    }
}

}  // namespace

TEST(MScatterPageExamples, WeightUpdateInBothSpellings)
{
    constexpr int R = 8, C = 16, TableRows = 8;
    const int rows[R] = {6, 1, 9, 3, 0, 2, 12, 5};  // 9 and 12 are past the table: skipped
    for (int spelling = 0; spelling < 2; ++spelling) {
        fill_ub<Tile<TileType::Vec, float, R, C>>(0x0, [](int r, int c) { return float(r * 100 + c); });
        fill_ub<Tile<TileType::Vec, int32_t, 1, R>>(0x1000, [&](int, int c) { return rows[c]; });
        std::vector<float> table(TableRows * C, -1.0f);
        if (spelling == 0) example_weight_update<float, R, C, TableRows>(table.data());
        else example_weight_update_policy_first<float, R, C, TableRows>(table.data());
        EXPECT_EQ(table[6 * C + 5], 5.0f);
        EXPECT_EQ(table[1 * C + 5], 105.0f);
        EXPECT_EQ(table[3 * C + 15], 315.0f);
        EXPECT_EQ(table[5 * C + 2], 702.0f);
        EXPECT_EQ(table[4 * C + 0], -1.0f);
        EXPECT_EQ(table[7 * C + 0], -1.0f);
    }
}

TEST(MScatterPageExamples, GradientAccumulation)
{
    fill_ub<Tile<TileType::Vec, float, 16, 64>>(0x0, [](int r, int c) { return float(r + 1) + float(c) / 64.0f; });
    fill_ub<Tile<TileType::Vec, int32_t, 1, 16>>(0x4000, [](int, int c) { return c % 2 ? 70000 : 42 + (c % 4); });
    std::vector<float> grads(std::size_t(65536) * 64, 0.5f);
    example_gradient_accumulation(grads.data());
    // Tokens 0, 4, 8, 12 add into row 42 and tokens 2, 6, 10, 14 into row 44; odd tokens are skipped.
    EXPECT_EQ(grads[42 * 64 + 0], 0.5f + 1.0f + 5.0f + 9.0f + 13.0f);
    EXPECT_EQ(grads[44 * 64 + 32], 0.5f + (3.0f + 7.0f + 11.0f + 15.0f) + 4 * 0.5f);
    EXPECT_EQ(grads[43 * 64], 0.5f);
}

TEST(MScatterPageExamples, SparseUpdate)
{
    fill_ub<Tile<TileType::Vec, float, 8, 32>>(0x0, [](int r, int c) { return float(r * 32 + c); });
    fill_ub<Tile<TileType::Vec, int32_t, 8, 32>>(0x0800, [](int r, int c) { return (r * 32 + c) * 17 + 4000; });
    std::vector<float> data(64 * 64, -1.0f);
    example_sparse_update(data.data());
    for (int i = 0; i < 256; ++i) EXPECT_EQ(data[std::size_t((i * 17 + 4000) % 4096)], float(i));
}

TEST(MScatterPageExamples, DeterministicLastWriteOverCollidingRows)
{
    fill_ub<Tile<TileType::Vec, half, 8, 64>>(0x0, [](int r, int c) { return half(float(r * 64 + c)); });
    fill_ub<Tile<TileType::Vec, int32_t, 8, 1, BLayout::ColMajor>>(0x1000, [](int r, int) { return r % 3 == 0 ? 7 : r; });
    std::vector<half> table(std::size_t(65536) * 64, half(0.0f));
    example_last_deterministic(table.data());
    // Source rows 0, 3, 6 and 7 all go to table row 7: the last of them survives.
    EXPECT_EQ(float(table[7 * 64 + 9]), float(7 * 64 + 9));
    EXPECT_EQ(float(table[4 * 64 + 63]), float(4 * 64 + 63));
    EXPECT_EQ(float(table[6 * 64 + 9]), 0.0f);
}

TEST(MScatterPageExamples, DynamicElemShapes)
{
    fill_ub<Tile<TileType::Vec, float, 1, 16>>(0x0, [](int, int c) { return float(c) + 0.5f; });
    fill_ub<Tile<TileType::Vec, int32_t, 1, 16>>(0x100, [](int, int c) { return c == 4 ? 30 : 29 - 3 * c; });
    std::vector<float> table(30, -1.0f);
    example_elem2d_dyn(table.data(), 0x0, 0x100);
    for (int c = 0; c < 9; ++c) {
        if (c == 4) continue;  // index 30 is past the 30 elements: skipped
        EXPECT_EQ(table[std::size_t(29 - 3 * c)], float(c) + 0.5f);
    }
    EXPECT_EQ(table[17], -1.0f);
}
