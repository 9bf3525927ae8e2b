// MSCATTER through the C++ front door for every element type the cpu profile takes, every out-of-range
// policy, every atomic operation with its element types, both template spellings, static and dynamic
// shapes, against the reference scatter over the whole table.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace pto;
using namespace mscatter_test;

namespace {

template <typename T>
std::vector<T> random_elements(std::size_t n)
{
    const auto bytes = random_bytes(n, sizeof(T));
    std::vector<T> v(n);
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
}

// Finite, non-zero values with fractions (or any integers) for the atomic combines.
template <typename T>
std::vector<T> random_numbers(std::size_t n)
{
    if constexpr (std::is_integral_v<T>) {
        return random_elements<T>(n);
    } else {
        std::vector<T> v(n);
        for (auto& x : v) x = T(float(uniform(-4000, 4000) | 1) / 32.0f);
        return v;
    }
}

template <typename TileT>
void set_at(TileT& tile, int r, int c, typename TileT::DType v)
{
    tile.SetValue(uint32_t(GetTileOffset<TileT>(r, c)), v);
}

template <typename TileT>
typename TileT::DType get_at(const TileT& tile, int r, int c)
{
    return tile.GetValue(uint32_t(GetTileOffset<TileT>(r, c)));
}

// Calls fn(integral_constant<ScatterOOB, O>) for every policy.
template <typename Fn>
void for_each_oob(Fn&& fn)
{
    for_each_constant<ScatterOOB::Undefined, ScatterOOB::Skip, ScatterOOB::Clamp, ScatterOOB::Wrap>(fn);
}

}  // namespace

template <typename T>
class MScatterTyped : public ::testing::Test {};

using ElementTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float,
                                      float8_e4m3_t, float8_e5m2_t, hifloat8_t>;
TYPED_TEST_SUITE(MScatterTyped, ElementTypes);

TYPED_TEST(MScatterTyped, RowScatterWithDynamicShapesMatchesTheReference)
{
    using T = TypeParam;
    constexpr int kCols = 64 / int(sizeof(T));
    using SrcTile = Tile<TileType::Vec, T, 8, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using IdxTile = Tile<TileType::Vec, uint32_t, 1, 8, BLayout::RowMajor, 1, DYNAMIC>;
    using Table = GlobalTensor<T, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;
    ScopedChecked unchecked(false);

    for_each_oob([&](auto policy) {
        constexpr ScatterOOB Oob = decltype(policy)::value;
        const int rows = uniform(1, 8), cols = uniform(1, kCols), table_rows = uniform(1, 10);
        const int row_stride = cols + uniform(0, 5);
        auto data = random_elements<T>(std::size_t(table_rows) * row_stride);
        auto expected = data;
        Table table(data.data(), {table_rows, cols}, {row_stride});
        SrcTile src(rows, cols);
        IdxTile idx(rows);
        TASSIGN(src, 0x0);
        TASSIGN(idx, 0x2000);
        const auto values = random_elements<T>(std::size_t(8 * kCols));
        for (int r = 0; r < rows; ++r) {
            set_at(idx, 0, r, uint32_t(uniform(-1, table_rows + 3)));
            for (int c = 0; c < cols; ++c) set_at(src, r, c, values[std::size_t(r * kCols + c)]);
        }

        MSCATTER<Coalesce::Row, ScatterAtomicOp::None, Oob>(table, src, idx);

        reference_scatter<T>(expected, true, uint64_t(table_rows), row_stride, 0, ScatterAtomicOp::None,
                             scatter_policy_of(Oob), rows, cols, [&](int r, int) { return get_at(idx, 0, r); },
                             [&](int r, int c) { return get_at(src, r, c); });
        EXPECT_TRUE(same_bits(data, expected)) << "policy " << int(Oob);
    });
}

TYPED_TEST(MScatterTyped, ElemScatterMatchesTheReference)
{
    using T = TypeParam;
    constexpr int kCols = 32 / int(sizeof(T));
    using SrcTile = Tile<TileType::Vec, T, 4, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using IdxTile = Tile<TileType::Vec, int32_t, 4, (kCols < 8 ? 8 : kCols), BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Table = GlobalTensor<T, Shape<1, 1, 2, DYNAMIC, DYNAMIC>, Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, 1>>;
    ScopedChecked unchecked(false);

    for_each_oob([&](auto policy) {
        constexpr ScatterOOB Oob = decltype(policy)::value;
        const int rows = uniform(1, 4), cols = uniform(1, kCols), d3 = uniform(1, 3), d4 = uniform(1, 9);
        const uint64_t size = uint64_t(2 * d3 * d4);
        auto data = random_elements<T>(size);
        auto expected = data;
        Table table(data.data(), {d3, d4}, {2 * d3 * d4, 2 * d3 * d4, d3 * d4, d4});
        SrcTile src(rows, cols);
        IdxTile idx(rows, cols);
        const auto values = random_elements<T>(std::size_t(4 * kCols));
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < cols; ++c) {
                set_at(idx, r, c, int32_t(uniform(-1, int(size) + 3)));
                set_at(src, r, c, values[std::size_t(r * kCols + c)]);
            }
        }

        MSCATTER<Coalesce::Elem, ScatterAtomicOp::None, Oob>(table, src, idx);

        reference_scatter<T>(expected, false, 0, 0, size, ScatterAtomicOp::None, scatter_policy_of(Oob), rows, cols,
                             [&](int r, int c) { return uint32_t(get_at(idx, r, c)); },
                             [&](int r, int c) { return get_at(src, r, c); });
        EXPECT_TRUE(same_bits(data, expected)) << "policy " << int(Oob);
    });
}

template <typename T>
class MScatterAtomicTyped : public ::testing::Test {};

using AtomicTypes = ::testing::Types<int32_t, uint32_t, float, half, bfloat16_t>;
TYPED_TEST_SUITE(MScatterAtomicTyped, AtomicTypes);

// Every atomic the cpu profile takes for T, in both modes, written policy-first for Row (as the A5
// examples spell it) and mode-first for Elem.
TYPED_TEST(MScatterAtomicTyped, AtomicCombinesMatchTheReference)
{
    using T = TypeParam;
    constexpr int kCols = 32 / int(sizeof(T));
    using SrcTile = Tile<TileType::Vec, T, 6, kCols, BLayout::RowMajor, 6, kCols>;
    using RowIdx = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 6>;
    using ElemIdx = Tile<TileType::Vec, int32_t, 6, (kCols < 8 ? 8 : kCols), BLayout::RowMajor, 6, kCols>;
    using Table = GlobalTensor<T, Shape<1, 1, 1, 4, kCols>, Stride<1, 1, 1, kCols, 1>>;
    constexpr bool max_min = std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

    auto check = [&](auto atomic_c) {
        constexpr ScatterAtomicOp Atomic = decltype(atomic_c)::value;
        auto data = random_numbers<T>(4 * kCols);
        auto expected = data;
        Table table(data.data());
        SrcTile src;
        RowIdx ridx;
        ElemIdx eidx;
        const auto values = random_numbers<T>(std::size_t(6 * kCols));
        for (int r = 0; r < 6; ++r) {
            set_at(ridx, 0, r, uniform(0, 3));  // six rows into four: collisions combine
            for (int c = 0; c < kCols; ++c) {
                set_at(src, r, c, values[std::size_t(r * kCols + c)]);
                set_at(eidx, r, c, uniform(0, 4 * kCols - 1));
            }
        }
        MSCATTER<Atomic, ScatterOOB::Skip, ScatterConflict::Default, Coalesce::Row>(table, src, ridx);
        reference_scatter<T>(expected, true, 4, kCols, 0, Atomic, ScatterPolicy::Skip, 6, kCols,
                             [&](int r, int) { return uint32_t(get_at(ridx, 0, r)); },
                             [&](int r, int c) { return get_at(src, r, c); });
        EXPECT_TRUE(same_bits(data, expected)) << "Row, atomic " << int(Atomic);

        MSCATTER<Coalesce::Elem, Atomic>(table, src, eidx);
        reference_scatter<T>(expected, false, 0, 0, uint64_t(4 * kCols), Atomic, ScatterPolicy::Clamp, 6, kCols,
                             [&](int r, int c) { return uint32_t(get_at(eidx, r, c)); },
                             [&](int r, int c) { return get_at(src, r, c); });
        EXPECT_TRUE(same_bits(data, expected)) << "Elem, atomic " << int(Atomic);
    };
    check(std::integral_constant<ScatterAtomicOp, ScatterAtomicOp::Add>{});
    if constexpr (max_min) {
        check(std::integral_constant<ScatterAtomicOp, ScatterAtomicOp::Max>{});
        check(std::integral_constant<ScatterAtomicOp, ScatterAtomicOp::Min>{});
    }
}

TEST(MScatterIntrinsic, ColMajorSourceWithAColumnIndex)
{
    using SrcTile = Tile<TileType::Vec, int16_t, 16, 3, BLayout::ColMajor, 5, 3>;
    using IdxTile = Tile<TileType::Vec, int32_t, 8, 1, BLayout::ColMajor, 5, 1>;
    using Table = GlobalTensor<int16_t, Shape<1, 1, 1, 6, 3>, Stride<1, 1, 1, 3, 1>>;
    std::vector<int16_t> data(18, -1);
    Table table(data.data());
    SrcTile src;
    IdxTile idx;
    const int rows[5] = {5, 0, 3, 1, 4};
    for (int r = 0; r < 5; ++r) {
        set_at(idx, r, 0, rows[r]);
        for (int c = 0; c < 3; ++c) set_at(src, r, c, int16_t(10 * r + c));
    }
    MSCATTER(table, src, idx);
    for (int r = 0; r < 5; ++r) {
        for (int c = 0; c < 3; ++c) EXPECT_EQ(data[std::size_t(rows[r] * 3 + c)], 10 * r + c);
    }
    EXPECT_EQ(data[2 * 3], -1);  // row 2 is nobody's target
}

TEST(MScatterIntrinsic, WaitsOnEventsAndReturnsARecordEvent)
{
    using SrcTile = Tile<TileType::Vec, float, 1, 8>;
    using Table = GlobalTensor<float, Shape<1, 1, 1, 1, 16>, Stride<1, 1, 1, 16, 1>>;
    std::vector<float> data(16, 0.0f);
    Table table(data.data());
    SrcTile src;
    Tile<TileType::Vec, int32_t, 1, 8> idx;
    for (int c = 0; c < 8; ++c) {
        src.SetValue(uint32_t(c), float(c) + 0.25f);
        idx.SetValue(uint32_t(c), 15 - 2 * c);
    }
    Event<Op::VECTOR, Op::MSCATTER> ready;
    ready = RecordEvent{};
    Event<Op::MSCATTER, Op::TLOAD> done = MSCATTER<Coalesce::Elem>(table, src, idx, ready);
    (void)done;
    for (int c = 0; c < 8; ++c) EXPECT_EQ(data[std::size_t(15 - 2 * c)], float(c) + 0.25f);
}

TEST(MScatterIntrinsic, CheckedModeReportsASourceNothingWrote)
{
    ScopedChecked checked(true);
    using SrcTile = Tile<TileType::Vec, float, 2, 8>;
    using IdxTile = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 2>;
    using Table = GlobalTensor<float, Shape<1, 1, 1, 4, 8>, Stride<1, 1, 1, 8, 1>>;
    std::vector<float> data(32, 0.0f);
    Table table(data.data());
    SrcTile src;
    IdxTile idx;
    TASSIGN(src, 0x0);
    TASSIGN(idx, 0x100);
    idx.SetValue(0, 1);
    idx.SetValue(1, 2);
    src.SetValue(0, 1.0f);  // the rest of the source was never written
    expect_diagnostic([&] { MSCATTER(table, src, idx); }, "RUN_UNINIT_READ", {"MSCATTER", "src"});
}
