// The row- and column-broadcast binary instructions against a plain reference of every element (the
// element-wise reference of tests/elementwise_instructions: floats exact in double and rounded once,
// integers in 128 bits, exp within its ulp bound): every operation, every element type the cpu profile
// allows, random valid regions, both row modes (a value or a 32-byte block per row) with the broadcast
// operand second or first, the column broadcast, dst aliasing the full operand; and the illegal cases.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "elementwise_instructions/reference.hpp"
#include "support/test_support.hpp"

using namespace pto;
using pto::engine::DType;
using pto::engine::ExpandAxis;
using pto::engine::ExpandOp;
using pto::engine::TileDesc;

namespace {

constexpr ExpandOp kOps[] = {ExpandOp::Add, ExpandOp::Sub, ExpandOp::Mul, ExpandOp::Div,
                             ExpandOp::Max, ExpandOp::Min, ExpandOp::ExpDif};
constexpr DType kTypes[] = {DType::F32, DType::F16, DType::I32, DType::I16, DType::U32, DType::U16, DType::U8};

ewinstr::Op element_op(ExpandOp op)
{
    switch (op) {
        case ExpandOp::Add: return ewinstr::Op::Add;
        case ExpandOp::Sub: case ExpandOp::ExpDif: return ewinstr::Op::Sub;
        case ExpandOp::Mul: return ewinstr::Op::Mul;
        case ExpandOp::Div: return ewinstr::Op::Div;
        case ExpandOp::Max: return ewinstr::Op::Max;
        case ExpandOp::Min: return ewinstr::Op::Min;
    }
    return ewinstr::Op::Add;
}

// Empty if `got` is op(a, b): EXPDIF's difference is rounded to the type before its exponential.
std::string mismatch(ExpandOp op, DType t, uint64_t a, uint64_t b, uint64_t got)
{
    using ewinstr::Precision;
    if (op != ExpandOp::ExpDif) return ewinstr::mismatch(element_op(op), t, Precision::Default, a, b, got);
    const uint64_t difference = ewinstr::round_to(t, ewinstr::float_value(t, a) - ewinstr::float_value(t, b));
    const std::string wrong = ewinstr::mismatch(ewinstr::Op::Exp, t, Precision::Default, difference, 0, got);
    return wrong.empty() ? wrong : "exp of the difference " + wrong;
}

// A tile over host memory: random elements everywhere, so that reading outside the valid region shows.
struct HostTile {
    HostTile(DType t, int rows, int cols, int valid_rows, int valid_cols, BLayout layout, std::mt19937& rng)
        : bytes(std::size_t(rows * cols * ewinstr::width(t) / 8))
    {
        desc.data = bytes.data();
        desc.dtype = t;
        desc.rows = rows;
        desc.cols = cols;
        desc.valid_rows = valid_rows;
        desc.valid_cols = valid_cols;
        desc.blayout = layout;
        for (int64_t i = 0; i < int64_t(rows) * cols; ++i) ewinstr::store(desc.data, i, t, ewinstr::random_element(t, rng));
    }
    HostTile(const HostTile& other) : bytes(other.bytes), desc(other.desc) { desc.data = bytes.data(); }
    HostTile& operator=(const HostTile&) = delete;
    uint64_t at(int r, int c) const { return ewinstr::load(desc.data, desc.offset(r, c), desc.dtype); }

    std::vector<std::byte> bytes;
    TileDesc desc;
};

// Rows and columns of a tile holding `valid` elements of t per row, rows 32-byte aligned.
int aligned_cols(DType t, int valid) { return (valid * ewinstr::width(t) + 255) / 256 * 256 / ewinstr::width(t); }

// Runs op with the given operands and checks every element of dst: its valid region against the
// reference, the rest untouched. `value(i, j)` gives the broadcast operand's element for dst(i, j).
template <typename Value>
void run_and_check(ExpandAxis axis, ExpandOp op, HostTile& dst, const HostTile& full, const HostTile& broadcast,
                   bool broadcast_first, Value value, const std::string& context)
{
    const HostTile before = dst;
    const TileDesc& src0 = broadcast_first ? broadcast.desc : full.desc;
    const TileDesc& src1 = broadcast_first ? full.desc : broadcast.desc;
    // Values read before the call: dst may be the full operand.
    std::vector<uint64_t> a, b;
    for (int i = 0; i < dst.desc.valid_rows; ++i) {
        for (int j = 0; j < dst.desc.valid_cols; ++j) {
            a.push_back(broadcast_first ? value(i, j) : full.at(i, j));
            b.push_back(broadcast_first ? full.at(i, j) : value(i, j));
        }
    }
    engine::broadcast_binary(axis, op, dst.desc, src0, src1);
    std::size_t k = 0;
    for (int i = 0; i < dst.desc.rows; ++i) {
        for (int j = 0; j < dst.desc.cols; ++j) {
            const bool valid = i < dst.desc.valid_rows && j < dst.desc.valid_cols;
            if (!valid) {
                ASSERT_EQ(dst.at(i, j), before.at(i, j)) << context << ": (" << i << ", " << j << ") outside the valid region";
                continue;
            }
            const std::string wrong = mismatch(op, dst.desc.dtype, a[k], b[k], dst.at(i, j));
            ++k;
            ASSERT_TRUE(wrong.empty()) << context << ": (" << i << ", " << j << ") " << wrong;
        }
    }
}

std::string label(ExpandAxis axis, ExpandOp op, DType t)
{
    return std::string(engine::broadcast_binary_name(axis, op)) + " " + std::string(engine::dtype_name(t));
}

}  // namespace

TEST(BroadcastBinary, RowsTakeAValuePerRowFromEitherSource)
{
    test::ScopedChecked fast(false);  // zero divisors have their defined quotients
    std::mt19937 rng(71);
    for (ExpandOp op : kOps) {
        for (DType t : kTypes) {
            if (!rules::expand_dtype_ok(op, profile::kCpu, t)) continue;
            for (int trial = 0; trial < 6; ++trial) {
                const int rows = 1 + int(rng() % 12), cols = 1 + int(rng() % 70), width = aligned_cols(t, cols) + 8;
                const bool first = trial % 2 == 1, in_place = trial == 2;
                HostTile full(t, rows + 2, width, rows, cols, BLayout::RowMajor, rng);
                HostTile column(t, rows + 3, 1, rows, 1, BLayout::ColMajor, rng);
                HostTile other(t, rows + 2, width, rows, cols, BLayout::RowMajor, rng);
                HostTile& dst = in_place ? full : other;
                const HostTile source = full;  // the full operand's values before an in-place run
                run_and_check(ExpandAxis::Row, op, dst, in_place ? dst : source, column, first,
                              [&](int i, int) { return column.at(i, 0); },
                              label(ExpandAxis::Row, op, t) + (first ? ", broadcast src0" : "") + (in_place ? ", in place" : ""));
            }
        }
    }
}

TEST(BroadcastBinary, RowsRepeatAThirtyTwoByteBlock)
{
    test::ScopedChecked fast(false);
    std::mt19937 rng(72);
    for (ExpandOp op : kOps) {
        for (DType t : kTypes) {
            if (!rules::expand_dtype_ok(op, profile::kCpu, t)) continue;
            const int block = 256 / ewinstr::width(t);
            for (int trial = 0; trial < 4; ++trial) {
                const int rows = 1 + int(rng() % 9), cols = 1 + int(rng() % 100), width = aligned_cols(t, cols);
                const bool first = trial % 2 == 1;
                HostTile full(t, rows, width, rows, cols, BLayout::RowMajor, rng);
                HostTile blocks(t, rows + 1, block * 2, rows, block, BLayout::RowMajor, rng);
                HostTile dst(t, rows + 1, width + block, rows, cols, BLayout::RowMajor, rng);
                run_and_check(ExpandAxis::Row, op, dst, full, blocks, first,
                              [&](int i, int j) { return blocks.at(i, j % block); },
                              label(ExpandAxis::Row, op, t) + " block" + (first ? ", broadcast src0" : ""));
            }
        }
    }
}

TEST(BroadcastBinary, ColumnsTakeTheFirstRowOfSrc1)
{
    test::ScopedChecked fast(false);
    std::mt19937 rng(73);
    for (ExpandOp op : kOps) {
        for (DType t : kTypes) {
            if (!rules::expand_dtype_ok(op, profile::kCpu, t)) continue;
            for (int trial = 0; trial < 4; ++trial) {
                const int rows = 1 + int(rng() % 12), cols = 1 + int(rng() % 90), width = aligned_cols(t, cols);
                HostTile full(t, rows, width, rows, cols, BLayout::RowMajor, rng);
                HostTile row(t, 3, width, 1 + int(rng() % 3), cols, BLayout::RowMajor, rng);
                HostTile dst(t, rows + 2, width, rows, cols, BLayout::RowMajor, rng);
                run_and_check(ExpandAxis::Col, op, dst, full, row, false, [&](int, int j) { return row.at(0, j); },
                              label(ExpandAxis::Col, op, t));
            }
        }
    }
}

// The broadcast values are read in place unless they lie inside dst's valid region: there, a row of dst
// written early overwrites values later rows still need, so they are copied out first.
TEST(BroadcastBinary, BroadcastValuesInsideDstAreReadBeforeDstIsWritten)
{
    test::ScopedChecked fast(false);
    std::mt19937 rng(74);
    for (ExpandOp op : {ExpandOp::Sub, ExpandOp::Mul, ExpandOp::Max}) {
        for (DType t : {DType::F32, DType::F16, DType::I32, DType::I16}) {
            const int rows = 7, cols = 21, width = aligned_cols(t, cols), bytes = ewinstr::width(t) / 8;
            HostTile full(t, rows, width, rows, cols, BLayout::RowMajor, rng);
            {
                HostTile dst(t, rows, width, rows, cols, BLayout::RowMajor, rng);
                HostTile column(t, rows, 1, rows, 1, BLayout::ColMajor, rng);
                column.desc.data = dst.desc.data + (2 * width + 3) * bytes;  // inside dst's third row
                std::vector<uint64_t> values;
                for (int i = 0; i < rows; ++i) values.push_back(column.at(i, 0));
                run_and_check(ExpandAxis::Row, op, dst, full, column, false, [&](int i, int) { return values[i]; },
                              label(ExpandAxis::Row, op, t) + ", values inside dst");
            }
            {
                HostTile dst(t, rows, width, rows, cols, BLayout::RowMajor, rng);
                HostTile row(t, 1, width, 1, cols, BLayout::RowMajor, rng);
                row.desc.data = dst.desc.data + width * bytes;  // dst's second row
                std::vector<uint64_t> values;
                for (int j = 0; j < cols; ++j) values.push_back(row.at(0, j));
                run_and_check(ExpandAxis::Col, op, dst, full, row, false, [&](int, int j) { return values[j]; },
                              label(ExpandAxis::Col, op, t) + ", values inside dst");
            }
        }
    }
}

TEST(BroadcastBinary, IllegalOperandsAreReportedWithTheirCodes)
{
    std::mt19937 rng(74);
    const auto code_of = [](auto&& call) { return test::diagnostic_of(call).code; };
    HostTile dst(DType::F32, 8, 16, 8, 16, BLayout::RowMajor, rng), full(DType::F32, 8, 16, 8, 16, BLayout::RowMajor, rng);
    HostTile column(DType::F32, 8, 1, 8, 1, BLayout::ColMajor, rng);
    HostTile short_column(DType::F32, 8, 1, 5, 1, BLayout::ColMajor, rng);
    HostTile wide_block(DType::F32, 8, 16, 8, 16 - 3, BLayout::RowMajor, rng);
    HostTile half_tile(DType::F16, 8, 16, 8, 16, BLayout::RowMajor, rng);
    HostTile i32(DType::I32, 8, 16, 8, 16, BLayout::RowMajor, rng), i32_column(DType::I32, 8, 1, 8, 1, BLayout::ColMajor, rng);
    HostTile blocks(DType::F32, 8, 8, 8, 8, BLayout::RowMajor, rng);
    const auto row = [&](ExpandOp op, const HostTile& d, const HostTile& a, const HostTile& b, const TileDesc* tmp = nullptr) {
        return code_of([&] { engine::broadcast_binary(ExpandAxis::Row, op, d.desc, a.desc, b.desc, tmp); });
    };
    EXPECT_EQ(row(ExpandOp::Sub, dst, full, column), "no error");
    EXPECT_EQ(row(ExpandOp::Sub, dst, full, short_column), "LEGAL_EXPAND_LAYOUT");  // not one value per row of dst
    EXPECT_EQ(row(ExpandOp::Sub, dst, full, wide_block), "LEGAL_EXPAND_LAYOUT");    // neither a value nor a block
    EXPECT_EQ(row(ExpandOp::Sub, dst, column, short_column), "RUN_VALID_SHAPE");    // no full-size source
    EXPECT_EQ(row(ExpandOp::Sub, dst, full, blocks, &blocks.desc), "LEGAL_EXPAND_TMP_MODE");
    EXPECT_EQ(row(ExpandOp::Sub, dst, half_tile, column), "LEGAL_EXPAND_SAME_DTYPE");
    EXPECT_EQ(row(ExpandOp::ExpDif, i32, i32, i32_column), "LEGAL_TROWEXPANDEXPDIF_DTYPE");
    HostTile col_major_dst(DType::F32, 16, 8, 8, 8, BLayout::ColMajor, rng);
    EXPECT_EQ(row(ExpandOp::Add, col_major_dst, blocks, column), "LEGAL_EXPAND_LAYOUT");
    HostTile mat = full;
    mat.desc.loc = TileType::Mat;
    EXPECT_EQ(row(ExpandOp::Add, dst, mat, column), "LEGAL_EXPAND_LOCATION");

    const auto col = [&](const HostTile& a, const HostTile& b) {
        return code_of([&] { engine::broadcast_binary(ExpandAxis::Col, ExpandOp::Mul, dst.desc, a.desc, b.desc); });
    };
    HostTile first_row(DType::F32, 2, 16, 1, 16, BLayout::RowMajor, rng), narrow_row(DType::F32, 2, 16, 1, 12, BLayout::RowMajor, rng);
    EXPECT_EQ(col(full, first_row), "no error");
    EXPECT_EQ(col(full, narrow_row), "RUN_VALID_SHAPE");
    EXPECT_EQ(col(column, first_row), "LEGAL_EXPAND_LAYOUT");

    // Types per profile: uint16/uint32 on a5 (and cpu), not a2a3; uint8 multiplies on cpu only.
    for (DType t : {DType::U16, DType::U32}) {
        EXPECT_TRUE(rules::expand_dtype_ok(ExpandOp::Add, profile::kA5, t));
        EXPECT_FALSE(rules::expand_dtype_ok(ExpandOp::Add, profile::kA2A3, t));
    }
    EXPECT_TRUE(rules::expand_dtype_ok(ExpandOp::Mul, profile::kCpu, DType::U8));
    EXPECT_FALSE(rules::expand_dtype_ok(ExpandOp::Mul, profile::kA5, DType::U8));
    EXPECT_FALSE(rules::expand_dtype_ok(ExpandOp::Add, profile::kCpu, DType::U8));
    EXPECT_FALSE(rules::expand_dtype_ok(ExpandOp::Add, profile::kCpu, DType::BF16));
}

TEST(BroadcastBinary, CheckedModeNamesTheZeroDivisorAndUnwrittenSources)
{
    test::ScopedChecked checked(true);
    using TileT = Tile<TileType::Vec, int32_t, 8, 8>;
    using ColumnT = Tile<TileType::Vec, int32_t, 8, 1, BLayout::ColMajor>;
    TileT dst, src;
    ColumnT divisors;
    for (int i = 0; i < 64; ++i) src.SetValue(i, i + 1);
    for (int i = 0; i < 8; ++i) divisors.SetValue(i, i == 2 ? 0 : i + 1);
    const Diagnostic d = test::diagnostic_of([&] { TROWEXPANDDIV(dst, src, divisors); });
    EXPECT_EQ(d.code, "RUN_DIV_BY_ZERO");
    EXPECT_EQ(d.operand, "src1");
    EXPECT_NE(d.message.find("(2, 0)"), std::string::npos) << d.message;

    ColumnT unwritten;
    TASSIGN(unwritten, 0x8000);
    EXPECT_EQ(test::diagnostic_of([&] { TROWEXPANDADD(dst, src, unwritten); }).code, "RUN_UNINIT_READ");
}
