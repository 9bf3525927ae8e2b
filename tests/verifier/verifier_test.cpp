// The verifier: one test per diagnostic code, asserting the code and its line:col.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"

namespace pto::as {
namespace {

std::vector<Diagnostic> verify_text(const std::string& text, profile::Target target = profile::Target::Cpu)
{
    ParseResult parsed = parse(text, "v.pto");
    for (const auto& d : parsed.diagnostics) ADD_FAILURE() << d.format();
    return verify(parsed.module, target);
}

std::string codes_of(const std::vector<Diagnostic>& ds)
{
    std::string out;
    for (const auto& d : ds) out += d.format() + "\n";
    return out;
}

void expect_one(const std::vector<Diagnostic>& ds, std::string_view code, std::string_view line_col)
{
    ASSERT_EQ(ds.size(), 1u) << codes_of(ds);
    EXPECT_EQ(ds[0].code, code) << codes_of(ds);
    EXPECT_EQ(ds[0].location, "v.pto:" + std::string(line_col)) << codes_of(ds);
}

const std::string kT = "!pto.tile_buf<vec, 16x16xf32>";

TEST(Verifier, ExamplesAndValidProgramsAreClean)
{
    for (const char* name : {"vector_add.pto", "embedding.pto", "topk.pto", "multi_tile_loop.pto"}) {
        std::ifstream in(std::string(PTOSIM_TEST_DATA_DIR) + "/../examples/pto/" + name);
        std::stringstream ss;
        ss << in.rdbuf();
        ParseResult parsed = parse(ss.str(), name);
        ASSERT_TRUE(parsed.ok()) << name;
        for (auto t : {profile::Target::Cpu, profile::Target::A2A3, profile::Target::A5})
            EXPECT_TRUE(verify(parsed.module, t).empty()) << name << "\n" << codes_of(verify(parsed.module, t));
    }
}

TEST(Verifier, UnknownOp)
{
    expect_one(verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + kT + "\n  pto.tfrobnicate ins(%t : " + kT + ") outs(%t : " + kT + ")\n  return\n}"),
               codes::kUnknownOp, "3:3");
}

TEST(Verifier, AttributeValueNotAmongItsSpellings)
{
    const std::string T = "!pto.tile_buf<vec, 16x16xi32>";
    const auto ds = verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + T + "\n  %c = pto.alloc_tile : " + T +
                                "\n  pto.tgather ins(%t, %t {cmpMode = #pto.cmp<BETWEEN>} : " + T + ", " + T + ") outs(%t, %c : " + T +
                                ", " + T + ")\n  return\n}");
    expect_one(ds, codes::kAttributeValue, "4:3");
    EXPECT_NE(ds[0].expected.find("gt"), std::string::npos) << codes_of(ds);
    EXPECT_EQ(ds[0].actual, "between");
}

TEST(Verifier, OperandsThatFitNoFormOfTheInstruction)
{
    // TGATHER's index form takes a tile of indices; a tensor view fits none of its forms.
    const std::string T = "!pto.tile_buf<vec, 16x16xi32>", V = "!pto.tensor_view<16x16xi32>";
    const auto ds = verify_text("func.func @f(%v: " + V + ") {\n  %t = pto.alloc_tile : " + T + "\n  pto.tgather ins(%t, %v : " +
                                T + ", " + V + ") outs(%t : " + T + ")\n  return\n}");
    expect_one(ds, codes::kOperandKind, "3:3");
    EXPECT_NE(ds[0].expected.find("(src: tile, indices: tile, tmp?: tile) -> (dst: tile)"), std::string::npos) << codes_of(ds);
}

TEST(Verifier, OperandCount)
{
    expect_one(verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + kT + "\n  pto.tadd ins(%t : " + kT + ") outs(%t : " + kT + ")\n  return\n}"),
               codes::kOperandCount, "3:3");
}

TEST(Verifier, ResultCount)
{
    expect_one(verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + kT + "\n  pto.tadd ins(%t, %t : " + kT + ", " + kT + ")\n  return\n}"),
               codes::kStructResultCount, "3:3");
}

TEST(Verifier, OperandKind)
{
    expect_one(verify_text("func.func @f(%x: f32) {\n  %t = pto.alloc_tile : " + kT + "\n  pto.tadd ins(%t, %x : " + kT + ", f32) outs(%t : " + kT +
                           ")\n  return\n}"),
               codes::kOperandKind, "3:3");
}

TEST(Verifier, MissingAttribute)
{
    expect_one(verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + kT + "\n  pto.tgather ins(%t : " + kT + ") outs(%t : " + kT + ")\n  return\n}"),
               codes::kMissingAttribute, "3:3");
}

TEST(Verifier, UseBeforeDef)
{
    // The parser rejects such text (PARSE_UNDEFINED_VALUE); IR built or rewritten by tools can still
    // get it wrong, so the verifier checks dominance itself.
    ParseResult parsed = parse("func.func @f() -> index {\n  %a = arith.constant 1 : index\n  %b = arith.addi %a, %a : index\n  return %b : index\n}", "v.pto");
    ASSERT_TRUE(parsed.ok());
    auto& ops = parsed.module.functions[0]->body->blocks[0]->operations;
    std::swap(ops[0], ops[1]);
    const auto ds = verify(parsed.module, profile::Target::Cpu);
    ASSERT_EQ(ds.size(), 2u) << codes_of(ds);  // both operands of the addi
    EXPECT_EQ(ds[0].code, codes::kUseBeforeDef);
    EXPECT_EQ(ds[0].location, "v.pto:3:8");
}

TEST(Verifier, TerminatorMissing)
{
    expect_one(verify_text("func.func @f() -> index {\n  %x = arith.constant 1 : index\n}"), codes::kTerminator, "2:8");
}

TEST(Verifier, YieldCount)
{
    expect_one(verify_text("func.func @f(%c: i1) -> index {\n  %r = scf.if %c -> (index) {\n    %a = arith.constant 1 : index\n    scf.yield\n"
                           "  } else {\n    %b = arith.constant 2 : index\n    scf.yield %b : index\n  }\n  return %r : index\n}"),
               codes::kYieldCount, "4:5");
}

TEST(Verifier, UnknownCallee)
{
    expect_one(verify_text("func.func @f() {\n  func.call @nowhere() : () -> ()\n  return\n}"), codes::kUnknownCallee, "2:3");
}

// ins/outs parse on any operation, but only a tile instruction has destinations (found by the fuzzer).
TEST(Verifier, DestinationsOnlyOnTileInstructions)
{
    expect_one(verify_text("func.func @f(%x: f32) -> f32 {\n  %y = arith.negf outs(%x : f32) -> f32\n  return %y : f32\n}"),
               "STRUCT_DESTINATIONS", "2:8");  // ops with results are located at their name
}

TEST(Verifier, SeveralDiagnosticsInOneRun)
{
    const auto ds = verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + kT + "\n  pto.tfoo ins(%t : " + kT + ") outs(%t : " + kT +
                                ")\n  pto.tbar ins(%t : " + kT + ") outs(%t : " + kT + ")\n  return\n}");
    ASSERT_EQ(ds.size(), 2u);
    EXPECT_EQ(ds[0].location, "v.pto:3:3");
    EXPECT_EQ(ds[1].location, "v.pto:4:3");
}

// --- legality, from the profile's rule predicates -------------------------------------------------

TEST(Verifier, LegalElementwiseDtypeDependsOnTheTarget)
{
    const std::string T = "!pto.tile_buf<vec, 16x32xbf16>";
    const std::string text = "func.func @f() {\n  %t = pto.alloc_tile : " + T + "\n  pto.tadd ins(%t, %t : " + T + ", " + T + ") outs(%t : " + T + ")\n  return\n}";
    expect_one(verify_text(text, profile::Target::A2A3), "LEGAL_TADD_DTYPE", "3:3");
    EXPECT_TRUE(verify_text(text, profile::Target::A5).empty());
}

TEST(Verifier, LegalElementwiseLocation)
{
    const std::string M = "!pto.tile_buf<mat, 16x16xf32>";
    const auto ds = verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + kT + "\n  %m = pto.alloc_tile : " + M + "\n  pto.tmul ins(%t, %m : " + kT + ", " + M +
                                ") outs(%t : " + kT + ")\n  return\n}");
    expect_one(ds, "LEGAL_ELEMWISE_LOCATION", "4:3");
}

TEST(Verifier, LegalElementwiseDtypeMismatch)
{
    const std::string I = "!pto.tile_buf<vec, 16x16xi32>";
    expect_one(verify_text("func.func @f() {\n  %t = pto.alloc_tile : " + kT + "\n  %i = pto.alloc_tile : " + I + "\n  pto.tsub ins(%t, %i : " + kT + ", " + I +
                           ") outs(%t : " + kT + ")\n  return\n}"),
               "LEGAL_ELEMWISE_DTYPE", "4:3");
}

TEST(Verifier, LegalTileAlign)
{
    expect_one(verify_text("func.func @f() {\n  %t = pto.alloc_tile : !pto.tile_buf<vec, 4x3xf32>\n  return\n}"), "LEGAL_TILE_ALIGN", "2:8");
}

TEST(Verifier, LegalTileAddressWhenTheTileOverflowsItsMemory)
{
    // 256 x 256 f32 is 256 KiB: fits the cpu and A5 UB, not A2/A3's 192 KiB.
    const std::string text = "func.func @f() {\n  %t = pto.alloc_tile : !pto.tile_buf<vec, 256x256xf32>\n  return\n}";
    expect_one(verify_text(text, profile::Target::A2A3), "LEGAL_TILE_ADDRESS", "2:8");
    EXPECT_TRUE(verify_text(text, profile::Target::A5).empty());
}

TEST(Verifier, LegalTgatherTmpRequiredOnA2A3)
{
    const std::string I = "!pto.tile_buf<vec, 16x16xi32>";
    const std::string text = "func.func @f() {\n  %s = pto.alloc_tile : " + kT + "\n  %i = pto.alloc_tile : " + I + "\n  %d = pto.tgather %s, %i : (" + kT + ", " + I +
                             ") -> " + kT + "\n  return\n}";
    expect_one(verify_text(text, profile::Target::A2A3), "LEGAL_TGATHER_TMP_REQUIRED", "4:8");
    EXPECT_TRUE(verify_text(text, profile::Target::A5).empty());
}

TEST(Verifier, LegalTsort32IndexDtype)
{
    const std::string S = "!pto.tile_buf<vec, 1x32xf32>", I = "!pto.tile_buf<vec, 1x32xi32>", D = "!pto.tile_buf<vec, 1x64xf32>";
    expect_one(verify_text("func.func @f() {\n  %s = pto.alloc_tile : " + S + "\n  %i = pto.alloc_tile : " + I + "\n  %d = pto.alloc_tile : " + D +
                           "\n  pto.tsort32 ins(%s, %i : " + S + ", " + I + ") outs(%d : " + D + ")\n  return\n}"),
               "LEGAL_TSORT32_INDEX_DTYPE", "5:3");
}

TEST(Verifier, LegalTloadLocation)
{
    // A load into an Acc tile: accepted by the cpu profile only.
    const std::string A = "!pto.tile_buf<acc, 16x16xf32>";
    const std::string text = "func.func @f(%p: !pto.ptr<f32>) {\n  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n"
                             "  %v = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
                             "  %t = pto.tload %v : !pto.tensor_view<?x?xf32> -> " + A + "\n  return\n}";
    EXPECT_TRUE(verify_text(text).empty());
    expect_one(verify_text(text, profile::Target::A2A3), "LEGAL_TLOAD_LOCATION", "5:8");
}

TEST(Verifier, LegalMgatherIndexDtype)
{
    const std::string I = "!pto.tile_buf<vec, 1x16xi16>", D = "!pto.tile_buf<vec, 16x16xf32>";
    expect_one(verify_text("func.func @f(%p: !pto.ptr<f32>) {\n  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n"
                           "  %v = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
                           "  %i = pto.alloc_tile : " + I + "\n  %d = pto.mgather %v, %i : (!pto.tensor_view<?x?xf32>, " + I + ") -> " + D + "\n  return\n}"),
               "LEGAL_MGATHER_INDEX_DTYPE", "6:8");
}

}  // namespace
}  // namespace pto::as

namespace pto::as {
namespace {

TEST(Verifier, LegalTileRulesApplyToFunctionArguments)
{
    const auto ds = verify_text("func.func @f(%t: !pto.tile_buf<vec, 8x8xi4>) {\n  return\n}");
    ASSERT_EQ(ds.size(), 1u) << codes_of(ds);
    EXPECT_EQ(ds[0].code, "LEGAL_TILE_ALIGN");
    EXPECT_EQ(ds[0].location, "v.pto:1:14");
}

}  // namespace
}  // namespace pto::as

namespace pto::as {
namespace {

// The assembler's rules on kernel entries: no results, no call chain back to the entry. A recursion
// elsewhere verifies; a run whose calls never end stops with RUN_CALL_DEPTH instead of overflowing the
// host's stack.
TEST(Verifier, KernelEntriesReturnNothingAndDoNotRecurse)
{
    expect_one(verify_text(R"(func.func @k() -> i32 attributes {pto.entry} {
  %c = arith.constant 1 : i32
  return %c : i32
})"), "STRUCT_ENTRY_RESULTS", "1:1");
    expect_one(verify_text(R"(func.func @k() attributes {pto.entry} {
  func.call @helper() : () -> ()
  return
}
func.func @helper() {
  func.call @k() : () -> ()
  return
})"), "STRUCT_ENTRY_RECURSION", "1:1");

    const std::string forever = R"(func.func @down(%n: i64) -> i64 {
  %r = func.call @down(%n) : (i64) -> i64
  return %r : i64
})";
    EXPECT_TRUE(verify_text(forever).empty());
    ParseResult parsed = parse(forever, "v.pto");
    RunOptions options;
    options.entry = "down";
    const RunResult r = run(parsed.module, {ArgumentBinding{"n", nullptr, 0, std::nullopt, 3.0}}, options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "RUN_CALL_DEPTH");
}

}  // namespace
}  // namespace pto::as
