// MSCATTER through the engine entry with hand-built descriptors, on every profile: random shapes, valid
// regions, layouts, colliding indices, both coalesce modes, every out-of-range policy and every atomic
// operation with each element type it takes, against the reference scatter over the whole table.
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/profile/rules_memory_gather.hpp>

#include "support.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

using namespace mscatter_test;
using pto::BLayout;
using pto::Coalesce;
using pto::Layout;
using pto::ScatterAtomicOp;
using pto::ScatterConflict;
using pto::ScatterOOB;

namespace {

int round_up(int v, int m) { return (v + m - 1) / m * m; }

template <typename T>
T random_value()
{
    if constexpr (std::is_integral_v<T>) {
        T v;
        const auto bytes = random_bytes(1, sizeof(T));
        std::memcpy(&v, bytes.data(), sizeof(T));
        return v;
    } else {
        // Finite, non-zero, with a fraction: exercises rounding without NaN or signed-zero ties.
        const float magnitude = float(uniform(1, 4000)) / 16.0f;
        return T(uniform(0, 1) ? magnitude : -magnitude);
    }
}

// One random, legal MSCATTER of elements T (a word type for plain stores) on profile `t`.
template <typename T>
void run_case(Target t, DType dtype, ScatterAtomicOp op, int case_number)
{
    const int bytes = int(sizeof(T));
    const int per_burst = 32 / bytes;
    const bool row_mode = uniform(0, 1) == 0;
    const auto oob = static_cast<ScatterOOB>(uniform(0, 3));
    const auto conflict = uniform(0, 1) ? ScatterConflict::Last : ScatterConflict::Default;

    TileShape src = t != Target::A2A3 && uniform(0, 2) == 0
                        ? TileShape{per_burst * uniform(1, 2), uniform(1, 10), 0, 0, BLayout::ColMajor}
                        : TileShape{uniform(1, 10), per_burst * uniform(1, 3), 0, 0, BLayout::RowMajor};
    src.valid_rows = uniform(1, src.rows);
    src.valid_cols = uniform(1, src.cols);

    // Small tables, so that sources collide.
    const bool a5 = t == Target::A5;
    int64_t shape[5] = {1, 1, 1, uniform(1, 8), 0}, stride[5] = {0, 0, 0, 0, 1};
    shape[4] = row_mode ? (a5 ? src.valid_cols : src.valid_cols + uniform(0, 3)) : uniform(1, 12);
    shape[2] = a5 ? 1 : uniform(1, 2);
    stride[3] = row_mode && !a5 ? shape[4] + uniform(0, 4) : shape[4];
    stride[2] = shape[3] * stride[3];
    stride[1] = shape[2] * stride[2];
    stride[0] = shape[1] * stride[1];
    const uint64_t rows = uint64_t(shape[0] * shape[1] * shape[2] * shape[3]);
    const uint64_t size = rows * uint64_t(shape[4]);
    const int64_t span = int64_t(rows - 1) * stride[3] + shape[4];
    std::vector<T> table(std::size_t(std::max<int64_t>(span, int64_t(size))));
    for (auto& v : table) v = random_value<T>();
    const uint64_t extent = row_mode ? rows : size;

    TileShape idx;
    if (row_mode) {
        const bool column = t != Target::A2A3 && uniform(0, 1) == 0;
        idx = column ? TileShape{round_up(src.valid_rows, 8), 1, src.valid_rows, 1, BLayout::ColMajor}
                     : TileShape{1, round_up(src.valid_rows, 8), 1, src.valid_rows, BLayout::RowMajor};
    } else {
        idx = {src.valid_rows, round_up(src.valid_cols, 8), src.valid_rows, src.valid_cols, BLayout::RowMajor};
    }
    std::vector<uint32_t> idx_words(std::size_t(idx.rows) * idx.cols, 0);
    auto idx_slot = [&](int r, int c) -> uint32_t& { return idx_words[std::size_t(reference_tile_offset(idx, 4, r, c))]; };
    for (int r = 0; r < idx.valid_rows; ++r) {
        for (int c = 0; c < idx.valid_cols; ++c) {
            const int kind = uniform(0, 9);
            idx_slot(r, c) = kind == 0   ? uint32_t(-uniform(1, 3))
                             : kind == 1 ? uint32_t(extent + uint64_t(uniform(0, 20)))
                                         : uint32_t(uniform(0, int(extent) - 1));
        }
    }
    std::vector<T> src_values(std::size_t(src.rows) * src.cols);
    for (auto& v : src_values) v = random_value<T>();

    std::vector<T> expected = table;
    reference_scatter<T>(
        expected, row_mode, rows, stride[3], size, op, scatter_policy_of(oob), src.valid_rows, src.valid_cols,
        [&](int r, int c) { return row_mode ? (idx.valid_rows == 1 ? idx_slot(0, r) : idx_slot(r, 0)) : idx_slot(r, c); },
        [&](int r, int c) { return src_values[std::size_t(reference_tile_offset(src, bytes, r, c))]; });

    SCOPED_TRACE("case " + std::to_string(case_number) + " on " + std::string(pto::profile::profile_of(t).name) +
                 ": " + std::string(pto::engine::dtype_name(dtype)) + (row_mode ? " Row" : " Elem") + " op " +
                 std::to_string(int(op)) + " oob " + std::to_string(int(oob)) + " src " + std::to_string(src.rows) +
                 "x" + std::to_string(src.cols) + " valid " + std::to_string(src.valid_rows) + "x" +
                 std::to_string(src.valid_cols));
    pto::engine::mscatter(global_desc(table.data(), dtype, Layout::ND, {shape[0], shape[1], shape[2], shape[3], shape[4]},
                                      {stride[0], stride[1], stride[2], stride[3], stride[4]}),
                          tile_desc(src_values.data(), dtype, src), tile_desc(idx_words.data(), DType::I32, idx),
                          row_mode ? Coalesce::Row : Coalesce::Elem, op, oob, conflict);
    ASSERT_TRUE(same_bits(table, expected));
}

template <typename T>
void run_atomic_cases(Target t, ScatterAtomicOp op, int& case_number)
{
    constexpr DType dtype = pto::engine::dtype_of<T>;
    if (!pto::rules::scatter_atomic_dtype_ok(pto::profile::profile_of(t), op, dtype)) return;
    for (int i = 0; i < 25; ++i) run_case<T>(t, dtype, op, case_number++);
}

}  // namespace

TEST(MScatterEngine, RandomPlainScattersMatchTheReferenceOnEveryProfile)
{
    ScopedChecked unchecked(false);
    int case_number = 0;
    for (Target t : {Target::Cpu, Target::A2A3, Target::A5}) {
        ScopedTarget target(t);
        const bool fp8 = t != Target::A2A3;
        for (int i = 0; i < 120; ++i) {
            switch (uniform(0, 2)) {
                case 0: run_case<uint8_t>(t, fp8 && uniform(0, 1) ? DType::HiF8 : DType::I8, ScatterAtomicOp::None, case_number++); break;
                case 1: run_case<uint16_t>(t, uniform(0, 1) ? DType::BF16 : DType::U16, ScatterAtomicOp::None, case_number++); break;
                default: run_case<uint32_t>(t, uniform(0, 1) ? DType::F32 : DType::I32, ScatterAtomicOp::None, case_number++); break;
            }
        }
    }
}

TEST(MScatterEngine, RandomAtomicScattersMatchTheReferenceOnEveryProfile)
{
    ScopedChecked unchecked(false);
    int case_number = 0;
    for (Target t : {Target::Cpu, Target::A2A3, Target::A5}) {
        ScopedTarget target(t);
        for (ScatterAtomicOp op : {ScatterAtomicOp::Add, ScatterAtomicOp::Max, ScatterAtomicOp::Min}) {
            run_atomic_cases<int32_t>(t, op, case_number);
            run_atomic_cases<uint32_t>(t, op, case_number);
            run_atomic_cases<float>(t, op, case_number);
            run_atomic_cases<half>(t, op, case_number);
            run_atomic_cases<bfloat16_t>(t, op, case_number);
        }
    }
}
