// MGATHER through the engine entry with hand-built descriptors, on every profile: random shapes,
// valid regions, layouts, element widths, both coalesce modes and every out-of-range policy, against
// the reference gather.
#include <pto/engine/ops/memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

using namespace mgather_test;
using pto::BLayout;
using pto::Coalesce;
using pto::GatherOOB;
using pto::Layout;

namespace {

constexpr uint8_t kSentinel = 0xA5;

DType random_dtype(Target t, int bytes)
{
    switch (bytes) {
        case 1: {
            if (t == Target::A2A3) return uniform(0, 1) ? DType::I8 : DType::U8;
            const std::array<DType, 5> any{DType::I8, DType::U8, DType::F8E4M3, DType::F8E5M2, DType::HiF8};
            return any[uniform(0, 4)];
        }
        case 2: {
            const std::array<DType, 4> any{DType::I16, DType::U16, DType::F16, DType::BF16};
            return any[uniform(0, 3)];
        }
        default: {
            const std::array<DType, 3> any{DType::I32, DType::U32, DType::F32};
            return any[uniform(0, 2)];
        }
    }
}

int round_up(int v, int m) { return (v + m - 1) / m * m; }

// One random, legal MGATHER on profile `t`, checked against the reference.
void run_random_case(Target t, int case_number)
{
    const int bytes = std::array<int, 3>{1, 2, 4}[uniform(0, 2)];
    const DType dtype = random_dtype(t, bytes);
    const int per_burst = 32 / bytes;  // elements in 32 bytes
    const bool row_mode = uniform(0, 1) == 0;
    const auto oob = static_cast<GatherOOB>(uniform(0, 3));
    const bool nz = t != Target::A5 && uniform(0, 3) == 0;

    // Destination.
    TileShape dst;
    if (nz) {
        dst = {16 * uniform(1, 2), per_burst * uniform(1, 3), 0, 0};
        dst.nz = true;
    } else if (t != Target::A2A3 && uniform(0, 2) == 0) {
        dst = {per_burst * uniform(1, 2), uniform(1, 12), 0, 0, BLayout::ColMajor};
    } else {
        dst = {uniform(1, 12), per_burst * uniform(1, 3), 0, 0, BLayout::RowMajor};
    }
    dst.valid_rows = uniform(1, dst.rows);
    dst.valid_cols = uniform(1, dst.cols);

    // Table.
    std::vector<int64_t> shape(5), stride(5);
    const Layout layout = nz ? Layout::NZ : Layout::ND;
    if (nz) {
        const int batches = uniform(1, 2);
        const int column_blocks = round_up(dst.valid_cols, per_burst) / per_burst;
        const int block_cols = (column_blocks + batches - 1) / batches + uniform(0, 1);
        shape = {batches, block_cols, uniform(1, 3), 16, per_burst};
        stride[4] = 1;
        stride[3] = per_burst;
        stride[2] = 16 * per_burst + uniform(0, 1) * per_burst;
        stride[1] = shape[2] * stride[2] + uniform(0, 2) * per_burst;
        stride[0] = shape[1] * stride[1];
    } else {
        const bool a5 = t == Target::A5;
        shape[4] = row_mode ? (a5 ? dst.valid_cols : dst.valid_cols + uniform(0, 3)) : uniform(1, 40);
        shape[3] = uniform(1, 20);
        shape[2] = uniform(1, 2);
        shape[1] = uniform(1, 2);
        shape[0] = 1;
        stride[4] = 1;
        stride[3] = a5 || !row_mode ? shape[4] : shape[4] + uniform(0, 5);  // stride-padded rows where legal
        stride[2] = shape[3] * stride[3];
        stride[1] = shape[2] * stride[2];
        stride[0] = shape[1] * stride[1];
    }
    int64_t span = 1;
    for (int d = 0; d < 5; ++d) span += (shape[d] - 1) * stride[d];
    const int64_t elements = row_mode || nz ? span : std::max(span, shape[0] * shape[1] * shape[2] * shape[3] * shape[4]);
    std::vector<uint8_t> table_bytes = random_bytes(std::size_t(elements), bytes);
    GlobalDesc table = global_desc(table_bytes.data(), dtype, layout, {shape[0], shape[1], shape[2], shape[3], shape[4]},
                                   {stride[0], stride[1], stride[2], stride[3], stride[4]});
    const ReferenceTable ref{table, bytes, t == Target::A5};
    const uint64_t extent = row_mode ? ref.rows() : ref.size();

    // Index tile.
    TileShape idx;
    if (row_mode) {
        const bool column = t != Target::A2A3 && uniform(0, 1) == 0;
        if (column) {
            const BLayout b = t == Target::A5 || uniform(0, 1) ? BLayout::ColMajor : BLayout::RowMajor;
            idx = b == BLayout::ColMajor ? TileShape{round_up(dst.valid_rows, 8), uniform(1, 2), dst.valid_rows, 1, b}
                                         : TileShape{dst.valid_rows + uniform(0, 2), 8, dst.valid_rows, 1, b};
        } else {
            idx = {uniform(1, 2), round_up(dst.valid_rows, 8), 1, dst.valid_rows, BLayout::RowMajor};
        }
    } else {
        const bool col_major = t != Target::A2A3 && uniform(0, 1) == 0;
        idx = col_major ? TileShape{round_up(dst.valid_rows, 8), dst.valid_cols + uniform(0, 2), dst.valid_rows,
                                    dst.valid_cols, BLayout::ColMajor}
                        : TileShape{dst.valid_rows + uniform(0, 2), round_up(dst.valid_cols, 8), dst.valid_rows,
                                    dst.valid_cols, BLayout::RowMajor};
    }
    std::vector<uint32_t> idx_words(std::size_t(idx.rows) * idx.cols, 0);
    auto idx_slot = [&](int r, int c) -> uint32_t& { return idx_words[std::size_t(reference_tile_offset(idx, 4, r, c))]; };
    for (int r = 0; r < idx.valid_rows; ++r) {
        for (int c = 0; c < idx.valid_cols; ++c) {
            const int kind = uniform(0, 9);
            idx_slot(r, c) = kind == 0   ? uint32_t(-uniform(1, 5))  // a negative int32
                             : kind == 1 ? uint32_t(extent + uint64_t(uniform(0, 40)))
                                         : uint32_t(uniform(0, int(extent) - 1));
        }
    }
    auto index_of = [&](int r, int c) {  // the index serving destination (r, c)
        if (!row_mode) return idx_slot(r, c);
        return idx.valid_rows == 1 ? idx_slot(0, r) : idx_slot(r, 0);
    };

    std::vector<uint8_t> dst_bytes(std::size_t(dst.rows) * dst.cols * bytes, kSentinel);
    const TileDesc dst_desc = tile_desc(dst_bytes.data(), dtype, dst);
    const TileDesc idx_desc = tile_desc(idx_words.data(), (uniform(0, 1) ? DType::I32 : DType::U32), idx);

    SCOPED_TRACE("case " + std::to_string(case_number) + " on " + std::string(pto::profile::profile_of(t).name) +
                 ": " + std::string(pto::engine::dtype_name(dtype)) + (row_mode ? " Row" : " Elem") + " oob " +
                 std::to_string(int(oob)) + (nz ? " NZ" : "") + " dst " + std::to_string(dst.rows) + "x" +
                 std::to_string(dst.cols) + " valid " + std::to_string(dst.valid_rows) + "x" +
                 std::to_string(dst.valid_cols));
    pto::engine::mgather(dst_desc, table, idx_desc, row_mode ? Coalesce::Row : Coalesce::Elem, oob);

    const auto expected =
        reference_gather(ref, row_mode, policy_of(oob), dst.valid_rows, dst.valid_cols, index_of);
    ASSERT_EQ(valid_region(dst_bytes.data(), dst, bytes), expected);

    // Outside the valid region nothing is written, except that an NZ Row gather with the Zero policy
    // clears the whole tile first (as A2/A3 does before its DMA loop).
    const uint8_t outside = nz && row_mode && oob == GatherOOB::Zero ? 0 : kSentinel;
    for (int r = 0; r < dst.rows; ++r) {
        for (int c = 0; c < dst.cols; ++c) {
            if (r < dst.valid_rows && c < dst.valid_cols) continue;
            const int64_t at = reference_tile_offset(dst, bytes, r, c) * bytes;
            for (int b = 0; b < bytes; ++b) ASSERT_EQ(dst_bytes[std::size_t(at + b)], outside) << "at (" << r << ", " << c << ")";
        }
    }
}

}  // namespace

TEST(MGatherEngine, RandomGathersMatchTheReferenceOnEveryProfile)
{
    ScopedChecked unchecked(false);
    int case_number = 0;
    for (Target t : {Target::Cpu, Target::A2A3, Target::A5}) {
        ScopedTarget target(t);
        for (int i = 0; i < 400; ++i) run_random_case(t, case_number++);
    }
}

TEST(MGatherEngine, CheckedModeGivesTheSameResultsForInRangeIndices)
{
    ScopedChecked checked(true);
    // Checked mode reports out-of-range Undefined indices; every other case runs exactly as unchecked.
    std::vector<float> table(64 * 16);
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = float(i) + 0.5f;
    std::vector<int32_t> idx(8);
    for (int i = 0; i < 8; ++i) idx[std::size_t(i)] = (i * 37) % 64;
    std::vector<float> dst(8 * 16, -1.0f);
    const TileShape dst_shape{8, 16, 8, 16};
    pto::engine::mgather(tile_desc(dst.data(), DType::F32, dst_shape),
                         global_desc(table.data(), DType::F32, Layout::ND, {1, 1, 1, 64, 16}, {1024, 1024, 1024, 16, 1}),
                         tile_desc(idx.data(), DType::I32, {1, 8, 1, 8}), Coalesce::Row, GatherOOB::Undefined);
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 16; ++c) EXPECT_EQ(dst[std::size_t(r * 16 + c)], table[std::size_t(idx[std::size_t(r)] * 16 + c)]);
    }
}
