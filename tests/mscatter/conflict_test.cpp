// MSCATTER when two sources hit one destination: the conflict policies of plain stores, and the atomic
// combines, each decision in a test named after it.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using namespace pto;
using namespace mscatter_test;

namespace {

using Src2x8 = Tile<TileType::Vec, float, 2, 8>;
using Src4x8 = Tile<TileType::Vec, float, 4, 8>;
using RowIdx4 = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 4>;
using Table4x8 = GlobalTensor<float, Shape<1, 1, 1, 4, 8>, Stride<1, 1, 1, 8, 1>>;

// Four source rows (row r holds 10 r + c) going to table rows {2, 0, 2, 3}: rows 0 and 2 collide.
struct CollidingRows {
    std::vector<float> data = std::vector<float>(32, -1.0f);
    Table4x8 table{data.data()};
    Src4x8 src;
    RowIdx4 idx;

    explicit CollidingRows(bool equal_values = false)
    {
        TASSIGN(src, 0x0);
        TASSIGN(idx, 0x200);
        const int rows[4] = {2, 0, 2, 3};
        for (int r = 0; r < 4; ++r) {
            idx.SetValue(uint32_t(r), rows[r]);
            for (int c = 0; c < 8; ++c) src.SetValue(uint32_t(r * 8 + c), equal_values && r == 2 ? float(c) : float(10 * r + c));
        }
    }
    float at(int row, int c) const { return data[std::size_t(row * 8 + c)]; }
};

}  // namespace

TEST(MScatterConflict, LastKeepsTheStoreOfTheLargestSourceIndex)
{
    for (bool checked : {false, true}) {
        ScopedChecked mode(checked);
        CollidingRows rows;
        MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, ScatterConflict::Last>(rows.table, rows.src,
                                                                                                    rows.idx);
        EXPECT_EQ(rows.at(2, 5), 25.0f);  // source row 2, not row 0
        EXPECT_EQ(rows.at(0, 5), 15.0f);
        EXPECT_EQ(rows.at(1, 5), -1.0f);
    }
    // Elem: the largest flat source index, r * valid_cols + c.
    std::vector<float> data(4, 0.0f);
    GlobalTensor<float, Shape<1, 1, 1, 1, 4>, Stride<1, 1, 1, 4, 1>> table(data.data());
    Src2x8 src;
    Tile<TileType::Vec, int32_t, 2, 8> idx;
    for (int i = 0; i < 16; ++i) {
        src.SetValue(uint32_t(i), float(i));
        idx.SetValue(uint32_t(i), i % 3);  // slots 0..2 each hit five or six times
    }
    MSCATTER<Coalesce::Elem>(table, src, idx);
    EXPECT_EQ(data[0], 15.0f);
    EXPECT_EQ(data[1], 13.0f);
    EXPECT_EQ(data[2], 14.0f);
    EXPECT_EQ(data[3], 0.0f);
}

TEST(MScatterConflict, DefaultWithDifferentValuesIsAnErrorInCheckedMode)
{
    ScopedChecked checked(true);
    CollidingRows rows;
    expect_diagnostic(
        [&] {
            MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, ScatterConflict::Default>(
                rows.table, rows.src, rows.idx);
        },
        "RUN_SCATTER_CONFLICT", {"MSCATTER", "source row 0", "source row 2", "table row 2", "ScatterConflict::Default"});
    EXPECT_EQ(rows.at(2, 0), -1.0f);  // reported before anything is written

    Src2x8 src;
    Tile<TileType::Vec, int32_t, 2, 8> idx;
    for (int i = 0; i < 16; ++i) {
        src.SetValue(uint32_t(i), float(i));
        idx.SetValue(uint32_t(i), i == 13 ? 4 : i);  // sources (0, 4) and (1, 5) both go to element 4
    }
    std::vector<float> data(64, 0.0f);
    GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>> table(data.data());
    expect_diagnostic(
        [&] { MSCATTER<Coalesce::Elem, ScatterAtomicOp::None, ScatterOOB::Wrap, ScatterConflict::Default>(table, src, idx); },
        "RUN_SCATTER_CONFLICT", {"source (0, 4)", "source (1, 5)", "table element 4"});
}

TEST(MScatterConflict, DefaultWithEqualValuesIsAccepted)
{
    ScopedChecked checked(true);
    CollidingRows rows(true);  // source row 2 holds the same values as source row 0
    EXPECT_NO_THROW((MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, ScatterConflict::Default>(
        rows.table, rows.src, rows.idx)));
    EXPECT_EQ(rows.at(2, 7), 7.0f);
}

TEST(MScatterConflict, DefaultUncheckedKeepsTheLaterStore)
{
    ScopedChecked unchecked(false);
    CollidingRows rows;
    MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, ScatterConflict::Default>(rows.table, rows.src,
                                                                                                   rows.idx);
    EXPECT_EQ(rows.at(2, 3), 23.0f);
}

TEST(MScatterConflict, AtomicOperationsCombineEveryCollidingSource)
{
    ScopedChecked checked(true);  // no conflict report: atomics serialize collisions
    CollidingRows rows;
    MSCATTER<Coalesce::Row, ScatterAtomicOp::Add, ScatterOOB::Undefined, ScatterConflict::Default>(rows.table, rows.src,
                                                                                                  rows.idx);
    EXPECT_EQ(rows.at(2, 1), -1.0f + 1.0f + 21.0f);
    EXPECT_EQ(rows.at(3, 1), -1.0f + 31.0f);
}

TEST(MScatterConflict, DroppedStoresNeverCollide)
{
    ScopedChecked checked(true);
    Src2x8 src;
    Tile<TileType::Vec, int32_t, 2, 8> idx;
    for (int i = 0; i < 16; ++i) {
        src.SetValue(uint32_t(i), float(i));
        idx.SetValue(uint32_t(i), i < 2 ? 100 : i);  // two out-of-range sources, both skipped
    }
    std::vector<float> data(16, 0.0f);
    GlobalTensor<float, Shape<1, 1, 1, 1, 16>, Stride<1, 1, 1, 16, 1>> table(data.data());
    EXPECT_NO_THROW((MSCATTER<Coalesce::Elem, ScatterAtomicOp::None, ScatterOOB::Skip, ScatterConflict::Default>(
        table, src, idx)));
    EXPECT_EQ(data[0], 0.0f);
    EXPECT_EQ(data[15], 15.0f);
}

TEST(MScatterDecision, AtomicAddOfIntegersWraps)
{
    std::vector<int32_t> data{std::numeric_limits<int32_t>::max(), 0, 0, 0, 0, 0, 0, 0};
    GlobalTensor<int32_t, Shape<1, 1, 1, 1, 8>, Stride<1, 1, 1, 8, 1>> table(data.data());
    Tile<TileType::Vec, int32_t, 1, 8> src, idx;
    for (int c = 0; c < 8; ++c) {
        src.SetValue(uint32_t(c), c == 0 ? 2 : 0);
        idx.SetValue(uint32_t(c), c);
    }
    MSCATTER<Coalesce::Elem, ScatterAtomicOp::Add>(table, src, idx);
    EXPECT_EQ(data[0], std::numeric_limits<int32_t>::min() + 1);
}

TEST(MScatterDecision, AtomicAddOfHalfRoundsOnceToNearestEven)
{
    // 2048 + 1 is a tie between 2048 and 2050 in half: ties to even keeps 2048; 2048 + 3 rounds to 2052.
    std::vector<half> data(16, half(2048.0f));
    GlobalTensor<half, Shape<1, 1, 1, 1, 16>, Stride<1, 1, 1, 16, 1>> table(data.data());
    Tile<TileType::Vec, half, 1, 16> src;
    Tile<TileType::Vec, int32_t, 1, 16> idx;
    for (int c = 0; c < 16; ++c) {
        src.SetValue(uint32_t(c), half(c == 0 ? 1.0f : 3.0f));
        idx.SetValue(uint32_t(c), c);
    }
    MSCATTER<Coalesce::Elem, ScatterAtomicOp::Add>(table, src, idx);
    EXPECT_EQ(float(data[0]), 2048.0f);
    EXPECT_EQ(float(data[1]), 2052.0f);
}

TEST(MScatterDecision, AtomicMaxAndMinOfNaNAndANumberGiveTheNumber)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> data{nan, 5.0f, nan, 5.0f, 0, 0, 0, 0};
    GlobalTensor<float, Shape<1, 1, 1, 1, 8>, Stride<1, 1, 1, 8, 1>> table(data.data());
    Tile<TileType::Vec, float, 1, 8, BLayout::RowMajor, 1, 2> src;  // {3, NaN}
    Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 2> idx;
    src.SetValue(0, 3.0f);
    src.SetValue(1, nan);
    idx.SetValue(0, 0);  // NaN in the table, 3 incoming
    idx.SetValue(1, 1);  // 5 in the table, NaN incoming
    MSCATTER<Coalesce::Elem, ScatterAtomicOp::Max>(table, src, idx);
    EXPECT_EQ(data[0], 3.0f);
    EXPECT_EQ(data[1], 5.0f);
    idx.SetValue(0, 2);
    idx.SetValue(1, 3);
    MSCATTER<Coalesce::Elem, ScatterAtomicOp::Min>(table, src, idx);
    EXPECT_EQ(data[2], 3.0f);
    EXPECT_EQ(data[3], 5.0f);
}
