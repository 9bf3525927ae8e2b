// MSCATTER legality: its rule predicates per profile and every illegal case through the engine entry,
// with its diagnostic code and a message naming the problem.
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/profile/rules_memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace mscatter_test;
using pto::BLayout;
using pto::Coalesce;
using pto::Layout;
using pto::ScatterAtomicOp;
using pto::ScatterConflict;
using pto::ScatterOOB;
using pto::TileType;
namespace rules = pto::rules;
using pto::profile::kA2A3;
using pto::profile::kA5;
using pto::profile::kCpu;

static_assert(rules::scatter_table_layout_ok(Layout::ND) && !rules::scatter_table_layout_ok(Layout::NZ));
static_assert(!rules::scatter_table_layout_ok(Layout::DN));
static_assert(rules::scatter_atomic_dtype_ok(kA2A3, ScatterAtomicOp::None, DType::I8));
static_assert(rules::scatter_atomic_dtype_ok(kA2A3, ScatterAtomicOp::Add, DType::F16));
static_assert(!rules::scatter_atomic_dtype_ok(kA2A3, ScatterAtomicOp::Add, DType::BF16));
static_assert(rules::scatter_atomic_dtype_ok(kA5, ScatterAtomicOp::Add, DType::BF16) &&
              rules::scatter_atomic_dtype_ok(kCpu, ScatterAtomicOp::Add, DType::BF16));
static_assert(!rules::scatter_atomic_dtype_ok(kA2A3, ScatterAtomicOp::Max, DType::U32));
static_assert(rules::scatter_atomic_dtype_ok(kA5, ScatterAtomicOp::Min, DType::U32));
static_assert(!rules::scatter_atomic_dtype_ok(kCpu, ScatterAtomicOp::Max, DType::F16));
static_assert(!rules::scatter_atomic_dtype_ok(kCpu, ScatterAtomicOp::Add, DType::I16));

TEST(MScatterRules, PredicatesHoldAtCompileTime) { SUCCEED(); }

namespace {

// A legal Row scatter of 4 rows x 16 floats into a 32 x 16 table; each test breaks one thing.
struct ScatterCall {
    std::vector<float> table = std::vector<float>(32 * 16, 0.0f);
    std::vector<float> src = std::vector<float>(16 * 16, 1.0f);
    std::vector<int32_t> idx = std::vector<int32_t>(16 * 16, 2);
    GlobalDesc table_desc = global_desc(table.data(), DType::F32, Layout::ND, {1, 1, 1, 32, 16}, {512, 512, 512, 16, 1});
    TileDesc src_desc = tile_desc(src.data(), DType::F32, {4, 16, 4, 16});
    TileDesc idx_desc = tile_desc(idx.data(), DType::I32, {1, 8, 1, 4});
    Coalesce mode = Coalesce::Row;
    ScatterAtomicOp atomic = ScatterAtomicOp::None;
    ScatterOOB oob = ScatterOOB::Clamp;

    void run() const
    {
        pto::engine::mscatter(table_desc, src_desc, idx_desc, mode, atomic, oob, ScatterConflict::Last);
    }
};

void expect_rejected(const ScatterCall& call, const std::string& code, std::initializer_list<std::string> mentions)
{
    expect_diagnostic([&] { call.run(); }, code, mentions);
}

}  // namespace

TEST(MScatterRules, LegalBaselineRuns)
{
    for (Target t : {Target::Cpu, Target::A2A3, Target::A5}) {
        ScopedTarget target(t);
        ScatterCall call;
        EXPECT_NO_THROW(call.run());
        EXPECT_EQ(call.table[2 * 16], 1.0f);
    }
}

TEST(MScatterRules, ElementAndIndexTypes)
{
    {
        ScopedTarget target(Target::A2A3);
        ScatterCall fp8;
        fp8.src_desc.dtype = fp8.table_desc.dtype = DType::F8E5M2;
        expect_rejected(fp8, "LEGAL_MSCATTER_DTYPE", {"MSCATTER", "f8e5m2", "a2a3"});
    }
    ScatterCall index;
    index.idx_desc.dtype = DType::F32;
    expect_rejected(index, "LEGAL_MSCATTER_INDEX_DTYPE", {"idx", "f32"});
    ScatterCall table;
    table.table_desc.dtype = DType::U32;
    expect_rejected(table, "LEGAL_MSCATTER_TABLE_DTYPE", {"u32"});
}

TEST(MScatterRules, AtomicElementTypesPerProfile)
{
    std::vector<uint16_t> halves(16 * 16), table16(32 * 16);
    ScatterCall call;
    call.src_desc = tile_desc(halves.data(), DType::F16, {4, 16, 4, 16});
    call.table_desc.data = reinterpret_cast<std::byte*>(table16.data());
    call.table_desc.dtype = DType::F16;
    call.atomic = ScatterAtomicOp::Max;
    expect_rejected(call, "LEGAL_MSCATTER_ATOMIC_DTYPE", {"ScatterAtomicOp::Max", "f16", "i32, u32 or f32"});
    call.atomic = ScatterAtomicOp::Add;
    EXPECT_NO_THROW(call.run());
    call.src_desc.dtype = call.table_desc.dtype = DType::BF16;
    EXPECT_NO_THROW(call.run());
    ScopedTarget target(Target::A2A3);
    expect_rejected(call, "LEGAL_MSCATTER_ATOMIC_DTYPE", {"ScatterAtomicOp::Add", "bf16", "a2a3"});
}

TEST(MScatterRules, LocationsAndLayouts)
{
    ScatterCall mat;
    mat.src_desc.loc = TileType::Mat;
    expect_rejected(mat, "LEGAL_MSCATTER_LOCATION", {"src", "L1"});
    ScatterCall nz;
    nz.table_desc.layout = Layout::NZ;
    expect_rejected(nz, "LEGAL_MSCATTER_TABLE_LAYOUT", {"NZ"});
    {
        ScopedTarget target(Target::A2A3);
        ScatterCall col;
        col.src_desc = tile_desc(col.src.data(), DType::F32, {8, 16, 4, 16, BLayout::ColMajor});
        expect_rejected(col, "LEGAL_MSCATTER_TILE_LAYOUT", {"ColMajor", "a2a3"});
    }
    ScopedTarget target(Target::A5);
    ScatterCall row_major_column;
    row_major_column.idx_desc = tile_desc(row_major_column.idx.data(), DType::I32, {4, 8, 4, 1});
    expect_rejected(row_major_column, "LEGAL_MSCATTER_INDEX_LAYOUT", {"[4, 1]", "a5"});
}

TEST(MScatterRules, ShapesAndAlignment)
{
    ScatterCall unaligned;
    unaligned.src_desc = tile_desc(unaligned.src.data(), DType::F32, {4, 10, 4, 10});
    expect_rejected(unaligned, "LEGAL_MSCATTER_ALIGN", {"src", "40 bytes"});
    ScatterCall elem;
    elem.mode = Coalesce::Elem;
    expect_rejected(elem, "LEGAL_MSCATTER_INDEX_SHAPE", {"Coalesce::Elem", "[4, 16]", "[1, 4]"});
    ScatterCall empty;
    empty.src_desc.valid_cols = 0;
    expect_rejected(empty, "LEGAL_MSCATTER_VALID_SHAPE", {"[4, 0]"});
    {
        ScopedTarget target(Target::A5);
        ScatterCall narrow;
        narrow.src_desc.valid_cols = 9;
        expect_rejected(narrow, "LEGAL_MSCATTER_TABLE_WIDTH", {"Shape[4] == 9"});
        ScatterCall padded;
        padded.table_desc.shape[3] = 16;
        padded.table_desc.stride[3] = 32;
        expect_rejected(padded, "LEGAL_MSCATTER_TABLE_STRIDE", {"Stride[3]", "32"});
    }
    ScatterCall wide;
    wide.table_desc.shape[4] = 12;
    expect_rejected(wide, "LEGAL_MSCATTER_TABLE_WIDTH", {"Shape[4] >= 16"});
}

TEST(MScatterRules, GlobalTableChecks)
{
    ScatterCall null_table;
    null_table.table_desc.data = nullptr;
    expect_rejected(null_table, "RUN_NULL_POINTER", {"table"});
    ScatterCall negative;
    negative.table_desc.stride[3] = -16;
    expect_rejected(negative, "RUN_GLOBAL_SHAPE", {"dimension 3"});
    ScatterCall past;
    RegisteredGlobal registered(past.table.data(), 31 * 16 * sizeof(float));
    expect_rejected(past, "RUN_GLOBAL_OOB", {"table", "2048 bytes", "1984"});
    EXPECT_EQ(past.table[31 * 16], 0.0f);  // nothing written
}
