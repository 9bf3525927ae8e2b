// MGATHER legality: the rule predicates per profile (what the intrinsics static_assert), and every
// illegal case through the engine entry, with its diagnostic code and a message naming the problem.
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/profile/rules_memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace mgather_test;
using pto::BLayout;
using pto::Coalesce;
using pto::GatherExec;
using pto::GatherOOB;
using pto::Layout;
using pto::SLayout;
using pto::TileType;
namespace rules = pto::rules;
using pto::profile::kA2A3;
using pto::profile::kA5;
using pto::profile::kCpu;

// --- the predicates, per profile --------------------------------------------------------------------------

static_assert(rules::indexed_transfer_dtype_ok(kA2A3, DType::BF16) && rules::indexed_transfer_dtype_ok(kA2A3, DType::U8));
static_assert(!rules::indexed_transfer_dtype_ok(kA2A3, DType::F8E4M3) && !rules::indexed_transfer_dtype_ok(kA2A3, DType::HiF8));
static_assert(rules::indexed_transfer_dtype_ok(kA5, DType::F8E5M2) && rules::indexed_transfer_dtype_ok(kA5, DType::HiF8));
static_assert(rules::indexed_transfer_dtype_ok(kCpu, DType::F8E4M3));
static_assert(!rules::indexed_transfer_dtype_ok(kCpu, DType::I64) && !rules::indexed_transfer_dtype_ok(kA5, DType::F8E8M0));
static_assert(rules::index_dtype_ok(DType::I32) && rules::index_dtype_ok(DType::U32) && !rules::index_dtype_ok(DType::I16));

static_assert(rules::gather_table_layout_ok(kA2A3, Layout::NZ) && !rules::gather_table_layout_ok(kA5, Layout::NZ));
static_assert(rules::gather_table_layout_ok(kCpu, Layout::NZ) && !rules::gather_table_layout_ok(kCpu, Layout::DN));

static_assert(!rules::indexed_tile_layout_ok(kA2A3, Layout::ND, BLayout::ColMajor, SLayout::NoneBox, 512));
static_assert(rules::indexed_tile_layout_ok(kA5, Layout::ND, BLayout::ColMajor, SLayout::NoneBox, 512));
static_assert(rules::indexed_tile_layout_ok(kA2A3, Layout::NZ, BLayout::ColMajor, SLayout::RowMajor, 512));
static_assert(!rules::indexed_tile_layout_ok(kA2A3, Layout::NZ, BLayout::RowMajor, SLayout::NoneBox, 512));
static_assert(!rules::indexed_tile_layout_ok(kCpu, Layout::ND, BLayout::ColMajor, SLayout::RowMajor, 512));

static_assert(rules::index_tile_layout_ok(kA2A3, Coalesce::Row, BLayout::RowMajor, SLayout::NoneBox, 1, 8));
static_assert(!rules::index_tile_layout_ok(kA2A3, Coalesce::Elem, BLayout::ColMajor, SLayout::NoneBox, 8, 8));
static_assert(rules::index_tile_layout_ok(kA5, Coalesce::Row, BLayout::ColMajor, SLayout::NoneBox, 8, 1));
static_assert(!rules::index_tile_layout_ok(kA5, Coalesce::Row, BLayout::RowMajor, SLayout::NoneBox, 8, 1));
static_assert(!rules::index_tile_layout_ok(kA5, Coalesce::Row, BLayout::ColMajor, SLayout::NoneBox, 1, 8));
static_assert(rules::index_tile_layout_ok(kA5, Coalesce::Elem, BLayout::ColMajor, SLayout::NoneBox, 8, 8));
static_assert(rules::index_tile_layout_ok(kCpu, Coalesce::Row, BLayout::RowMajor, SLayout::NoneBox, 8, 1));
static_assert(!rules::index_tile_layout_ok(kCpu, Coalesce::Row, BLayout::RowMajor, SLayout::RowMajor, 1, 8));

static_assert(rules::index_shape_ok(kA2A3, Coalesce::Row, 1, 8, 8, 16) && !rules::index_shape_ok(kA2A3, Coalesce::Row, 8, 1, 8, 16));
static_assert(rules::index_shape_ok(kA5, Coalesce::Row, 8, 1, 8, 16) && rules::index_shape_ok(kCpu, Coalesce::Row, 8, 1, 8, 16));
static_assert(!rules::index_shape_ok(kCpu, Coalesce::Row, 16, 16, 16, 16));
static_assert(rules::index_shape_ok(kA2A3, Coalesce::Elem, 3, 5, 3, 5) && !rules::index_shape_ok(kA5, Coalesce::Elem, 3, 4, 3, 5));
static_assert(rules::index_shape_ok(kA2A3, Coalesce::Row, 1, 1, 1, 9));  // R = 1
static_assert(rules::indexed_valid_shape_ok(1, 1) && !rules::indexed_valid_shape_ok(0, 4));

static_assert(rules::indexed_tile_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 3, 8, 32));
static_assert(!rules::indexed_tile_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 8, 12, 32));
static_assert(!rules::indexed_tile_alignment_ok(BLayout::ColMajor, SLayout::NoneBox, 12, 8, 16));
static_assert(rules::nz_table_shape_ok(16, 16, 16) && rules::nz_table_shape_ok(16, 32, 8) && !rules::nz_table_shape_ok(8, 16, 16));
static_assert(rules::nz_tile_shape_ok(32, 16, 16) && !rules::nz_tile_shape_ok(24, 16, 16) && !rules::nz_tile_shape_ok(16, 12, 16));

static_assert(rules::row_table_width_ok(kA5, 16, 16) && !rules::row_table_width_ok(kA5, 16, 12));
static_assert(rules::row_table_width_ok(kA2A3, 16, 12) && !rules::row_table_width_ok(kCpu, 8, 12));
static_assert(rules::row_table_packed_ok(kA2A3, 24, 16) && rules::row_table_packed_ok(kCpu, 24, 16));
static_assert(!rules::row_table_packed_ok(kA5, 24, 16) && rules::row_table_packed_ok(kA5, 16, 16));
static_assert(rules::row_table_contiguous_ok(1) && !rules::row_table_contiguous_ok(2));

static_assert(rules::l1_gather_tile_ok(TileType::Mat, BLayout::ColMajor, SLayout::RowMajor, 512));
static_assert(!rules::l1_gather_tile_ok(TileType::Vec, BLayout::ColMajor, SLayout::RowMajor, 512));
static_assert(!rules::l1_gather_tile_ok(TileType::Mat, BLayout::RowMajor, SLayout::ColMajor, 512));
static_assert(rules::l1_gather_table_layout_ok(Layout::ND) && !rules::l1_gather_table_layout_ok(Layout::NZ));
static_assert(rules::l1_gather_form_ok(Coalesce::Row, false) && rules::l1_gather_form_ok(Coalesce::Elem, true));
static_assert(!rules::l1_gather_form_ok(Coalesce::Row, true) && !rules::l1_gather_form_ok(Coalesce::Elem, false));
static_assert(rules::l1_gather_dtype_ok(kA5, Coalesce::Row, DType::HiF8) && !rules::l1_gather_dtype_ok(kA2A3, Coalesce::Elem, DType::HiF8));
static_assert(rules::l1_scratch_size_ok(512, 16, 32) && !rules::l1_scratch_size_ok(511, 16, 32));
static_assert(rules::gm_index_shape_ok(Coalesce::Row, 1, 16, 16, 4) && !rules::gm_index_shape_ok(Coalesce::Row, 1, 15, 16, 4));
static_assert(rules::gm_index_shape_ok(Coalesce::Elem, 16, 8, 16, 8) && !rules::gm_index_shape_ok(Coalesce::Elem, 16, 8, 16, 9));
static_assert(rules::gather_exec_ok(kA5, GatherExec::Simt) && rules::gather_exec_ok(kCpu, GatherExec::Simt));
static_assert(!rules::gather_exec_ok(kA2A3, GatherExec::Simt) && rules::gather_exec_ok(kA2A3, GatherExec::Scalar));

TEST(MGatherRules, PredicatesHoldAtCompileTime) { SUCCEED(); }

// --- illegal cases through the engine -----------------------------------------------------------------------

namespace {

// A legal Row gather of 8 rows x 16 floats from a 64 x 16 table; each test breaks one thing.
struct GatherCall {
    std::vector<float> table = std::vector<float>(64 * 16, 1.0f);
    std::vector<float> dst = std::vector<float>(32 * 32, 0.0f);
    std::vector<int32_t> idx = std::vector<int32_t>(32 * 32, 3);
    TileDesc dst_desc = tile_desc(dst.data(), DType::F32, {8, 16, 8, 16});
    GlobalDesc table_desc = global_desc(table.data(), DType::F32, Layout::ND, {1, 1, 1, 64, 16}, {1024, 1024, 1024, 16, 1});
    TileDesc idx_desc = tile_desc(idx.data(), DType::I32, {1, 8, 1, 8});
    Coalesce mode = Coalesce::Row;
    GatherOOB oob = GatherOOB::Clamp;

    void run() const { pto::engine::mgather(dst_desc, table_desc, idx_desc, mode, oob); }
};

void expect_rejected(const GatherCall& call, const std::string& code, std::initializer_list<std::string> mentions)
{
    expect_diagnostic([&] { call.run(); }, code, mentions);
}

}  // namespace

TEST(MGatherRules, LegalBaselineRuns)
{
    for (Target t : {Target::Cpu, Target::A2A3, Target::A5}) {
        ScopedTarget target(t);
        GatherCall call;
        EXPECT_NO_THROW(call.run());
        EXPECT_EQ(call.dst[0], 1.0f);
    }
}

TEST(MGatherRules, EightBitFloatsAreRejectedOnA2A3)
{
    ScopedTarget target(Target::A2A3);
    GatherCall call;
    call.dst_desc.dtype = call.table_desc.dtype = DType::F8E4M3;
    expect_rejected(call, "LEGAL_MGATHER_DTYPE", {"MGATHER", "f8e4m3", "a2a3"});
}

TEST(MGatherRules, SixtyFourBitElementsAreRejectedEverywhere)
{
    GatherCall call;
    call.dst_desc.dtype = call.table_desc.dtype = DType::I64;
    expect_rejected(call, "LEGAL_MGATHER_DTYPE", {"i64"});
}

TEST(MGatherRules, IndicesMustBe32BitIntegers)
{
    GatherCall call;
    call.idx_desc.dtype = DType::I16;
    expect_rejected(call, "LEGAL_MGATHER_INDEX_DTYPE", {"idx", "i16"});
}

TEST(MGatherRules, TableElementTypeMustBeTheTiles)
{
    GatherCall call;
    call.table_desc.dtype = DType::I32;
    expect_rejected(call, "LEGAL_MGATHER_TABLE_DTYPE", {"table", "f32", "i32"});
}

TEST(MGatherRules, TilesMustBeInUb)
{
    GatherCall call;
    call.idx_desc.loc = TileType::Mat;
    expect_rejected(call, "LEGAL_MGATHER_LOCATION", {"idx", "L1"});
    GatherCall mat;
    mat.dst_desc.loc = TileType::Mat;
    expect_rejected(mat, "LEGAL_MGATHER_LOCATION", {"dst", "GM tensor"});
    GatherCall acc;
    acc.dst_desc.loc = TileType::Acc;
    expect_rejected(acc, "LEGAL_MGATHER_LOCATION", {"dst", "L0C"});
}

TEST(MGatherRules, TableLayoutPerProfile)
{
    GatherCall dn;
    dn.table_desc.layout = Layout::DN;
    expect_rejected(dn, "LEGAL_MGATHER_TABLE_LAYOUT", {"DN"});
    ScopedTarget target(Target::A5);
    GatherCall nz;
    nz.table_desc.layout = Layout::NZ;
    expect_rejected(nz, "LEGAL_MGATHER_TABLE_LAYOUT", {"NZ", "a5"});
}

TEST(MGatherRules, ColMajorDestinationIsRejectedOnA2A3)
{
    ScopedTarget target(Target::A2A3);
    GatherCall call;
    call.dst_desc = tile_desc(call.dst.data(), DType::F32, {8, 16, 8, 16, BLayout::ColMajor});
    expect_rejected(call, "LEGAL_MGATHER_TILE_LAYOUT", {"dst", "ColMajor", "a2a3"});
}

TEST(MGatherRules, NdTableCannotPairWithAnNzTile)
{
    GatherCall call;
    TileShape nz{16, 16, 8, 16};
    nz.nz = true;
    call.dst_desc = tile_desc(call.dst.data(), DType::F32, nz);
    expect_rejected(call, "LEGAL_MGATHER_TILE_LAYOUT", {"fractals", "ND table"});
}

TEST(MGatherRules, RowIndexLayoutOnA5)
{
    ScopedTarget target(Target::A5);
    GatherCall call;  // [8, 1] index in a row-major [8, 8] tile: A5 reads the 8 indices as consecutive words
    call.idx_desc = tile_desc(call.idx.data(), DType::I32, {8, 8, 8, 1, BLayout::RowMajor});
    expect_rejected(call, "LEGAL_MGATHER_INDEX_LAYOUT", {"idx", "[8, 1]", "a5"});
}

TEST(MGatherRules, BoxedIndexTileIsRejected)
{
    GatherCall call;
    TileShape boxed{16, 8, 1, 8};
    boxed.nz = true;
    call.idx_desc = tile_desc(call.idx.data(), DType::I32, boxed);
    expect_rejected(call, "LEGAL_MGATHER_INDEX_LAYOUT", {"idx"});
}

TEST(MGatherRules, RowsMustBeWhole32ByteBursts)
{
    GatherCall call;
    call.dst_desc = tile_desc(call.dst.data(), DType::F32, {8, 12, 8, 12});
    expect_rejected(call, "LEGAL_MGATHER_ALIGN", {"dst", "48 bytes"});
}

TEST(MGatherRules, IndexShapeFollowsTheCoalesceMode)
{
    {
        ScopedTarget target(Target::A2A3);
        GatherCall column;  // [R, 1] is not an A2/A3 form
        column.idx_desc = tile_desc(column.idx.data(), DType::I32, {8, 8, 8, 1});
        expect_rejected(column, "LEGAL_MGATHER_INDEX_SHAPE", {"[1, 8]", "[8, 1]", "a2a3"});
    }
    GatherCall square;  // an Elem-shaped index under Coalesce::Row
    square.idx_desc = tile_desc(square.idx.data(), DType::I32, {8, 16, 8, 16});
    expect_rejected(square, "LEGAL_MGATHER_INDEX_SHAPE", {"Coalesce::Row", "[8, 16]"});
    GatherCall elem;
    elem.mode = Coalesce::Elem;
    elem.idx_desc = tile_desc(elem.idx.data(), DType::I32, {8, 16, 8, 15});
    expect_rejected(elem, "LEGAL_MGATHER_INDEX_SHAPE", {"Coalesce::Elem", "[8, 15]"});
}

TEST(MGatherRules, EmptyValidRegionIsRejected)
{
    GatherCall call;
    call.dst_desc.valid_rows = 0;
    call.idx_desc.valid_cols = 0;
    expect_rejected(call, "LEGAL_MGATHER_VALID_SHAPE", {"dst", "[0, 16]"});
}

TEST(MGatherRules, TableRowWidthPerProfile)
{
    {
        ScopedTarget target(Target::A5);  // Shape[4] must equal the valid columns
        GatherCall call;
        call.dst_desc.valid_cols = 12;
        expect_rejected(call, "LEGAL_MGATHER_TABLE_WIDTH", {"Shape[4] == 12", "16"});
    }
    GatherCall narrow;  // elsewhere the valid columns must fit in the row
    narrow.table_desc.shape[4] = 8;
    expect_rejected(narrow, "LEGAL_MGATHER_TABLE_WIDTH", {"Shape[4] >= 16", "8"});
}

TEST(MGatherRules, TableStrides)
{
    {
        ScopedTarget target(Target::A5);  // packed rows on A5
        GatherCall call;
        call.table_desc.shape[3] = 40;
        call.table_desc.stride[3] = 24;
        expect_rejected(call, "LEGAL_MGATHER_TABLE_STRIDE", {"Stride[3]", "24"});
    }
    GatherCall strided;
    strided.table_desc.stride[4] = 2;
    expect_rejected(strided, "LEGAL_MGATHER_TABLE_STRIDE", {"Stride[4] == 1"});
}

TEST(MGatherRules, NzShapes)
{
    ScopedTarget target(Target::A2A3);
    std::vector<uint16_t> nz_table(2048), nz_dst(16 * 32);
    TileShape nz{16, 32, 16, 32};
    nz.nz = true;
    GatherCall call;
    call.dst_desc = tile_desc(nz_dst.data(), DType::F16, nz);
    call.idx_desc = tile_desc(call.idx.data(), DType::I32, {1, 16, 1, 16});
    call.table_desc = global_desc(nz_table.data(), DType::F16, Layout::NZ, {1, 2, 4, 8, 16}, {1024, 512, 128, 16, 1});
    expect_rejected(call, "LEGAL_MGATHER_NZ_SHAPE", {"table", "Shape[3] == 16"});
    TileShape short_nz{8, 32, 8, 32};
    short_nz.nz = true;
    call.dst_desc = tile_desc(nz_dst.data(), DType::F16, short_nz);
    expect_rejected(call, "LEGAL_MGATHER_NZ_SHAPE", {"dst", "Rows % 16"});
}

TEST(MGatherRules, DescriptorFactsAreRunTimeErrors)
{
    GatherCall past;
    past.dst_desc.valid_rows = 9;
    expect_rejected(past, "RUN_VALID_SHAPE", {"dst", "[9, 16]"});
    GatherCall unbound;
    unbound.dst_desc.data = nullptr;
    expect_rejected(unbound, "RUN_NULL_POINTER", {"dst"});
    GatherCall no_table;
    no_table.table_desc.data = nullptr;
    expect_rejected(no_table, "RUN_NULL_POINTER", {"table"});
    GatherCall empty;
    empty.table_desc.shape[3] = 0;
    expect_rejected(empty, "RUN_GLOBAL_SHAPE", {"table", "dimension 3"});
}

TEST(MGatherRules, TableReachingPastItsAllocationIsReported)
{
    for (bool checked : {false, true}) {
        ScopedChecked mode(checked);
        GatherCall call;
        RegisteredGlobal registered(call.table.data(), call.table.size() * sizeof(float) - 4);
        expect_rejected(call, "RUN_GLOBAL_OOB", {"table", "4096 bytes", "4092"});
        call.mode = Coalesce::Elem;
        call.idx_desc = tile_desc(call.idx.data(), DType::I32, {8, 16, 8, 16});
        expect_rejected(call, "RUN_GLOBAL_OOB", {"table"});
    }
    GatherCall fits;  // the whole registered table: nothing to report
    RegisteredGlobal registered(fits.table.data(), fits.table.size() * sizeof(float));
    EXPECT_NO_THROW(fits.run());
}

// --- the GM -> L1 forms -------------------------------------------------------------------------------------

namespace {

struct L1Call {
    std::vector<float> table = std::vector<float>(64 * 16, 2.0f);
    std::vector<float> l1 = std::vector<float>(16 * 16, 0.0f);
    std::vector<float> scratch = std::vector<float>(16 * 16, 0.0f);
    std::vector<int32_t> idx = std::vector<int32_t>(16 * 16, 5);
    TileDesc dst_desc = [this] {
        TileShape s{16, 16, 16, 16};
        s.nz = true;
        return tile_desc(l1.data(), DType::F32, s, TileType::Mat);
    }();
    GlobalDesc table_desc = global_desc(table.data(), DType::F32, Layout::ND, {1, 1, 1, 64, 16}, {1024, 1024, 1024, 16, 1});
    GlobalDesc idx_desc = global_desc(idx.data(), DType::I32, Layout::ND, {1, 1, 1, 16, 16}, {256, 256, 256, 16, 1});
    GlobalDesc scratch_desc = global_desc(scratch.data(), DType::F32, Layout::ND, {1, 1, 1, 1, 256}, {256, 256, 256, 256, 1});

    void row() const { pto::engine::mgather_l1(dst_desc, table_desc, idx_desc, Coalesce::Row, GatherOOB::Clamp); }
    void elem(GatherExec exec = GatherExec::Scalar, Coalesce mode = Coalesce::Elem) const
    {
        pto::engine::mgather_l1(dst_desc, table_desc, idx_desc, scratch_desc, mode, GatherOOB::Clamp, exec);
    }
};

}  // namespace

TEST(MGatherL1Rules, LegalBaselineRuns)
{
    L1Call call;
    EXPECT_NO_THROW(call.row());
    EXPECT_NO_THROW(call.elem());
    EXPECT_NO_THROW(call.elem(GatherExec::Simt));
    EXPECT_EQ(call.l1[0], 2.0f);
}

TEST(MGatherL1Rules, SimtExecutorIsRejectedOnA2A3)
{
    ScopedTarget target(Target::A2A3);
    L1Call call;
    EXPECT_NO_THROW(call.elem(GatherExec::Scalar));
    expect_diagnostic([&] { call.elem(GatherExec::Simt); }, "LEGAL_MGATHER_EXEC", {"SIMT", "a2a3"});
    ScopedTarget a5(Target::A5);
    EXPECT_NO_THROW(call.elem(GatherExec::Simt));
}

TEST(MGatherL1Rules, FormMatchesTheCoalesceMode)
{
    L1Call call;
    expect_diagnostic([&] { call.elem(GatherExec::Scalar, Coalesce::Row); }, "LEGAL_MGATHER_FORM", {"three operands"});
    expect_diagnostic(
        [&] { pto::engine::mgather_l1(call.dst_desc, call.table_desc, call.idx_desc, Coalesce::Elem, GatherOOB::Zero); },
        "LEGAL_MGATHER_FORM", {"four-operand"});
}

TEST(MGatherL1Rules, DestinationMustBeAnNzMatTile)
{
    L1Call call;
    call.dst_desc.loc = TileType::Vec;
    expect_diagnostic([&] { call.row(); }, "LEGAL_MGATHER_LOCATION", {"Mat", "UB"});
    L1Call flat;
    flat.dst_desc.slayout = SLayout::NoneBox;
    expect_diagnostic([&] { flat.row(); }, "LEGAL_MGATHER_LOCATION", {"NZ"});
}

TEST(MGatherL1Rules, TableIndexAndScratch)
{
    L1Call nz;
    nz.table_desc.layout = Layout::NZ;
    expect_diagnostic([&] { nz.row(); }, "LEGAL_MGATHER_TABLE_LAYOUT", {"NZ"});
    L1Call few;
    few.idx_desc.shape[3] = 1;
    few.idx_desc.shape[4] = 15;
    expect_diagnostic([&] { few.row(); }, "LEGAL_MGATHER_INDEX_SHAPE", {"16 indices", "[1, 15]"});
    L1Call narrow;
    narrow.idx_desc.shape[4] = 12;
    expect_diagnostic([&] { narrow.elem(); }, "LEGAL_MGATHER_INDEX_SHAPE", {"[16, 16]", "[16, 12]"});
    L1Call small;
    small.scratch_desc.shape[4] = 255;
    expect_diagnostic([&] { small.elem(); }, "LEGAL_MGATHER_SCRATCH", {"256 elements", "255"});
    L1Call typed;
    typed.scratch_desc.dtype = DType::I32;
    expect_diagnostic([&] { typed.elem(); }, "LEGAL_MGATHER_SCRATCH", {"i32"});
    L1Call index_type;
    index_type.idx_desc.dtype = DType::U16;
    expect_diagnostic([&] { index_type.row(); }, "LEGAL_MGATHER_INDEX_DTYPE", {"u16"});
}

TEST(MGatherL1Rules, GlobalOperandsReachingPastTheirAllocationsAreReported)
{
    L1Call scratch;
    RegisteredGlobal s(scratch.scratch.data(), 255 * sizeof(float));
    expect_diagnostic([&] { scratch.elem(); }, "RUN_GLOBAL_OOB", {"scratch"});
    L1Call index;
    RegisteredGlobal i(index.idx.data(), 100 * sizeof(int32_t));
    expect_diagnostic([&] { index.row(); }, "RUN_GLOBAL_OOB", {"idx"});
}
