// MGATHER GM -> L1: an ND table through a GM index into a Mat NZ tile. Row with three operands, Elem
// with four (GM scratch), both executors, every policy, static and runtime valid shapes.
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
std::vector<T> random_values(std::size_t n)
{
    const auto bytes = random_bytes(n, sizeof(T));
    std::vector<T> v(n);
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
}

template <typename TileT>
TileShape nz_shape_of(const TileT& t)
{
    const auto d = t.desc();
    TileShape s{d.rows, d.cols, d.valid_rows, d.valid_cols};
    s.nz = true;
    return s;
}

// Bytes of the whole tile at the positions outside its valid region, in NZ storage order.
std::vector<uint8_t> outside_valid_region(const void* storage, const TileShape& s, int bytes)
{
    std::vector<uint8_t> out;
    const auto* base = static_cast<const uint8_t*>(storage);
    for (int r = 0; r < s.rows; ++r) {
        for (int c = 0; c < s.cols; ++c) {
            if (r < s.valid_rows && c < s.valid_cols) continue;
            const auto* p = base + reference_tile_offset(s, bytes, r, c) * bytes;
            out.insert(out.end(), p, p + bytes);
        }
    }
    return out;
}

constexpr int kR = 32;

}  // namespace

template <typename T>
class MGatherL1Typed : public ::testing::Test {};

using L1Types = ::testing::Types<int8_t, uint16_t, half, bfloat16_t, float, int32_t, float8_e4m3_t, hifloat8_t>;
TYPED_TEST_SUITE(MGatherL1Typed, L1Types);

// The page's Row example, with every policy and a runtime valid region inside a padded NZ tile.
TYPED_TEST(MGatherL1Typed, RowGatherIntoAnNzMatTile)
{
    using T = TypeParam;
    constexpr int kC = 2 * 32 / int(sizeof(T));  // two fractal columns
    constexpr int kTableRows = 40;
    using TableShape = Shape<1, 1, 1, kTableRows, kC>;
    using TableStride = Stride<1, 1, 1, kC, 1>;
    using IdxShape = Shape<1, 1, 1, 1, kR>;
    using IdxStride = Stride<1, 1, 1, kR, 1>;
    using DstTile = Tile<TileType::Mat, T, kR, kC, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor, 512>;
    ScopedChecked unchecked(false);

    auto data = random_values<T>(kTableRows * kC);
    std::vector<int32_t> indices(kR);
    GlobalTensor<T, TableShape, TableStride, Layout::ND> tableGM(data.data());
    GlobalTensor<int32_t, IdxShape, IdxStride, Layout::ND> idxGM(indices.data());
    const auto table_desc = tableGM.desc();

    auto check = [&](auto policy) {
        constexpr GatherOOB Oob = decltype(policy)::value;
        const int rows = uniform(1, kR), cols = uniform(1, kC);
        for (auto& i : indices) i = uniform(-2, kTableRows + 8);
        DstTile dst(rows, cols);
        TASSIGN(dst, 0x0);
        std::memset(dst.data(), 0x5A, sizeof(T) * kR * kC);
        MGATHER<Coalesce::Row, Oob>(dst, tableGM, idxGM);

        const auto shape = nz_shape_of(dst);
        EXPECT_EQ(valid_region(dst.data(), shape, sizeof(T)),
                  reference_gather({table_desc, int(sizeof(T)), false}, true, policy_of(Oob), rows, cols,
                                   [&](int r, int) { return uint32_t(indices[std::size_t(r)]); }))
            << "policy " << int(Oob);
        // The Zero policy clears the whole L1 tile first; the others write the valid region only.
        const auto outside = outside_valid_region(dst.data(), shape, sizeof(T));
        const uint8_t expected = Oob == GatherOOB::Zero ? 0 : 0x5A;
        EXPECT_TRUE(std::all_of(outside.begin(), outside.end(), [&](uint8_t b) { return b == expected; }));
    };
    check(std::integral_constant<GatherOOB, GatherOOB::Undefined>{});
    check(std::integral_constant<GatherOOB, GatherOOB::Clamp>{});
    check(std::integral_constant<GatherOOB, GatherOOB::Wrap>{});
    check(std::integral_constant<GatherOOB, GatherOOB::Zero>{});
}

// The Elem form: scalar and SIMT executors agree on the tile and on the scratch, which holds the NZ
// image (padding zero), and the whole tile is that image.
TYPED_TEST(MGatherL1Typed, ElemGatherScalarAndSimtExecutorsAgree)
{
    using T = TypeParam;
    constexpr int kC = 2 * 32 / int(sizeof(T));
    constexpr int kTableSize = 700;
    using TableShape = Shape<1, 1, 1, 1, kTableSize>;
    using TableStride = Stride<1, 1, 1, kTableSize, 1>;
    using IdxShape = Shape<1, 1, 1, kR, kC>;
    using IdxStride = Stride<1, 1, 1, kC, 1>;
    using ScratchShape = Shape<1, 1, 1, 1, kR * kC>;
    using ScratchStride = Stride<1, 1, 1, kR * kC, 1>;
    using DstTile = Tile<TileType::Mat, T, kR, kC, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor, 512>;
    ScopedChecked unchecked(false);

    auto data = random_values<T>(kTableSize);
    std::vector<int32_t> indices(kR * kC);
    std::vector<T> scratch_scalar(kR * kC), scratch_simt(kR * kC);
    GlobalTensor<T, TableShape, TableStride, Layout::ND> tableGM(data.data());
    GlobalTensor<int32_t, IdxShape, IdxStride, Layout::ND> idxGM(indices.data());
    GlobalTensor<T, ScratchShape, ScratchStride, Layout::ND> scalarGM(scratch_scalar.data());
    GlobalTensor<T, ScratchShape, ScratchStride, Layout::ND> simtGM(scratch_simt.data());
    const auto table_desc = tableGM.desc();

    auto check = [&](auto policy) {
        constexpr GatherOOB Oob = decltype(policy)::value;
        const int rows = uniform(1, kR), cols = uniform(1, kC);
        for (auto& i : indices) i = uniform(-3, kTableSize + 50);
        DstTile scalar(rows, cols), simt(rows, cols);
        TASSIGN(scalar, 0x0);
        TASSIGN(simt, 0x10000);
        std::memset(scalar.data(), 0x5A, sizeof(T) * kR * kC);
        std::memset(simt.data(), 0x33, sizeof(T) * kR * kC);
        std::memset(scratch_scalar.data(), 0x77, sizeof(T) * kR * kC);

        MGATHER<Coalesce::Elem, Oob>(scalar, tableGM, idxGM, scalarGM);  // GatherExec::Scalar by default
        MGATHER<Coalesce::Elem, Oob, GatherExec::Simt>(simt, tableGM, idxGM, simtGM);

        const auto shape = nz_shape_of(scalar);
        EXPECT_EQ(valid_region(scalar.data(), shape, sizeof(T)),
                  reference_gather({table_desc, int(sizeof(T)), false}, false, policy_of(Oob), rows, cols,
                                   [&](int r, int c) { return uint32_t(indices[std::size_t(r * kC + c)]); }))
            << "policy " << int(Oob);
        const auto outside = outside_valid_region(scalar.data(), shape, sizeof(T));
        EXPECT_TRUE(std::all_of(outside.begin(), outside.end(), [](uint8_t b) { return b == 0; }));
        EXPECT_EQ(std::memcmp(scalar.data(), simt.data(), sizeof(T) * kR * kC), 0);
        EXPECT_EQ(std::memcmp(scratch_scalar.data(), scalar.data(), sizeof(T) * kR * kC), 0);
        EXPECT_EQ(std::memcmp(scratch_simt.data(), scalar.data(), sizeof(T) * kR * kC), 0);
    };
    check(std::integral_constant<GatherOOB, GatherOOB::Undefined>{});
    check(std::integral_constant<GatherOOB, GatherOOB::Clamp>{});
    check(std::integral_constant<GatherOOB, GatherOOB::Wrap>{});
    check(std::integral_constant<GatherOOB, GatherOOB::Zero>{});
}

TEST(MGatherL1, RowGatherFoldsOuterTableDimensionsIntoRowsWithPaddedRowStride)
{
    // Shape<1, 2, 1, 5, 16>: ten logical rows, each 16 wide, 24 elements apart (GetStride(DIM_3)).
    using Table = GlobalTensor<float, Shape<1, 2, 1, 5, 16>, Stride<240, 120, 120, 24, 1>>;
    using Idx = GlobalTensor<uint32_t, Shape<1, 1, 1, 16, 1>, Stride<16, 16, 16, 1, 1>>;
    using DstTile = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 512>;
    std::vector<float> data(240);
    for (int i = 0; i < 240; ++i) data[std::size_t(i)] = float(i);
    std::vector<uint32_t> indices(16);
    for (int r = 0; r < 16; ++r) indices[std::size_t(r)] = uint32_t(9 - r % 10);
    Table table(data.data());
    Idx idx(indices.data());
    DstTile dst;
    TASSIGN(dst, 0x2000);
    MGATHER(dst, table, idx);  // Coalesce::Row: the three-operand GM -> L1 form
    const TileShape shape = nz_shape_of(dst);
    for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 16; ++c) {
            EXPECT_EQ(dst.GetValue(uint32_t(reference_tile_offset(shape, 4, r, c))), float(indices[std::size_t(r)] * 24 + c));
        }
    }
}
