// MGATHER through the C++ front door (Tile, GlobalTensor, TASSIGN, MGATHER<...>) for every element type
// the cpu profile takes, every out-of-range policy, static and dynamic shapes, both coalesce modes, the
// col-major and NZ layouts, against the reference gather.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace pto;
using namespace mgather_test;

namespace {

template <typename T>
std::vector<T> random_table(std::size_t elements)
{
    const auto bytes = random_bytes(elements, sizeof(T));
    std::vector<T> v(elements);
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
}

template <typename TileT>
TileShape shape_of(const TileT& t)
{
    const auto d = t.desc();
    return {d.rows, d.cols, d.valid_rows, d.valid_cols, d.blayout, d.boxed()};
}

// Writes index `value` at logical (r, c) of an index tile (marking it written for checked mode).
template <typename IdxTile>
void set_index(IdxTile& idx, int r, int c, uint32_t value)
{
    const auto at = static_cast<uint32_t>(GetTileOffset<IdxTile>(r, c));
    idx.SetValue(at, static_cast<typename IdxTile::DType>(value));
}

// Calls fn(integral_constant<GatherOOB, O>) for every policy.
template <typename Fn>
void for_each_policy(Fn&& fn)
{
    for_each_constant<GatherOOB::Undefined, GatherOOB::Clamp, GatherOOB::Wrap, GatherOOB::Zero>(fn);
}

}  // namespace

template <typename T>
class MGatherTyped : public ::testing::Test {};

using ElementTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float,
                                      float8_e4m3_t, float8_e5m2_t, hifloat8_t>;
TYPED_TEST_SUITE(MGatherTyped, ElementTypes);

// Row coalesce with runtime valid shapes and a runtime, stride-padded table.
TYPED_TEST(MGatherTyped, RowGatherWithDynamicShapesMatchesTheReference)
{
    using T = TypeParam;
    constexpr int kCols = 64 / int(sizeof(T));
    using DstTile = Tile<TileType::Vec, T, 8, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using IdxTile = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, DYNAMIC>;
    using Table = GlobalTensor<T, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;
    ScopedChecked unchecked(false);

    for_each_policy([&](auto policy) {
        for (int trial = 0; trial < 4; ++trial) {
            const int rows = uniform(1, 8), cols = uniform(1, kCols);
            const int table_rows = uniform(1, 24), row_stride = cols + uniform(0, 9);
            auto data = random_table<T>(std::size_t(table_rows) * row_stride);
            Table table(data.data(), {table_rows, cols}, {row_stride});

            DstTile dst(rows, cols);
            IdxTile idx(rows);
            TASSIGN(dst, 0x0);
            TASSIGN(idx, 0x4000);
            for (int r = 0; r < rows; ++r) set_index(idx, 0, r, uint32_t(uniform(0, table_rows + 4)));

            MGATHER<Coalesce::Row, decltype(policy)::value>(dst, table, idx);

            const auto d = table.desc();
            const auto expected = reference_gather({d, int(sizeof(T)), false}, true, policy_of(decltype(policy)::value),
                                                   rows, cols, [&](int r, int) { return uint32_t(idx.GetValue(r)); });
            ASSERT_EQ(valid_region(dst.data(), shape_of(dst), sizeof(T)), expected) << "policy " << int(decltype(policy)::value);
        }
    });
}

// Elem coalesce over a flat 5-D table with static outer dimensions and a dynamic inner one.
TYPED_TEST(MGatherTyped, ElemGatherMatchesTheReference)
{
    using T = TypeParam;
    constexpr int kCols = 32 / int(sizeof(T));
    using DstTile = Tile<TileType::Vec, T, 4, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using IdxTile = Tile<TileType::Vec, uint32_t, 4, (kCols < 8 ? 8 : kCols), BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Table = GlobalTensor<T, Shape<1, 2, 1, 3, DYNAMIC>, Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, 1>>;
    ScopedChecked unchecked(false);

    for_each_policy([&](auto policy) {
        const int rows = uniform(1, 4), cols = uniform(1, kCols), width = uniform(1, 11);
        auto data = random_table<T>(std::size_t(6 * width));
        Table table(data.data(), {width}, {6 * width, 3 * width, 3 * width, width});

        DstTile dst(rows, cols);
        IdxTile idx(rows, cols);
        TASSIGN(dst, 0x1000);
        TASSIGN(idx, 0x2000);
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < cols; ++c) set_index(idx, r, c, uint32_t(uniform(0, 6 * width + 6)));
        }

        MGATHER<Coalesce::Elem, decltype(policy)::value>(dst, table, idx);

        const auto d = table.desc();
        const auto expected = reference_gather({d, int(sizeof(T)), false}, false, policy_of(decltype(policy)::value), rows,
                                               cols, [&](int r, int c) {
                                                   return uint32_t(idx.GetValue(uint32_t(GetTileOffset<IdxTile>(r, c))));
                                               });
        EXPECT_EQ(valid_region(dst.data(), shape_of(dst), sizeof(T)), expected);
    });
}

TEST(MGatherIntrinsic, ColMajorDestinationWithAColumnIndex)
{
    // [R, 1] col-major index and a col-major destination: the A5 forms, which the cpu profile takes too.
    using DstTile = Tile<TileType::Vec, float, 8, 5, BLayout::ColMajor, 8, 5>;
    using IdxTile = Tile<TileType::Vec, int32_t, 8, 1, BLayout::ColMajor, 8, 1>;
    using Table = GlobalTensor<float, Shape<1, 1, 1, 12, 5>, Stride<1, 1, 1, 5, 1>>;
    std::vector<float> data(60);
    for (int i = 0; i < 60; ++i) data[std::size_t(i)] = float(i) * 1.25f - 20.0f;
    Table table(data.data());
    DstTile dst;
    IdxTile idx;
    for (int r = 0; r < 8; ++r) set_index(idx, r, 0, uint32_t((r * 5 + 3) % 12));
    MGATHER<Coalesce::Row, GatherOOB::Clamp>(dst, table, idx);
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 5; ++c) {
            EXPECT_EQ(dst.GetValue(uint32_t(c * 8 + r)), data[std::size_t(((r * 5 + 3) % 12) * 5 + c)]) << r << "," << c;
        }
    }
}

TEST(MGatherIntrinsic, NzTableIntoAnNzTileInBothModes)
{
    // NZ table Shape<B=2, BlockCols=1, BlockRows=2, 16, 16> of half: 32 logical rows, 32 logical columns.
    using Table = GlobalTensor<half, Shape<2, 1, 2, 16, 16>, Stride<1024, 512, 256, 16, 1>, Layout::NZ>;
    using DstTile = Tile<TileType::Vec, half, 16, 32, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor, 512>;
    using RowIdx = Tile<TileType::Vec, int32_t, 1, 16, BLayout::RowMajor, 1, DYNAMIC>;
    using ElemIdx = Tile<TileType::Vec, int32_t, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    ScopedChecked unchecked(false);
    auto data = random_table<half>(2048);
    Table table(data.data());
    const auto d = table.desc();

    DstTile dst(11, 27);
    RowIdx ridx(11);
    for (int r = 0; r < 11; ++r) set_index(ridx, 0, r, uint32_t((r * 7) % 40));  // some past the 32 rows
    MGATHER<Coalesce::Row, GatherOOB::Wrap>(dst, table, ridx);
    EXPECT_EQ(valid_region(dst.data(), shape_of(dst), 2),
              reference_gather({d, 2, false}, true, Policy::Wrap, 11, 27,
                               [&](int r, int) { return uint32_t(ridx.GetValue(uint32_t(r))); }));

    ElemIdx eidx(11, 27);
    for (int r = 0; r < 11; ++r) {
        for (int c = 0; c < 27; ++c) set_index(eidx, r, c, uint32_t(uniform(0, 1100)));
    }
    MGATHER<Coalesce::Elem, GatherOOB::Zero>(dst, table, eidx);
    EXPECT_EQ(valid_region(dst.data(), shape_of(dst), 2),
              reference_gather({d, 2, false}, false, Policy::Zero, 11, 27, [&](int r, int c) {
                  return uint32_t(eidx.GetValue(uint32_t(GetTileOffset<ElemIdx>(r, c))));
              }));
}

TEST(MGatherIntrinsic, DegenerateOneByOneElementGather)
{
    using DstTile = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 1>;
    using IdxTile = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 1>;
    using Table = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>>;
    std::vector<int32_t> data(32);
    for (int i = 0; i < 32; ++i) data[std::size_t(i)] = 1000 + i;
    Table table(data.data());
    DstTile dst;
    IdxTile idx;
    TASSIGN(dst, 0x0);
    TASSIGN(idx, 0x20);
    dst.SetValue(1, -7);  // outside the valid region: untouched
    idx.SetValue(0, 29);
    MGATHER<Coalesce::Elem>(dst, table, idx);
    EXPECT_EQ(dst.GetValue(0), 1029);
    EXPECT_EQ(dst.GetValue(1), -7);
}

TEST(MGatherIntrinsic, WaitsOnEventsAndReturnsARecordEvent)
{
    using DstTile = Tile<TileType::Vec, float, 2, 8>;
    using IdxTile = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 2>;
    using Table = GlobalTensor<float, Shape<1, 1, 1, 4, 8>, Stride<1, 1, 1, 8, 1>>;
    std::vector<float> data(32, 2.5f);
    Table table(data.data());
    DstTile dst;
    IdxTile idx;
    idx.SetValue(0, 3);
    idx.SetValue(1, 0);
    Event<Op::TLOAD, Op::MGATHER_VEC> loaded;
    loaded = RecordEvent{};
    Event<Op::MGATHER_VEC, Op::TSTORE_VEC> gathered = MGATHER(dst, table, idx, loaded);
    (void)gathered;
    EXPECT_EQ(dst.GetValue(15), 2.5f);
}

TEST(MGatherIntrinsic, CheckedModeReportsAnIndexTileNothingWrote)
{
    ScopedChecked checked(true);
    using DstTile = Tile<TileType::Vec, float, 4, 8>;
    using IdxTile = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 4>;
    using Table = GlobalTensor<float, Shape<1, 1, 1, 4, 8>, Stride<1, 1, 1, 8, 1>>;
    std::vector<float> data(32, 1.0f);
    Table table(data.data());
    DstTile dst;
    IdxTile idx;
    TASSIGN(dst, 0x0);
    TASSIGN(idx, 0x100);
    idx.SetValue(0, 1);  // indices 1..3 never written
    expect_diagnostic([&] { MGATHER(dst, table, idx); }, "RUN_UNINIT_READ", {"MGATHER", "idx"});
}
