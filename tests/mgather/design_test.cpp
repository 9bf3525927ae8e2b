// MGATHER semantics the documents leave open or contradict: DESIGN.md's decisions (MGatherDesign.*)
// and this implementation's (MGatherDecision.*), one test each, named after the decision.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace pto;
using namespace mgather_test;

namespace {

// A 10 x 8 int32 table whose element i holds 100 + i.
std::vector<int32_t> counting_table(int elements)
{
    std::vector<int32_t> t(std::size_t(elements), 0);
    for (int i = 0; i < elements; ++i) t[std::size_t(i)] = 100 + i;
    return t;
}

using Table10x8 = GlobalTensor<int32_t, Shape<1, 1, 1, 10, 8>, Stride<1, 1, 1, 8, 1>>;
using Dst4x8 = Tile<TileType::Vec, int32_t, 4, 8>;
using RowIdx4 = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 4>;

}  // namespace

TEST(MGatherDesign, CallWithoutTemplateArgumentsMeansCoalesceRow)
{
    auto data = counting_table(80);
    Table10x8 table(data.data());
    Dst4x8 plain, row;
    RowIdx4 idx;
    const int32_t rows[4] = {7, 0, 9, 2};
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), rows[r]);
    MGATHER(plain, table, idx);
    MGATHER<Coalesce::Row>(row, table, idx);
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 8; ++c) {
            EXPECT_EQ(plain.GetValue(uint32_t(r * 8 + c)), 100 + rows[r] * 8 + c);
            EXPECT_EQ(plain.GetValue(uint32_t(r * 8 + c)), row.GetValue(uint32_t(r * 8 + c)));
        }
    }
}

TEST(MGatherDesign, IndicesAreReadAsUint32SoANegativeInt32IsLarge)
{
    ScopedChecked unchecked(false);
    auto data = counting_table(80);
    Table10x8 table(data.data());
    RowIdx4 idx;
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), -1 - r);  // 4294967295, ...94, ...93, ...92
    Dst4x8 wrapped, clamped, zeroed;
    MGATHER<Coalesce::Row, GatherOOB::Wrap>(wrapped, table, idx);
    MGATHER<Coalesce::Row, GatherOOB::Clamp>(clamped, table, idx);
    MGATHER<Coalesce::Row, GatherOOB::Zero>(zeroed, table, idx);
    for (int r = 0; r < 4; ++r) {
        const uint32_t as_unsigned = uint32_t(-1 - r);
        EXPECT_EQ(wrapped.GetValue(uint32_t(r * 8)), 100 + int(as_unsigned % 10) * 8);  // 5, 4, 3, 2: not 9, 8, ...
        EXPECT_EQ(clamped.GetValue(uint32_t(r * 8)), 100 + 9 * 8);
        EXPECT_EQ(zeroed.GetValue(uint32_t(r * 8)), 0);
    }
    // The same in Elem mode over the table's 80 elements.
    using ElemIdx = Tile<TileType::Vec, int32_t, 1, 8>;
    using Dst1x8 = Tile<TileType::Vec, int32_t, 1, 8>;
    ElemIdx eidx;
    Dst1x8 dst;
    for (int c = 0; c < 8; ++c) eidx.SetValue(uint32_t(c), -1 - c);
    MGATHER<Coalesce::Elem, GatherOOB::Wrap>(dst, table, eidx);
    for (int c = 0; c < 8; ++c) EXPECT_EQ(dst.GetValue(uint32_t(c)), 100 + int(uint32_t(-1 - c) % 80));
}

TEST(MGatherDesign, UndefinedOutOfRangeIndexIsAnErrorInCheckedMode)
{
    ScopedChecked checked(true);
    auto data = counting_table(80);
    Table10x8 table(data.data());
    Dst4x8 dst;
    RowIdx4 idx;
    TASSIGN(dst, 0x0);
    TASSIGN(idx, 0x100);
    const int32_t rows[4] = {1, 2, 12, 3};
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), rows[r]);
    expect_diagnostic([&] { MGATHER(dst, table, idx); }, "RUN_GATHER_INDEX",
                      {"MGATHER", "destination row 2", "index 12", "10 rows"});

    using ElemIdx = Tile<TileType::Vec, int32_t, 4, 8>;
    ElemIdx eidx;
    TASSIGN(eidx, 0x200);
    for (int i = 0; i < 32; ++i) eidx.SetValue(uint32_t(i), i == 11 ? -2 : i);
    expect_diagnostic([&] { MGATHER<Coalesce::Elem>(dst, table, eidx); }, "RUN_GATHER_INDEX",
                      {"MGATHER", "destination (1, 3)", "4294967294", "80 elements"});
}

TEST(MGatherDesign, UndefinedOutOfRangeIndexIsClampedWhenUnchecked)
{
    ScopedChecked unchecked(false);
    auto data = counting_table(80);
    Table10x8 table(data.data());
    Dst4x8 dst;
    RowIdx4 idx;
    const int32_t rows[4] = {1, 2, 12, -5};
    for (int r = 0; r < 4; ++r) idx.SetValue(uint32_t(r), rows[r]);
    MGATHER<Coalesce::Row, GatherOOB::Undefined>(dst, table, idx);
    EXPECT_EQ(dst.GetValue(2 * 8 + 3), 100 + 9 * 8 + 3);
    EXPECT_EQ(dst.GetValue(3 * 8 + 3), 100 + 9 * 8 + 3);
    EXPECT_EQ(dst.GetValue(1 * 8 + 3), 100 + 2 * 8 + 3);
}

TEST(MGatherDecision, A5CountsOnlyShapeDim3AsRowModeTableRows)
{
    // Shape<1, 2, 1, 5, 8>: A5's Row kernel takes tableRows = Shape[3] = 5, so index 7 clamps to row 4;
    // A2/A3 (and cpu) fold the outer dimensions in: 10 rows, index 7 is row 7.
    auto data = counting_table(80);
    std::vector<int32_t> dst(8, 0);
    std::vector<int32_t> idx{7, 0, 0, 0, 0, 0, 0, 0};
    const GlobalDesc table = global_desc(data.data(), DType::I32, Layout::ND, {1, 2, 1, 5, 8}, {80, 40, 40, 8, 1});
    auto gather = [&] {
        pto::engine::mgather(tile_desc(dst.data(), DType::I32, {1, 8, 1, 8}), table,
                             tile_desc(idx.data(), DType::I32, {1, 8, 1, 1}), Coalesce::Row, GatherOOB::Clamp);
        return dst[0];
    };
    {
        ScopedTarget a5(Target::A5);
        EXPECT_EQ(gather(), 100 + 4 * 8);
    }
    for (Target t : {Target::A2A3, Target::Cpu}) {
        ScopedTarget target(t);
        EXPECT_EQ(gather(), 100 + 7 * 8);
    }
}

TEST(MGatherDecision, StridePaddedRowTablesUseStrideDim3AsTheRowStride)
{
    // 6 rows of 5 valid elements, 8 apart in memory (GetStride(DIM_3) = 8).
    using Table = GlobalTensor<int32_t, Shape<1, 1, 1, 6, 5>, Stride<1, 1, 1, 8, 1>>;
    using Dst = Tile<TileType::Vec, int32_t, 2, 8, BLayout::RowMajor, 2, 5>;
    using Idx = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 2>;
    auto data = counting_table(48);
    Table table(data.data());
    Dst dst;
    Idx idx;
    idx.SetValue(0, 5);
    idx.SetValue(1, 2);
    MGATHER(dst, table, idx);
    for (int c = 0; c < 5; ++c) {
        EXPECT_EQ(dst.GetValue(uint32_t(c)), 100 + 5 * 8 + c);
        EXPECT_EQ(dst.GetValue(uint32_t(8 + c)), 100 + 2 * 8 + c);
    }
}

TEST(MGatherDecision, ElemIndexCountsElementsFromTheTablePointer)
{
    // The flat index of Coalesce::Elem counts elements from the table pointer, whatever the strides
    // (the page's "linear element index into the flat table").
    using Table = GlobalTensor<int32_t, Shape<1, 1, 1, 3, 5>, Stride<1, 1, 1, 8, 1>>;
    using Dst = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 2>;
    auto data = counting_table(24);
    Table table(data.data());
    Dst dst;
    Dst idx;
    idx.SetValue(0, 12);
    idx.SetValue(1, 14);
    MGATHER<Coalesce::Elem>(dst, table, idx);
    EXPECT_EQ(dst.GetValue(0), 112);
    EXPECT_EQ(dst.GetValue(1), 114);
}

TEST(MGatherDecision, NzRowGatherWithTheZeroPolicyClearsTheWholeTile)
{
    // A2/A3 pre-zeros an NZ destination before its Row DMA loop; positions outside the valid region end up
    // zero too. Without the Zero policy they keep what they held.
    ScopedTarget a2a3(Target::A2A3);
    std::vector<uint16_t> table(16 * 16, 0x3C00);
    std::vector<uint16_t> dst(16 * 16, 0xFFFF);
    std::vector<int32_t> idx(16, 3);
    TileShape nz{16, 16, 4, 16};
    nz.nz = true;
    const GlobalDesc g = global_desc(table.data(), DType::F16, Layout::NZ, {1, 1, 1, 16, 16}, {256, 256, 256, 16, 1});
    pto::engine::mgather(tile_desc(dst.data(), DType::F16, nz), g, tile_desc(idx.data(), DType::I32, {1, 16, 1, 4}),
                         Coalesce::Row, GatherOOB::Clamp);
    EXPECT_EQ(dst[std::size_t(reference_tile_offset(nz, 2, 9, 0))], 0xFFFF);
    pto::engine::mgather(tile_desc(dst.data(), DType::F16, nz), g, tile_desc(idx.data(), DType::I32, {1, 16, 1, 4}),
                         Coalesce::Row, GatherOOB::Zero);
    EXPECT_EQ(dst[std::size_t(reference_tile_offset(nz, 2, 9, 0))], 0);
    EXPECT_EQ(dst[std::size_t(reference_tile_offset(nz, 2, 2, 5))], 0x3C00);
}

TEST(MGatherDecision, CpuProfileTakesTheUnionOfTheTargetsForms)
{
    // On cpu: an NZ table (A2/A3), a col-major destination and an [R, 1] index (A5), 8-bit floats (A5).
    std::vector<uint8_t> table(32 * 32), dst(32 * 32);
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = uint8_t(i * 7 + 1);
    std::vector<int32_t> idx(8, 1);
    const GlobalDesc nd = global_desc(table.data(), DType::F8E5M2, Layout::ND, {1, 1, 1, 32, 32}, {1024, 1024, 1024, 32, 1});
    EXPECT_NO_THROW(pto::engine::mgather(tile_desc(dst.data(), DType::F8E5M2, {32, 4, 8, 4, BLayout::ColMajor}), nd,
                                         tile_desc(idx.data(), DType::I32, {8, 1, 8, 1, BLayout::ColMajor}),
                                         Coalesce::Row, GatherOOB::Clamp));
    EXPECT_EQ(dst[1], table[32 + 0]);  // col-major: element (1, 0) is at offset 1
    TileShape nz{16, 32, 16, 32};
    nz.nz = true;
    const GlobalDesc nz_table = global_desc(table.data(), DType::I8, Layout::NZ, {1, 1, 2, 16, 32}, {1024, 1024, 512, 32, 1});
    std::vector<int32_t> rows(16, 17);
    EXPECT_NO_THROW(pto::engine::mgather(tile_desc(dst.data(), DType::I8, nz), nz_table,
                                         tile_desc(rows.data(), DType::I32, {1, 16, 1, 16}), Coalesce::Row,
                                         GatherOOB::Clamp));
    EXPECT_EQ(dst[0], table[512 + 1 * 32]);  // logical row 17: block row 1, row 1 in the block
}
