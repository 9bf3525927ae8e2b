// The C++ examples of the MGATHER page, compiled and run unchanged. Each kernel body is as the page
// shows it; around it, a test prepares the GM buffers (and the UB indices of the examples that never
// load them), launches it, and reads its result back from the tile memory the example assigned.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/memory_gather.hpp>
#include <pto/profile/rules_memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace pto;

namespace {

// --- the page's kernels, unchanged -----------------------------------------------------------------------
// (Some take pointers they never use, as printed on the page.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

template <typename T, int R, int C, int TableRows>
AICORE void example_embedding_lookup(__gm__ T* tablePtr, __gm__ int32_t* idxPtr, __gm__ T* outPtr)
{
    using DstTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, R, C>;
    using IdxTile = Tile<TileType::Vec, int32_t, 1, R, BLayout::RowMajor, 1, R>;
    using TableShape = Shape<1, 1, 1, TableRows, C>;
    using TableStride = Stride<1, 1, 1, C, 1>;
    using TableTensor = GlobalTensor<T, TableShape, TableStride>;
    using IdxShape = Shape<1, 1, 1, 1, R>;
    using IdxStride = Stride<1, 1, 1, R, 1>;
    using IdxTensor = GlobalTensor<int32_t, IdxShape, IdxStride>;
    TableTensor tableGM(tablePtr);
    IdxTensor idxGM(idxPtr);
    DstTile dst; TASSIGN(dst, 0x0000);
    IdxTile idx; TASSIGN(idx, 0x1000);
    TLOAD(idx, idxGM);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    MGATHER<Coalesce::Row, GatherOOB::Clamp>(dst, tableGM, idx);
}

AICORE void example_elem_2d(__gm__ float* tablePtr, __gm__ int32_t* idxPtr)
{
    constexpr int R = 8, C = 32, TableSize = 256;
    using DstTile = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, C>;
    using IdxTile = Tile<TileType::Vec, int32_t, R, C, BLayout::RowMajor, R, C>;
    using TableShape = Shape<1, 1, 1, 1, TableSize>;
    using TableStride = Stride<1, 1, 1, TableSize, 1>;
    using TableTensor = GlobalTensor<float, TableShape, TableStride>;
    TableTensor tableGM(tablePtr);
    DstTile dst; TASSIGN(dst, 0x0000);
    IdxTile idx; TASSIGN(idx, 0x0800);
    MGATHER<Coalesce::Elem, GatherOOB::Wrap>(dst, tableGM, idx);
}

AICORE void example_row_colidx(__gm__ half* tablePtr, __gm__ int32_t* idxPtr)
{
    constexpr int R = 8, C = 64, TableRows = 64;
    using DstTile = Tile<TileType::Vec, half, R, C, BLayout::RowMajor, R, C>;
    using IdxTile = Tile<TileType::Vec, int32_t, R, 1, BLayout::ColMajor, R, 1>;
    using TableShape = Shape<1, 1, 1, TableRows, C>;
    using TableStride = Stride<1, 1, 1, C, 1>;
    using TableTensor = GlobalTensor<half, TableShape, TableStride>;
    using IdxShape = Shape<1, 1, 1, R, 1>;
    using IdxStride = Stride<1, 1, 1, 1, 1>;
    using IdxTensor = GlobalTensor<int32_t, IdxShape, IdxStride, Layout::DN>;
    TableTensor tableGM(tablePtr);
    IdxTensor idxGM(idxPtr);
    DstTile dst; TASSIGN(dst, 0x0000);
    IdxTile idx; TASSIGN(idx, 0x1000);
    TLOAD(idx, idxGM);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    MGATHER<Coalesce::Row, GatherOOB::Undefined>(dst, tableGM, idx);
}

AICORE void example_scalar(__gm__ float* tablePtr, __gm__ int32_t* idxPtr)
{
    constexpr int TableSize = 32;
    using DstTile = Tile<TileType::Vec, float, 1, 8, BLayout::RowMajor, 1, 1>;
    using IdxTile = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 1>;
    using TableShape = Shape<1, 1, 1, 1, TableSize>;
    using TableStride = Stride<1, 1, 1, TableSize, 1>;
    using TableTensor = GlobalTensor<float, TableShape, TableStride>;
    TableTensor tableGM(tablePtr);
    DstTile dst; TASSIGN(dst, 0x0000);
    IdxTile idx; TASSIGN(idx, 0x0080);
    MGATHER<Coalesce::Elem>(dst, tableGM, idx);
}

// The dynamic-shape fragment (mirrors case_elem2d_dyn_user_float_1x9_in_1x16_3x10), completed into a
// kernel with the GM pointer and the UB offsets it names.
void example_elem2d_dyn(float* srcGm, uint64_t dstUbOffsetBytes, uint64_t idxUbOffsetBytes)
{
    constexpr auto kPadCols = 16;
    using DstTileT = Tile<TileType::Vec, float, 1, kPadCols, BLayout::RowMajor, -1, -1>;
    using IdxTileT = Tile<TileType::Vec, int32_t, 1, kPadCols, BLayout::RowMajor, -1, -1>;
    using TableShape = Shape<1, 1, 1, -1, -1>;
    using TableStride = Stride<1, 1, 1, -1, -1>;
    int64_t validCols = 9, d3 = 3, d4 = 10, srcStride3 = 10;
    TableShape tableShape(d3, d4);
    TableStride tableStride(srcStride3, (int64_t)1);
    GlobalTensor<float, TableShape, TableStride> tableGM(srcGm, tableShape, tableStride);
    DstTileT dstTile(1, validCols);
    IdxTileT idxTile(1, validCols);
    TASSIGN(dstTile, dstUbOffsetBytes);
    TASSIGN(idxTile, idxUbOffsetBytes);
    MGATHER<Coalesce::Elem, GatherOOB::Undefined>(dstTile, tableGM, idxTile);
}

template <typename T, int R, int C, int TableRows>
AICORE void example_gm2l1_row(__gm__ T* tablePtr, __gm__ int32_t* idxPtr)
{
    using TableShape = Shape<1, 1, 1, TableRows, C>;
    using TableStride = Stride<1, 1, 1, C, 1>;
    using IdxShape = Shape<1, 1, 1, 1, R>;
    using IdxStride = Stride<1, 1, 1, R, 1>;
    GlobalTensor<T, TableShape, TableStride, Layout::ND> tableGM(tablePtr);
    GlobalTensor<int32_t, IdxShape, IdxStride, Layout::ND> idxGM(idxPtr);
    using DstTile = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor, 512>;
    DstTile dst; TASSIGN(dst, 0x0);
    MGATHER<Coalesce::Row, GatherOOB::Clamp>(dst, tableGM, idxGM); // GM (ND) -> L1 (NZ)
}

template <typename T, int R, int C, int TableSize>
AICORE void example_gm2l1_elem(__gm__ T* tablePtr, __gm__ int32_t* idxPtr, __gm__ T* scratchPtr)
{
    using TableShape = Shape<1, 1, 1, 1, TableSize>;
    using TableStride = Stride<1, 1, 1, TableSize, 1>;
    using IdxShape = Shape<1, 1, 1, R, C>;
    using IdxStride = Stride<1, 1, 1, C, 1>;
    using ScratchShape = Shape<1, 1, 1, 1, R * C>;
    using ScratchStride= Stride<1, 1, 1, R * C, 1>;
    GlobalTensor<T, TableShape, TableStride, Layout::ND> tableGM(tablePtr);
    GlobalTensor<int32_t, IdxShape, IdxStride, Layout::ND> idxGM(idxPtr);
    GlobalTensor<T, ScratchShape, ScratchStride, Layout::ND> scratchGM(scratchPtr);
    using DstTile = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor, 512>;
    DstTile dst; TASSIGN(dst, 0x0);
    MGATHER<Coalesce::Elem, GatherOOB::Zero>(dst, tableGM, idxGM, scratchGM); // GM -> GM scratch (NZ) -> L1
}

template <typename T, int R, int C, int TableSize>
AICORE void example_gm2l1_elem_simt(__gm__ T* tablePtr, __gm__ int32_t* idxPtr, __gm__ T* scratchPtr)
{
    using TableShape = Shape<1, 1, 1, 1, TableSize>;
    using TableStride = Stride<1, 1, 1, TableSize, 1>;
    using IdxShape = Shape<1, 1, 1, R, C>;
    using IdxStride = Stride<1, 1, 1, C, 1>;
    using ScratchShape = Shape<1, 1, 1, 1, R * C>;
    using ScratchStride= Stride<1, 1, 1, R * C, 1>;
    GlobalTensor<T, TableShape, TableStride, Layout::ND> tableGM(tablePtr);
    GlobalTensor<int32_t, IdxShape, IdxStride, Layout::ND> idxGM(idxPtr);
    GlobalTensor<T, ScratchShape, ScratchStride, Layout::ND> scratchGM(scratchPtr);
    using DstTile = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor, 512>;
    DstTile dst; TASSIGN(dst, 0x0);
    // AIV SIMT gather (GM -> D-cache -> regs -> GM scratch, NZ) -> AIC copy_gm_to_cbuf -> L1.
    // No UB operand: the D-cache is implicit; the API deals only GM -> GM gather.
    MGATHER<Coalesce::Elem, GatherOOB::Zero, GatherExec::Simt>(dst, tableGM, idxGM, scratchGM);
}

#pragma GCC diagnostic pop

// --- around them -----------------------------------------------------------------------------------------

// Element (r, c) of a tile type assigned at `offset` of its memory: reads what an example left there.
template <typename TileT>
typename TileT::DType element_at(uint64_t offset, int r, int c)
{
    TileT view;
    TASSIGN(view, offset);
    return view.GetValue(uint32_t(GetTileOffset<TileT>(r, c)));
}

// Writes indices into UB at `offset`, as a preceding TLOAD would have.
template <typename IdxTile>
void put_indices(uint64_t offset, const std::vector<int32_t>& values)
{
    IdxTile idx;
    TASSIGN(idx, offset);
    for (std::size_t i = 0; i < values.size(); ++i) idx.SetValue(uint32_t(i), values[i]);
}

std::vector<float> counting_floats(int n)
{
    std::vector<float> v(std::size_t(n), 0.0f);
    for (int i = 0; i < n; ++i) v[std::size_t(i)] = float(i) * 0.5f + 1.0f;
    return v;
}

}  // namespace

TEST(MGatherPageExamples, EmbeddingLookup)
{
    constexpr int R = 8, C = 64, TableRows = 32;
    auto table = counting_floats(TableRows * C);
    std::vector<int32_t> idx{3, 31, 40, 0, 7, -1, 16, 2};  // 40 and -1 clamp to row 31
    std::vector<float> out(R * C, 0.0f);
    example_embedding_lookup<float, R, C, TableRows>(table.data(), idx.data(), out.data());
    using DstTile = Tile<TileType::Vec, float, R, C>;
    for (int r = 0; r < R; ++r) {
        const int row = idx[std::size_t(r)] >= 0 && idx[std::size_t(r)] < TableRows ? idx[std::size_t(r)] : TableRows - 1;
        for (int c = 0; c < C; c += 9) EXPECT_EQ(element_at<DstTile>(0x0, r, c), table[std::size_t(row * C + c)]);
    }
}

TEST(MGatherPageExamples, ElemTwoDimensional)
{
    auto table = counting_floats(256);
    std::vector<int32_t> idx(8 * 32);
    for (int i = 0; i < 256; ++i) idx[std::size_t(i)] = (i * 37) % 300;  // past 255 wraps
    put_indices<Tile<TileType::Vec, int32_t, 8, 32>>(0x0800, idx);
    example_elem_2d(table.data(), idx.data());
    for (int i = 0; i < 256; i += 5) {
        EXPECT_EQ((element_at<Tile<TileType::Vec, float, 8, 32>>(0x0, i / 32, i % 32)),
                  table[std::size_t(idx[std::size_t(i)] % 256)]);
    }
}

TEST(MGatherPageExamples, RowGatherWithAColumnIndex)
{
    std::vector<half> table(64 * 64);
    for (int i = 0; i < 64 * 64; ++i) table[std::size_t(i)] = half(float(i % 1000));
    std::vector<int32_t> idx{63, 1, 2, 30, 4, 5, 0, 9};
    example_row_colidx(table.data(), idx.data());
    using DstTile = Tile<TileType::Vec, half, 8, 64>;
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 64; c += 7) {
            EXPECT_EQ(element_at<DstTile>(0x0, r, c).bits, table[std::size_t(idx[std::size_t(r)] * 64 + c)].bits);
        }
    }
}

TEST(MGatherPageExamples, DegenerateOneByOne)
{
    auto table = counting_floats(32);
    put_indices<Tile<TileType::Vec, int32_t, 1, 8>>(0x0080, {21});
    std::vector<int32_t> unused;
    example_scalar(table.data(), unused.data());
    EXPECT_EQ((element_at<Tile<TileType::Vec, float, 1, 8>>(0x0, 0, 0)), table[21]);
}

TEST(MGatherPageExamples, DynamicElemShapes)
{
    auto table = counting_floats(30);
    put_indices<Tile<TileType::Vec, int32_t, 1, 16>>(0x400, {29, 0, 10, 11, 3, 4, 5, 28, 17});
    example_elem2d_dyn(table.data(), 0x0, 0x400);
    const int expected[9] = {29, 0, 10, 11, 3, 4, 5, 28, 17};
    for (int c = 0; c < 9; ++c) EXPECT_EQ((element_at<Tile<TileType::Vec, float, 1, 16>>(0x0, 0, c)), table[std::size_t(expected[c])]);
}

TEST(MGatherPageExamples, RowGatherIntoL1)
{
    constexpr int R = 16, C = 16, TableRows = 20;
    auto table = counting_floats(TableRows * C);
    std::vector<int32_t> idx(R);
    for (int r = 0; r < R; ++r) idx[std::size_t(r)] = (r * 3) % 25;  // 21..24 clamp to row 19
    example_gm2l1_row<float, R, C, TableRows>(table.data(), idx.data());
    using DstTile = Tile<TileType::Mat, float, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor, 512>;
    for (int r = 0; r < R; ++r) {
        const int row = std::min(idx[std::size_t(r)], TableRows - 1);
        for (int c = 0; c < C; ++c) EXPECT_EQ(element_at<DstTile>(0x0, r, c), table[std::size_t(row * C + c)]);
    }
}

TEST(MGatherPageExamples, ElemGatherIntoL1WithBothExecutors)
{
    constexpr int R = 16, C = 32, TableSize = 400;
    std::vector<half> table(TableSize);
    for (int i = 0; i < TableSize; ++i) table[std::size_t(i)] = half(float(i) - 200.0f);
    std::vector<int32_t> idx(R * C);
    for (int i = 0; i < R * C; ++i) idx[std::size_t(i)] = (i * 13) % 450;  // 400.. read zero
    std::vector<half> scratch(R * C), scratch_simt(R * C);
    using DstTile = Tile<TileType::Mat, half, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor, 512>;

    example_gm2l1_elem<half, R, C, TableSize>(table.data(), idx.data(), scratch.data());
    std::vector<uint16_t> scalar_result;
    for (int r = 0; r < R; ++r) {
        for (int c = 0; c < C; ++c) {
            const int i = idx[std::size_t(r * C + c)];
            const uint16_t expected = i < TableSize ? table[std::size_t(i)].bits : uint16_t(0);
            const uint16_t got = element_at<DstTile>(0x0, r, c).bits;
            EXPECT_EQ(got, expected) << r << ", " << c;
            scalar_result.push_back(got);
        }
    }
    example_gm2l1_elem_simt<half, R, C, TableSize>(table.data(), idx.data(), scratch_simt.data());
    std::size_t k = 0;
    for (int r = 0; r < R; ++r) {
        for (int c = 0; c < C; ++c) EXPECT_EQ(element_at<DstTile>(0x0, r, c).bits, scalar_result[k++]);
    }
    EXPECT_EQ(std::memcmp(scratch.data(), scratch_simt.data(), scratch.size() * sizeof(half)), 0);
}

// The page's "Auto" and "Manual" examples call MGATHER(dst, src, idx) — Coalesce::Row by DESIGN — with a
// 16 x 16 index tile, which the page's own Row rule ([1, R] or [R, 1]) forbids: as written they do not
// compile (LEGAL_MGATHER_INDEX_SHAPE). The rule and its run-time report, then the element gather such an
// index evidently asks for:
TEST(MGatherPageExamples, AutoAndManualUseAnIndexShapeThatCoalesceRowRejects)
{
    static_assert(!rules::index_shape_ok(profile::kCpu, Coalesce::Row, 16, 16, 16, 16));
    static_assert(rules::index_shape_ok(profile::kCpu, Coalesce::Elem, 16, 16, 16, 16));
    using DstT = Tile<TileType::Vec, float, 16, 16>;
    using IdxT = Tile<TileType::Vec, int32_t, 16, 16>;
    DstT dst;
    IdxT idx;
    TASSIGN(dst, 0x1000);
    TASSIGN(idx, 0x2000);
    std::vector<float> table(256, 1.0f);
    GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> src(table.data());
    mgather_test::expect_diagnostic(
        [&] { engine::mgather(dst.desc(), src.desc(), idx.desc(), Coalesce::Row, GatherOOB::Undefined); },
        "LEGAL_MGATHER_INDEX_SHAPE", {"[16, 16]", "[1, 16] or [16, 1]"});

    for (auto& v : table) v = float(mgather_test::uniform(-4000, 4000)) / 8.0f;
    std::vector<int32_t> indices(256);
    for (auto& i : indices) i = mgather_test::uniform(0, 255);
    put_indices<IdxT>(0x2000, indices);
    MGATHER<Coalesce::Elem>(dst, src, idx);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c)
            EXPECT_EQ(element_at<DstT>(0x1000, r, c), table[std::size_t(indices[std::size_t(r * 16 + c)])]) << r << "," << c;
}
