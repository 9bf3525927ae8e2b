// Tile: valid shapes, layout rules, storage offsets of every layout.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <set>

using namespace pto;

TEST(Tile, StaticValidShapeIsCompileTime)
{
    using T = Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 10, 48>;
    static_assert(T::GetValidRow() == 10 && T::GetValidCol() == 48);
    static_assert(T::Numel == 1024 && T::SizeInBytes == 4096);
    static_assert(T::RowStride == 64 && T::ColStride == 1);
    EXPECT_EQ(T().desc().valid_rows, 10);
}

TEST(Tile, DynamicValidShapeConstructorsAndSetters)
{
    Tile<TileType::Vec, half, 16, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> both(5, 7);
    EXPECT_EQ(both.GetValidRow(), 5u);
    EXPECT_EQ(both.GetValidCol(), 7u);
    both.SetValidShape(16, 64);
    EXPECT_EQ(both.desc().valid_cols, 64);

    Tile<TileType::Vec, int8_t, 16, 64, BLayout::RowMajor, DYNAMIC, 64> rows(3);
    EXPECT_EQ(rows.GetValidRow(), 3u);
    static_assert(decltype(rows)::GetValidCol() == 64);

    Tile<TileType::Vec, int16_t, 16, 64, BLayout::RowMajor, 16, DYNAMIC> cols(9);
    EXPECT_EQ(cols.GetValidCol(), 9u);
    cols.SetValidCol(11);
    EXPECT_EQ(cols.desc().valid_cols, 11);
}

TEST(Tile, ValidShapeBeyondCapacityIsReported)
{
    Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> t(1, 1);
    try {
        t.SetValidShape(17, 4);
        FAIL() << "expected RUN_VALID_SHAPE";
    } catch (const SimError& e) {
        EXPECT_EQ(e.diagnostic().code, "RUN_VALID_SHAPE");
        EXPECT_NE(e.diagnostic().message.find("valid rows"), std::string::npos);
        EXPECT_EQ(e.diagnostic().actual, "17");
    }
}

TEST(Tile, LayoutRulesMatchTheDocumentedConditions)
{
    // Unboxed row-major: Cols * sizeof(T) % 32 == 0; col-major: Rows * sizeof(T) % 32 == 0.
    static_assert(rules::unboxed_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 3, 8, 32));
    static_assert(!rules::unboxed_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 8, 4, 32));
    static_assert(rules::unboxed_alignment_ok(BLayout::ColMajor, SLayout::NoneBox, 16, 3, 16));
    static_assert(!rules::unboxed_alignment_ok(BLayout::ColMajor, SLayout::NoneBox, 8, 16, 16));
    static_assert(rules::unboxed_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 1, 64, 4));  // int4: 32 bytes
    // Boxed: whole boxes (16 x 32B for A/B fractals; Vec tiles exempt from the row condition).
    static_assert(rules::boxed_shape_ok(TileType::Mat, SLayout::RowMajor, 32, 32, 512, 16));
    static_assert(!rules::boxed_shape_ok(TileType::Mat, SLayout::RowMajor, 24, 32, 512, 16));
    static_assert(rules::boxed_shape_ok(TileType::Vec, SLayout::RowMajor, 24, 32, 512, 16));
    static_assert(!rules::boxed_shape_ok(TileType::Mat, SLayout::RowMajor, 32, 24, 512, 16));
    static_assert(rules::boxed_shape_ok(TileType::Acc, SLayout::RowMajor, 16, 16, 1024, 32));
    static_assert(!rules::fractal_size_ok(256));
    static_assert(!rules::tile_shape_ok(16, 16, 17, 16));
    static_assert(rules::tile_shape_ok(16, 16, DYNAMIC, 0));
    SUCCEED();
}

namespace {
// Reference storage offset, written from the layout definitions rather than from TileDesc::offset.
int64_t reference_offset(bool col_major_outer, SLayout inner, int rows, int cols, int br, int bc, int r, int c)
{
    if (inner == SLayout::NoneBox) return col_major_outer ? int64_t(c) * rows + r : int64_t(r) * cols + c;
    const int boxes_down = rows / br, boxes_across = cols / bc;
    const int box_index = col_major_outer ? (c / bc) * boxes_down + (r / br) : (r / br) * boxes_across + (c / bc);
    const int in_box = inner == SLayout::RowMajor ? (r % br) * bc + (c % bc) : (c % bc) * br + (r % br);
    return int64_t(box_index) * br * bc + in_box;
}

template <typename TileT>
void expect_offsets_form_a_permutation(int br, int bc)
{
    std::set<int64_t> seen;
    for (int r = 0; r < TileT::Rows; ++r) {
        for (int c = 0; c < TileT::Cols; ++c) {
            const int64_t off = GetTileOffset<TileT>(r, c);
            ASSERT_EQ(off, reference_offset(!TileT::isRowMajor, TileT::SFractal, TileT::Rows, TileT::Cols, br, bc, r, c))
                << r << "," << c;
            seen.insert(off);
        }
    }
    EXPECT_EQ(seen.size(), size_t(TileT::Numel));
    EXPECT_EQ(*seen.rbegin(), TileT::Numel - 1);
}
}  // namespace

TEST(Tile, OffsetsOfEveryLayout)
{
    expect_offsets_form_a_permutation<Tile<TileType::Vec, float, 4, 16>>(1, 1);
    expect_offsets_form_a_permutation<Tile<TileType::Vec, float, 16, 8, BLayout::ColMajor>>(1, 1);
    // Nz: column-major arrangement of row-major 16 x 32B boxes.
    using Nz = Tile<TileType::Mat, half, 32, 48, BLayout::ColMajor, 32, 48, SLayout::RowMajor>;
    static_assert(Nz::InnerRows == 16 && Nz::InnerCols == 16 && is_Nz_layout_v<Nz>);
    expect_offsets_form_a_permutation<Nz>(16, 16);
    // Zn: row-major arrangement of column-major 32B x 16 boxes.
    using Zn = Tile<TileType::Mat, int8_t, 64, 32, BLayout::RowMajor, 64, 32, SLayout::ColMajor>;
    static_assert(Zn::InnerRows == 32 && Zn::InnerCols == 16 && is_Zn_layout_v<Zn>);
    expect_offsets_form_a_permutation<Zn>(32, 16);
    // Accumulator: 16 x 16 boxes.
    using Acc = TileAcc<float, 32, 32>;
    static_assert(Acc::InnerRows == 16 && Acc::InnerCols == 16);
    expect_offsets_form_a_permutation<Acc>(16, 16);
    using Left = TileLeft<float, 32, 16>;
    static_assert(Left::InnerRows == 16 && Left::InnerCols == 8);
    expect_offsets_form_a_permutation<Left>(16, 8);
    using Right = TileRight<half, 32, 32>;
    static_assert(Right::InnerRows == 16 && Right::InnerCols == 16);
    expect_offsets_form_a_permutation<Right>(16, 16);
}
