// The PTO-AS door of the broadcast instructions: each in every spelling (DPS, SSA, PTO assembly) runs
// through the interpreter on random arrays loaded into tiles with random partial valid regions, and gives
// exactly the bits the engine gives the C++ door on the same data: the row broadcasts of a 32-byte block
// and of one value per row (a column-major tile), the column broadcasts, DIV's precision attribute, and
// TROWEXPAND.
#include "elementwise_instructions/text_programs.hpp"
#include "support/test_support.hpp"

#include <bit>
#include <cctype>

namespace ewinstr::text {
namespace {

using pto::engine::ExpandAxis;
using pto::engine::ExpandOp;

constexpr ExpandOp kOps[] = {ExpandOp::Add, ExpandOp::Sub, ExpandOp::Mul, ExpandOp::Div,
                             ExpandOp::Max, ExpandOp::Min, ExpandOp::ExpDif};

class BroadcastTextDoor : public ::testing::Test {
    pto::test::ScopedChecked checked_{true};
};

std::string lower(std::string text)
{
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// No zero divisor: checked mode stops at one.
void make_nonzero(Array& a)
{
    for (int64_t i = 0; i < int64_t(a.rows) * a.cols; ++i)
        if (!is_float(a.dtype) && load(a.bytes.data(), i, a.dtype) == 0) store(a.bytes.data(), i, a.dtype, 3);
}

template <typename T>
void check_broadcast(ExpandAxis axis, ExpandOp op, DType t, std::mt19937& rng)
{
    const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
    const int block = 256 / width(t);
    const Array a = random_array(t, rows, cols, rng);
    Array b = axis == ExpandAxis::Row ? random_array(t, rows, block, rng) : random_array(t, 1, cols, rng);
    make_nonzero(b);
    auto src0 = tile_of<T>(a);
    auto src1 = tile_of<T>(b);
    RegionTile<T> dst(rows, cols);
    pto::engine::broadcast_binary(axis, op, dst.desc(), src0.desc(), src1.desc());
    const std::string mnemonic = lower(pto::engine::broadcast_binary_name(axis, op));
    SCOPED_TRACE(mnemonic + " " + dtype_text(t));
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}, {"b", b}}, {}, [&](Spelling s) {
        return instruction(s, mnemonic, {tile("%a_tile", a.shape()), tile("%b_tile", b.shape())}, tile("%result", a.shape()),
                           op == ExpandOp::Div ? "{precision = #pto<precision high_precision>}" : "");
    });
}

template <typename T>
void check_every_op(DType t, std::mt19937& rng)
{
    for (ExpandOp op : kOps) {
        if (!pto::rules::expand_dtype_ok(op, pto::profile::kCpu, t)) continue;
        check_broadcast<T>(ExpandAxis::Row, op, t, rng);
        check_broadcast<T>(ExpandAxis::Col, op, t, rng);
    }
}

}  // namespace

TEST_F(BroadcastTextDoor, EveryInstructionInEverySpellingGivesTheBitsOfTheCppDoor)
{
    std::mt19937 rng(91);
    check_every_op<float>(DType::F32, rng);
    check_every_op<pto::half>(DType::F16, rng);
    check_every_op<int32_t>(DType::I32, rng);
    check_every_op<uint16_t>(DType::U16, rng);
}

// One value per row from a column-major tile (loaded from the array; a column is the same bytes in
// either order).
TEST_F(BroadcastTextDoor, RowBroadcastOfAColumnMajorVector)
{
    std::mt19937 rng(92);
    const int rows = 6, cols = 20;
    const Array a = random_array(DType::F32, rows, cols, rng);
    Array column = random_array(DType::F32, rows, 1, rng);
    auto src = tile_of<float>(a);
    pto::Tile<pto::TileType::Vec, float, kRows, 1, pto::BLayout::ColMajor, pto::DYNAMIC, 1> vector(rows);
    for (int i = 0; i < rows; ++i) vector.SetValue(i, std::bit_cast<float>(uint32_t(column.at(i, 0))));
    RegionTile<float> dst(rows, cols);
    pto::TROWEXPANDSUB(dst, src, vector);
    const std::string vec_type = "!pto.tile_buf<vec, 8x1xf32, valid=6x1, blayout=col_major>";
    const std::string text = kernel_text({{"a", a}, {"v", column}}, {}, a.shape(),
                                         "  %vec = pto.alloc_tile : " + vec_type + "\n" +
                                             "  pto.tload ins(%v_part : !pto.partition_tensor_view<6x1xf32>) outs(%vec : " +
                                             vec_type + ")\n" +
                                             instruction(Spelling::Dps, "trowexpandsub",
                                                         {tile("%a_tile", a.shape()), Value{"%vec", vec_type}},
                                                         tile("%result", a.shape())));
    SCOPED_TRACE(text);
    const Array got = run_text(text, {{"a", a}, {"v", column}}, {}, a.shape());
    const Array expected = array_of(dst.desc());
    EXPECT_TRUE(got == expected) << describe_difference(expected, got);
}

TEST_F(BroadcastTextDoor, TrowexpandInEverySpelling)
{
    std::mt19937 rng(93);
    const Array a = random_array(DType::BF16, 7, 9, rng);
    auto src = tile_of<pto::bfloat16_t>(a);
    RegionTile<pto::bfloat16_t> dst(7, 25);
    pto::TROWEXPAND(dst, src);
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}}, {}, [&](Spelling s) {
        return instruction(s, "trowexpand", {tile("%a_tile", a.shape())}, tile("%result", {DType::BF16, 7, 25}));
    });
}

}  // namespace ewinstr::text
