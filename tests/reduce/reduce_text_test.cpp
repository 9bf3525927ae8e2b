// The reductions from PTO-AS text: programs that load a tile, reduce it and store the results run
// through the interpreter and give the reference bits (with and without tmp, DPS and SSA forms, TCOLSUM's
// isBinary); the verifier reports each broken rule with its code, per profile.
#include "reduce/support.hpp"

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"

using namespace pto;
using namespace reducetest;
using profile::Target;

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
    return text;
}

// %x (16x64 f32) is loaded into %tx, OP (which reads %tx and %tt and writes %ty, of type DST) runs, and
// %ty's first RxC elements are stored to %y.
std::string program(const std::string& op, const std::string& dst_type, int store_rows, int store_cols)
{
    std::string text = R"(func.func @f(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %cR = arith.constant R : index
  %cC = arith.constant C : index
  %xv = pto.make_tensor_view %x, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%cR, %cC], strides = [%cC, %c1] : !pto.tensor_view<?x?xf32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>
  %tt = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 16x64xf32>)
  OP
  pto.tstore ins(%ty : DST) outs(%yv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    const bool allocates = op.find("outs(%ty") != std::string::npos;
    if (allocates) text = replaced(text, "  OP\n", "  %ty = pto.alloc_tile : DST\n  OP\n");
    text = replaced(text, "OP", op);
    text = replaced(text, "DST", dst_type);
    text = replaced(text, "%cR = arith.constant R", "%cR = arith.constant " + std::to_string(store_rows));
    return replaced(text, "%cC = arith.constant C", "%cC = arith.constant " + std::to_string(store_cols));
}

std::vector<float> run_program(const std::string& text, const std::vector<float>& x, std::size_t results)
{
    const as::ParseResult parsed = as::parse(text, "reduce.pto");
    EXPECT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format()) << "\n" << text;
    if (!parsed.ok()) return {};
    const auto found = as::verify(parsed.module, Target::Cpu);
    EXPECT_TRUE(found.empty()) << found[0].format();
    std::vector<float> input = x, y(results, -1.0f);
    auto arg = [](const char* name, std::vector<float>& v) {
        as::ArgumentBinding b;
        b.name = name;
        b.data = reinterpret_cast<std::byte*>(v.data());
        b.bytes = v.size() * sizeof(float);
        return b;
    };
    as::RunOptions checked;
    checked.checked = true;
    const as::RunResult r = as::run(parsed.module, {arg("x", input), arg("y", y)}, checked);
    EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    return y;
}

std::vector<float> random_input()
{
    std::mt19937 rng(9);
    std::vector<float> x(16 * 64);
    for (float& v : x) v = random_element<float>(rng);
    return x;
}

const char* kSrc = "!pto.tile_buf<vec, 16x64xf32>";
const char* kRowResults = "!pto.tile_buf<vec, 16x8xf32, valid=16x1>";
const char* kColResults = "!pto.tile_buf<vec, 2x64xf32, valid=1x64>";

void expect_rows(ReduceOp op, const std::vector<float>& x, const std::vector<float>& y)
{
    ASSERT_EQ(y.size(), 16u);
    for (int r = 0; r < 16; ++r) {
        const std::vector<float> row(x.begin() + r * 64, x.begin() + (r + 1) * 64);
        EXPECT_TRUE(same_bits<float>(expected<float>(op, row, true), y[std::size_t(r)])) << "row " << r;
    }
}

void expect_columns(ReduceOp op, const std::vector<float>& x, const std::vector<float>& y)
{
    ASSERT_EQ(y.size(), 64u);
    for (int c = 0; c < 64; ++c) {
        std::vector<float> column;
        for (int r = 0; r < 16; ++r) column.push_back(x[std::size_t(r * 64 + c)]);
        EXPECT_TRUE(same_bits<float>(expected<float>(op, column, false), y[std::size_t(c)])) << "column " << c;
    }
}

TEST(ReduceText, RowReductionsWithAndWithoutTmp)
{
    const std::vector<float> x = random_input();
    const std::string types = std::string(" : ") + kSrc + ", " + kSrc + ") outs(%ty : " + kRowResults + ")";
    expect_rows(ReduceOp::Sum, x, run_program(program("pto.trowsum ins(%tx, %tt" + types, kRowResults, 16, 1), x, 16));
    expect_rows(ReduceOp::Max, x, run_program(program("pto.trowmax ins(%tx, %tt" + types, kRowResults, 16, 1), x, 16));
    expect_rows(ReduceOp::Prod, x, run_program(program("pto.trowprod ins(%tx, %tt" + types, kRowResults, 16, 1), x, 16));
    expect_rows(ReduceOp::Min, x,
                run_program(program(std::string("%ty = pto.trowmin %tx : (") + kSrc + ") -> " + kRowResults, kRowResults, 16, 1), x, 16));
}

TEST(ReduceText, ColumnReductionsWithTheirForms)
{
    const std::vector<float> x = random_input();
    const std::string outs = std::string(") outs(%ty : ") + kColResults + ")";
    expect_columns(ReduceOp::Sum, x,
                   run_program(program(std::string("pto.tcolsum ins(%tx : ") + kSrc + outs, kColResults, 1, 64), x, 64));
    expect_columns(ReduceOp::Sum, x,
                   run_program(program(std::string("pto.tcolsum ins(%tx, %tt {isBinary = true} : ") + kSrc + ", " + kSrc + outs,
                                       kColResults, 1, 64),
                               x, 64));
    expect_columns(ReduceOp::Prod, x,
                   run_program(program(std::string("pto.tcolprod ins(%tx : ") + kSrc + outs, kColResults, 1, 64), x, 64));
    expect_columns(ReduceOp::Max, x,
                   run_program(program(std::string("pto.tcolmax ins(%tx : ") + kSrc + outs, kColResults, 1, 64), x, 64));
    expect_columns(ReduceOp::Min, x,
                   run_program(program(std::string("%ty = pto.tcolmin %tx : (") + kSrc + ") -> " + kColResults, kColResults, 1, 64), x, 64));
}

// --- the verifier, per profile -----------------------------------------------------------------------

std::string tile(const std::string& dtype, const std::string& shape, const std::string& extra = {})
{
    return "!pto.tile_buf<vec, " + shape + "x" + dtype + extra + ">";
}

// The codes `verify` reports for `op` on `target`, the operand tiles %s (src), %t (tmp) and %d (dst).
std::vector<std::string> codes(Target target, const std::string& op, const std::string& src, const std::string& dst,
                               const std::string& tmp = {})
{
    std::string text = "func.func @f() {\n  %s = pto.alloc_tile : " + src + "\n  %d = pto.alloc_tile : " + dst + "\n";
    if (!tmp.empty()) text += "  %t = pto.alloc_tile : " + tmp + "\n";
    text += "  pto." + op + " ins(%s" + (tmp.empty() ? "" : ", %t") + " : " + src + (tmp.empty() ? "" : ", " + tmp) +
            ") outs(%d : " + dst + ")\n  return\n}\n";
    const as::ParseResult parsed = as::parse(text, "reduce.pto");
    EXPECT_TRUE(parsed.ok()) << text;
    std::vector<std::string> found;
    for (const auto& d : as::verify(parsed.module, target)) found.push_back(d.code);
    return found;
}

using Codes = std::vector<std::string>;

TEST(ReduceText, ElementTypesPerProfile)
{
    const std::string i8 = tile("i8", "32x64"), i64 = tile("i64", "16x64"), bf16 = tile("bf16", "16x64");
    const std::string i8_col = tile("i8", "32x1", ", blayout=col_major"), i64_col = tile("i64", "16x1", ", blayout=col_major");
    EXPECT_EQ(codes(Target::A2A3, "trowmax", i8, i8_col), Codes{"LEGAL_TROWMAX_DTYPE"});
    EXPECT_EQ(codes(Target::A5, "trowmax", i8, i8_col), Codes{});
    EXPECT_EQ(codes(Target::A5, "trowsum", i8, i8_col), Codes{"LEGAL_TROWSUM_DTYPE"});
    EXPECT_EQ(codes(Target::A2A3, "trowsum", i64, i64_col), Codes{"LEGAL_TROWSUM_DTYPE"});
    EXPECT_EQ(codes(Target::A5, "trowsum", i64, i64_col), Codes{});
    EXPECT_EQ(codes(Target::A2A3, "tcolsum", bf16, tile("bf16", "1x64")), Codes{"LEGAL_TCOLSUM_DTYPE"});
    EXPECT_EQ(codes(Target::A5, "tcolsum", bf16, tile("bf16", "1x64")), Codes{});
    EXPECT_EQ(codes(Target::A2A3, "tcolmin", tile("u16", "16x64"), tile("u16", "1x64")), Codes{"LEGAL_TCOLMIN_DTYPE"});
    EXPECT_EQ(codes(Target::Cpu, "tcolmin", tile("u16", "16x64"), tile("u16", "1x64")), Codes{});
    EXPECT_EQ(codes(Target::A5, "trowprod", i64, i64_col), Codes{"LEGAL_TROWPROD_DTYPE"});
    EXPECT_EQ(codes(Target::A5, "tcolprod", tile("u16", "16x64"), tile("u16", "1x64")), Codes{});
    EXPECT_EQ(codes(Target::A2A3, "tcolprod", tile("u16", "16x64"), tile("u16", "1x64")), Codes{"LEGAL_TCOLPROD_DTYPE"});
    EXPECT_EQ(codes(Target::A5, "tcolprod", tile("i8", "16x64"), tile("i8", "1x64")), Codes{"LEGAL_TCOLPROD_DTYPE"});
}

TEST(ReduceText, LayoutsLocationsAndShapes)
{
    const std::string src = tile("f32", "16x64");
    EXPECT_EQ(codes(Target::Cpu, "trowsum", src, tile("f32", "16x1", ", blayout=col_major")), Codes{});
    EXPECT_EQ(codes(Target::Cpu, "trowsum", src, tile("f32", "16x8", ", valid=16x1")), Codes{});
    EXPECT_EQ(codes(Target::Cpu, "trowsum", src, tile("f32", "16x8", ", blayout=col_major")), Codes{"LEGAL_TROWSUM_LAYOUT"});
    EXPECT_EQ(codes(Target::Cpu, "trowmin", tile("f32", "16x64", ", blayout=col_major"), tile("f32", "16x1", ", blayout=col_major")),
              Codes{"LEGAL_TROWMIN_LAYOUT"});
    EXPECT_EQ(codes(Target::Cpu, "tcolmax", src, tile("f32", "64x1", ", blayout=col_major, valid=1x1")),
              (Codes{"LEGAL_TCOLMAX_LAYOUT", "RUN_VALID_SHAPE"}));
    EXPECT_EQ(codes(Target::Cpu, "trowmax", src, "!pto.tile_buf<mat, 16x8xf32, valid=16x1>"), Codes{"LEGAL_TROWMAX_LOCATION"});
    EXPECT_EQ(codes(Target::Cpu, "trowsum", src, tile("f16", "16x16", ", valid=16x1")), Codes{"LEGAL_TROWSUM_SAME_DTYPE"});
    EXPECT_EQ(codes(Target::Cpu, "trowsum", src, tile("f32", "16x8", ", valid=8x1")), Codes{"RUN_VALID_SHAPE"});
    EXPECT_EQ(codes(Target::Cpu, "tcolsum", src, tile("f32", "1x64", ", valid=1x32")), Codes{"RUN_VALID_SHAPE"});
    EXPECT_EQ(codes(Target::Cpu, "trowsum", tile("f32", "16x64", ", valid=16x0"), tile("f32", "16x8", ", valid=16x1")),
              Codes{"RUN_VALID_SHAPE"});
}

TEST(ReduceText, TcolsumTmp)
{
    const std::string src = tile("f32", "16x64"), dst = tile("f32", "1x64");
    EXPECT_EQ(codes(Target::A2A3, "tcolsum", src, dst, tile("i32", "8x64")), Codes{"LEGAL_TCOLSUM_TMP"});
    EXPECT_EQ(codes(Target::A5, "tcolsum", src, dst, tile("i32", "8x64")), Codes{});
    const std::string narrow = "pto.tcolsum ins(%s, %t {isBinary = true} : " + src + ", " + tile("f32", "8x32") +
                               ") outs(%d : " + dst + ")";
    const std::string text = "func.func @f() {\n  %s = pto.alloc_tile : " + src + "\n  %d = pto.alloc_tile : " + dst +
                             "\n  %t = pto.alloc_tile : " + tile("f32", "8x32") + "\n  " + narrow + "\n  return\n}\n";
    const as::ParseResult parsed = as::parse(text, "reduce.pto");
    ASSERT_TRUE(parsed.ok());
    const auto found = as::verify(parsed.module, Target::Cpu);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].code, "RUN_VALID_SHAPE");
    EXPECT_EQ(found[0].operand, "tmp");
    EXPECT_EQ(codes(Target::Cpu, "tcolsum", src, dst, tile("f32", "8x32")), Codes{});  // isBinary is false by default
}

}  // namespace
