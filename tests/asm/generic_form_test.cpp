// MLIR's generic operation form: each construct parses to the IR its custom spelling gives, the
// printer writes it, and malformed generic operations are reported at their source location.
#include <algorithm>

#include "asm/op_table.hpp"
#include "asm/verifier.hpp"
#include "asm_test_support.hpp"

namespace pto::as {
namespace {

using testing::body_of;
using testing::diagnostics_text;
using testing::in_function;
using testing::parse_clean;

const std::string kTile = "!pto.tile_buf<vec, 16x16xf32>";
const std::string kView = "!pto.partition_tensor_view<16x16xf32>";

// Parses both texts cleanly and expects equivalent IR.
void expect_same_ir(const std::string& generic, const std::string& custom)
{
    ParseResult g = parse_clean(generic, "generic.pto");
    ParseResult c = parse_clean(custom, "custom.pto");
    auto difference = first_difference(g.module, c.module, /*exact=*/false);
    EXPECT_FALSE(difference) << *difference << "\ngeneric:\n" << generic << "custom:\n" << custom;
}

std::string tiles(const std::string& body)
{
    return in_function(body, "%a: " + kTile + ", %b: " + kTile + ", %d: " + kTile + ", %v: " + kView + ", %k: f32");
}

ParseResult parse_bad(const std::string& text)
{
    ParseResult r = parse(text, "bad.pto");
    EXPECT_FALSE(r.ok()) << text;
    return r;
}

// ---- operations -----------------------------------------------------------------------------------

TEST(GenericForm, ConstantsArithmeticAndComparisons)
{
    expect_same_ir(in_function("  %c = \"arith.constant\"() {value = 4 : index} : () -> index\n"
                               "  %t = \"arith.constant\"() <{value = true}> : () -> i1\n"
                               "  %s = \"arith.addi\"(%c, %c) : (index, index) -> index\n"
                               "  %p = \"arith.cmpi\"(%s, %c) <{predicate = 2 : i64}> : (index, index) -> i1\n"
                               "  %q = \"arith.cmpi\"(%s, %c) <{predicate = slt}> : (index, index) -> i1"),
                   in_function("  %c = arith.constant 4 : index\n  %t = arith.constant true\n"
                               "  %s = arith.addi %c, %c : index\n  %p = arith.cmpi 2, %s, %c : index\n"
                               "  %q = arith.cmpi slt, %s, %c : index"));
}

TEST(GenericForm, TileInstructionWithResultIsSsa)
{
    expect_same_ir(tiles("  %r = \"pto.tadd\"(%a, %b) : (" + kTile + ", " + kTile + ") -> " + kTile),
                   tiles("  %r = pto.tadd %a, %b : (" + kTile + ", " + kTile + ") -> " + kTile));
    // The parse result owns the operation: it must outlive the reference.
    const ParseResult parsed = parse_clean(tiles("  %r = \"pto.tadd\"(%a, %b) : (" + kTile + ", " + kTile + ") -> " + kTile));
    const Operation& op = *body_of(parsed.module)[0];
    EXPECT_EQ(op.spelling.form, OpForm::Generic);
    EXPECT_EQ(op.num_outputs, 0u);
    EXPECT_EQ(op.results.size(), 1u);
}

TEST(GenericForm, OperandSegmentSizesSplitInputsAndDestinations)
{
    const std::string dps = tiles("  pto.tadd ins(%a, %b : " + kTile + ", " + kTile + ") outs(%d : " + kTile + ")");
    const std::string types = " : (" + kTile + ", " + kTile + ", " + kTile + ") -> ()";
    expect_same_ir(tiles("  \"pto.tadd\"(%a, %b, %d) {operandSegmentSizes = array<i32: 2, 1>}" + types), dps);
    expect_same_ir(tiles("  \"pto.tadd\"(%a, %b, %d) <{operand_segment_sizes = array<i32: 2, 1>}>" + types), dps);
    // Without the attribute, a result-less tile instruction's destinations are its trailing
    // operands: as few as the op table allows.
    expect_same_ir(tiles("  \"pto.tadd\"(%a, %b, %d)" + types), dps);
    // A destination count the rule would not guess needs the attribute.
    Module m = parse_clean(tiles("  \"pto.tadd\"(%a, %b, %d) <{operandSegmentSizes = array<i32: 1, 2>}>" + types)).module;
    EXPECT_EQ(body_of(m)[0]->num_outputs, 2u);
    EXPECT_EQ(body_of(m)[0]->attribute("operandSegmentSizes"), nullptr);
}

TEST(GenericForm, TgatherComparisonFormHasTwoDestinationsByDefault)
{
    std::string t = kTile;
    expect_same_ir(tiles("  \"pto.tgather\"(%a, %k, %b, %d, %d) <{cmpMode = #pto.cmp<GT>}> : (" + t + ", f32, " + t + ", " +
                         t + ", " + t + ") -> ()"),
                   tiles("  pto.tgather ins(%a, %k, %b : " + t + ", f32, " + t + ") outs(%d, %d : " + t + ", " + t +
                         ") {cmpMode = #pto.cmp<GT>}"));
}

TEST(GenericForm, PropertiesAndAttributesBothBecomeAttributes)
{
    expect_same_ir(tiles("  \"pto.tgather\"(%a, %d) <{maskPattern = #pto.mask_pattern<P0101>}> {pto.note = \"x\"} : (" +
                         kTile + ", " + kTile + ") -> ()"),
                   tiles("  pto.tgather ins(%a, {maskPattern = #pto.mask_pattern<P0101>} : " + kTile + ") outs(%d : " + kTile +
                         ") {pto.note = \"x\"}"));
}

TEST(GenericForm, MicroInstructionClausesTravelInOneProperty)
{
    const std::string params = "%p: !pto.ptr<f32, l0c>, %g: !pto.ptr<f16>, %s: f32, %c: i64";
    expect_same_ir(in_function("  \"pto.mte_l0c_gm\"(%p, %g, %c, %c, %c, %c, %c, %c, %s, %c) "
                               "<{clauses = \"pre_quant(?, mode = q.x$1) pre_relu(mode = normal_relu, clip = ?) nz2nd sat\"}> : "
                               "(!pto.ptr<f32, l0c>, !pto.ptr<f16>, i64, i64, i64, i64, i64, i64, f32, i64) -> ()\n",
                               params),
                   in_function("  pto.mte_l0c_gm %p, %g, %c, %c, %c, %c, %c, %c, pre_quant(%s, mode = q.x$1),\n"
                               "    pre_relu(mode = normal_relu, clip = %c), nz2nd, sat\n",
                               params));
    // pto.mte_l0c_ub's dst_mode: a value (one sub-block) or a word (both, split).
    const std::string ub_params = "%p: !pto.ptr<f32, l0c>, %u: !pto.ptr<f32, ub>, %c: i64";
    expect_same_ir(in_function("  \"pto.mte_l0c_ub\"(%p, %u, %c, %c, %c, %c, %c, %c) <{clauses = \"dst_mode(?) nz2dn(?)\"}> : "
                               "(!pto.ptr<f32, l0c>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64) -> ()\n",
                               ub_params),
                   in_function("  pto.mte_l0c_ub %p, %u, %c, %c, %c, %c, dst_mode(%c), nz2dn(%c)\n", ub_params));
    expect_same_ir(in_function("  \"pto.mte_l0c_ub\"(%p, %u, %c, %c, %c, %c) <{clauses = \"dst_mode(split_n) nz2nd\"}> : "
                               "(!pto.ptr<f32, l0c>, !pto.ptr<f32, ub>, i64, i64, i64, i64) -> ()\n",
                               ub_params),
                   in_function("  pto.mte_l0c_ub %p, %u, %c, %c, %c, %c, dst_mode(split_n), nz2nd\n", ub_params));
    // A clauses string that does not read, or takes more operands than there are, is an error.
    parse_bad(in_function("  \"pto.mad\"(%c) <{clauses = \"sat(\"}> : (i64) -> ()\n", "%c: i64"));
    parse_bad(in_function("  \"pto.mad\"(%c) <{clauses = \"nburst(?, ?)\"}> : (i64) -> ()\n", "%c: i64"));
}

TEST(GenericForm, ViewsAndBuffersRebuildTheirKeywordOperands)
{
    const std::string ptr = "!pto.ptr<f32>";
    const std::string setup = "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
                              "  %c16 = arith.constant 16 : index\n";
    expect_same_ir(
        in_function(setup +
                        "  %tv = \"pto.make_tensor_view\"(%p, %c16, %c16, %c16, %c1) <{operandSegmentSizes = array<i32: 1, 2, 2>}>"
                        " : (" + ptr + ", index, index, index, index) -> !pto.tensor_view<?x?xf32>\n"
                        "  %pv = \"pto.partition_view\"(%tv, %c0, %c0, %c16, %c16) <{operandSegmentSizes = array<i32: 1, 2, 2>}>"
                        " : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> " + kView + "\n"
                        "  %t = \"pto.alloc_tile\"(%c0, %c16) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (index, index) -> "
                        "!pto.tile_buf<vec, 16x16xf32, valid=16x?>\n"
                        "  %s = \"pto.subset\"(%t, %c0, %c0) <{operandSegmentSizes = array<i32: 1, 2>, sizes = array<i64: 8, 16>}>"
                        " : (!pto.tile_buf<vec, 16x16xf32, valid=16x?>, index, index) -> !pto.tile_buf<vec, 8x16xf32>",
                    "%p: " + ptr),
        in_function(setup +
                        "  %tv = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
                        "  %pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c16, %c16] : "
                        "!pto.tensor_view<?x?xf32> -> " + kView + "\n"
                        "  %t = pto.alloc_tile addr = %c0 valid_col = %c16 : !pto.tile_buf<vec, 16x16xf32, valid=16x?>\n"
                        "  %s = pto.subset %t[%c0, %c0] sizes [8, 16] : !pto.tile_buf<vec, 8x16xf32>",
                    "%p: " + ptr));
}

TEST(GenericForm, SyncOperationsNameTheirPositionalAttributes)
{
    expect_same_ir(in_function("  \"pto.set_flag\"() <{src_pipe = <PIPE_MTE2>, dst_pipe = <PIPE_V>, event_id = <EVENT_ID0>}> : () -> ()\n"
                               "  \"pto.barrier\"() <{pipe = #pto.pipe<PIPE_ALL>}> : () -> ()\n"
                               "  \"pto.record_event\"() <{src_op = #pto.sync_op_type<TLOAD>, dst_op = #pto.sync_op_type<TADD>, "
                               "event_id = #pto.event<EVENT_ID0>}> : () -> ()"),
                   in_function("  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n  pto.barrier #pto.pipe<PIPE_ALL>\n"
                               "  pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TADD>, #pto.event<EVENT_ID0>]"));
}

// ---- regions, functions, modules ------------------------------------------------------------------

TEST(GenericForm, LoopsAndConditionalsTakeRegionsWithEntryArguments)
{
    expect_same_ir(in_function("  %c0 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
                               "  %c1 = \"arith.constant\"() <{value = 1 : index}> : () -> index\n"
                               "  %sum = \"scf.for\"(%c0, %n, %c1, %c0) ({\n"
                               "  ^bb0(%i: index, %acc: index):\n"
                               "    %next = \"arith.addi\"(%acc, %i) : (index, index) -> index\n"
                               "    \"scf.yield\"(%next) : (index) -> ()\n"
                               "  }) : (index, index, index, index) -> index\n"
                               "  %small = \"arith.cmpi\"(%sum, %n) <{predicate = slt}> : (index, index) -> i1\n"
                               "  %r = \"scf.if\"(%small) ({\n"
                               "    \"scf.yield\"(%c0) : (index) -> ()\n"
                               "  }, {\n"
                               "    \"scf.yield\"(%sum) : (index) -> ()\n"
                               "  }) : (i1) -> index\n"
                               "  %w = \"scf.while\"(%c0) ({\n"
                               "  ^bb0(%x: index):\n"
                               "    %go = \"arith.cmpi\"(%x, %n) <{predicate = slt}> : (index, index) -> i1\n"
                               "    \"scf.condition\"(%go, %x) : (i1, index) -> ()\n"
                               "  }, {\n"
                               "  ^bb0(%y: index):\n"
                               "    %z = \"arith.addi\"(%y, %c1) : (index, index) -> index\n"
                               "    \"scf.yield\"(%z) : (index) -> ()\n"
                               "  }) : (index) -> index",
                               "%n: index"),
                   in_function("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
                               "  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {\n"
                               "    %next = arith.addi %acc, %i : index\n    scf.yield %next : index\n  }\n"
                               "  %small = arith.cmpi slt, %sum, %n : index\n"
                               "  %r = scf.if %small -> (index) {\n    scf.yield %c0 : index\n  } else {\n"
                               "    scf.yield %sum : index\n  }\n"
                               "  %w = scf.while (%x = %c0) : (index) -> (index) {\n"
                               "    %go = arith.cmpi slt, %x, %n : index\n    scf.condition(%go) %x : index\n"
                               "  } do {\n  ^bb0(%y: index):\n    %z = arith.addi %y, %c1 : index\n    scf.yield %z : index\n  }",
                               "%n: index"));
}

TEST(GenericForm, FunctionsModulesAndCalls)
{
    const std::string generic = R"("builtin.module"() <{sym_name = "kernels"}> ({
  "func.func"() <{function_type = (index) -> index, sym_name = "twice", sym_visibility = "private"}> ({
  ^bb0(%x: index):
    %y = "arith.addi"(%x, %x) : (index, index) -> index
    "func.return"(%y) : (index) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{pto.noalias}, {}], function_type = (!pto.ptr<f32>, index) -> (), sym_name = "main"}> ({
  ^bb0(%p: !pto.ptr<f32>, %n: index):
    %r = "func.call"(%n) <{callee = @twice}> : (index) -> index
    "func.return"() : () -> ()
  }) {pto.entry} : () -> ()
}) {pto.target_arch = "a5"} : () -> ()
)";
    const std::string custom = R"(module @kernels attributes {pto.target_arch = "a5"} {
  func.func private @twice(%x: index) -> index {
    %y = arith.addi %x, %x : index
    return %y : index
  }
  func.func @main(%p: !pto.ptr<f32> {pto.noalias}, %n: index) attributes {pto.entry} {
    %r = func.call @twice(%n) : (index) -> index
    return
  }
}
)";
    expect_same_ir(generic, custom);
    Module m = parse_clean(generic).module;
    EXPECT_TRUE(m.explicit_module);
    EXPECT_EQ(m.name, "kernels");
    ASSERT_EQ(m.functions.size(), 2u);
    EXPECT_EQ(m.functions[0]->visibility, "private");
    EXPECT_EQ(m.functions[0]->result_types, std::vector<Type>{Type::index()});
    EXPECT_EQ(m.functions[1]->arguments().size(), 2u);
    EXPECT_TRUE(find_attribute(m.functions[1]->attributes, "pto.entry"));
}

TEST(GenericForm, GenericAndCustomFormsMixInOneFile)
{
    expect_same_ir("\"func.func\"() <{function_type = (index) -> index, sym_name = \"f\"}> ({\n^bb0(%x: index):\n"
                   "  %y = arith.addi %x, %x : index\n  \"func.return\"(%y) : (index) -> ()\n}) : () -> ()\n"
                   "func.func @g(%x: index) -> index {\n  %y = \"arith.muli\"(%x, %x) : (index, index) -> index\n"
                   "  return %y : index\n}\n",
                   "func.func @f(%x: index) -> index {\n  %y = arith.addi %x, %x : index\n  return %y : index\n}\n"
                   "func.func @g(%x: index) -> index {\n  %y = arith.muli %x, %x : index\n  return %y : index\n}\n");
}

// ---- printing ---------------------------------------------------------------------------------------

TEST(GenericForm, PrinterWritesEveryOperationGenerically)
{
    Module m = parse_clean(tiles("  pto.tadd ins(%a, %b : " + kTile + ", " + kTile + ") outs(%d : " + kTile + ")\n"
                                 "  %r = pto.tgather %a {maskPattern = #pto.mask_pattern<P0101>, pto.note} : " + kTile +
                                 " -> " + kTile + "\n  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]"))
                   .module;
    std::string text = print(m, Form::Generic);
    for (std::string expected :
         {"\"func.func\"() <{function_type = (" + kTile + ", " + kTile + ", " + kTile + ", " + kView +
              ", f32) -> (), sym_name = \"f\"}> ({\n^bb0(%a: " + kTile,
          "\"pto.tadd\"(%a, %b, %d) <{operandSegmentSizes = array<i32: 2, 1>}> : (" + kTile + ", " + kTile + ", " + kTile +
              ") -> ()",
          "%r = \"pto.tgather\"(%a) <{maskPattern = #pto.mask_pattern<P0101>}> {pto.note} : (" + kTile + ") -> " + kTile,
          std::string("\"pto.set_flag\"() <{src_pipe = <PIPE_MTE2>, dst_pipe = <PIPE_V>, event_id = <EVENT_ID0>}> : () -> ()"),
          std::string("\"func.return\"() : () -> ()\n}) : () -> ()")})
        EXPECT_NE(text.find(expected), std::string::npos) << expected << "\nin:\n" << text;
    EXPECT_EQ(text.find("pto.tadd ins"), std::string::npos) << text;
}

// Several results after a parenthesized operand list are parenthesized too (the parser reads one type
// or a list there), so that `%lo, %hi = pto.vmull ... -> A, B` and `pto.get_vms4_sr : i16, ...` read
// back the same in every form.
TEST(GenericForm, SeveralResultsReadBackInEveryForm)
{
    const std::string r = "!pto.vreg<64xi32>";
    const std::string text = in_function("  %a, %b, %c, %d = pto.get_vms4_sr : i16, i16, i16, i16\n  pto.vecscope {\n"
                                         "    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n    %v = pto.vbr %k : i32 -> " + r + "\n"
                                         "    %lo, %hi = pto.vmull %v, %v, %m : " + r + ", " + r + ", !pto.mask<b32> -> " + r + ", " + r + "\n"
                                         "    %x, %y = pto.vintlv %v, %v : " + r + ", " + r + " -> " + r + ", " + r + "\n  }",
                                         "%k: i32");
    const Module m = parse_clean(text, "results.pto").module;
    for (Form form : {Form::Generic, Form::Asm, Form::SSA, Form::Preserve}) {
        const std::string printed = print(m, form);
        const Module again = parse_clean(printed, "printed.pto").module;
        auto difference = first_difference(m, again, /*exact=*/false);
        EXPECT_FALSE(difference) << *difference << "\nprinted:\n" << printed;
        EXPECT_EQ(body_of(again).front()->results.front()->type, body_of(m).front()->results.front()->type) << printed;
    }
}

TEST(GenericForm, OperandsWithoutAGenericSpellingKeepTheirCustomForm)
{
    // A subscript on an operation with no named operand segments has no generic equivalent.
    Module m = parse_clean(in_function("  %c0 = arith.constant 0 : index\n"
                                       "  %v = pto.vlds %s[%c0] {dist = \"NORM\"} : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>",
                                       "%s: !pto.ptr<i32, ub>"))
                   .module;
    std::string text = print(m, Form::Generic);
    EXPECT_NE(text.find("%v = pto.vlds %s[%c0] {dist = \"NORM\"}"), std::string::npos) << text;
    EXPECT_NE(text.find("%c0 = \"arith.constant\"()"), std::string::npos) << text;
    Module back = parse_clean(text).module;
    EXPECT_TRUE(equivalent(m, back)) << *first_difference(m, back, false);
}

TEST(GenericForm, PreserveKeepsTheGenericSpelling)
{
    std::string text = tiles("  %r = \"pto.tadd\"(%a, %b) : (" + kTile + ", " + kTile + ") -> " + kTile +
                             "\n  %s = pto.tadd %a, %b : (" + kTile + ", " + kTile + ") -> " + kTile);
    Module m = parse_clean(text).module;
    std::string printed = print(m);
    EXPECT_NE(printed.find("%r = \"pto.tadd\"(%a, %b) : ("), std::string::npos) << printed;
    EXPECT_NE(printed.find("%s = pto.tadd %a, %b : ("), std::string::npos) << printed;
    EXPECT_TRUE(m == parse_clean(printed).module);
}

// A quoted name may hold characters no bare identifier can (found by the mutation test): such an
// operation stays quoted in every form, so the printed text reads back.
TEST(GenericForm, NameThatIsNoBareIdentifierStaysQuotedInEveryForm)
{
    const std::string name = "pto.m\xD1ke-view";
    Module m = parse_clean(tiles("  %r = \"" + name + "\"(%a) : (" + kTile + ") -> " + kTile)).module;
    for (Form form : {Form::Preserve, Form::Asm, Form::SSA, Form::DPS, Form::Generic}) {
        std::string printed = print(m, form);
        EXPECT_NE(printed.find("\"" + name + "\"(%a)"), std::string::npos) << printed;
        auto difference = first_difference(m, parse_clean(printed).module, /*exact=*/form == Form::Preserve);
        EXPECT_FALSE(difference) << *difference;
    }
}

// Not yet in generic form: the vector micro-instructions whose operands are subscripted
// (`pto.vlds %p[%i]`, `pto.vsts %v, %p[%i], %m`) or which take a positional word (`pto.pset_b32
// "PAT_ALL"`): they keep their own spelling.
bool keeps_its_spelling(const Operation& op)
{
    const OpInfo* info = find_op(op.name);
    const bool subscripted = std::any_of(op.input_layout.begin(), op.input_layout.end(),
                                         [](const OperandGroup& g) { return g.style == GroupStyle::Subscript; });
    return info && info->cls == OpClass::Vector && (subscripted || !op.arguments.empty());
}

TEST(GenericForm, EveryCorpusOperationButSomeVectorOnesPrintsGenerically)
{
    for (const auto& path : testing::corpus_and_examples()) {
        Module printed = parse_clean(print(parse_clean(testing::read_text(path)).module, Form::Generic)).module;
        for (const auto& f : printed.functions)
            walk(*f->body, [&](const Operation& op) {
                if (!keeps_its_spelling(op)) {
                    EXPECT_EQ(op.spelling.form, OpForm::Generic) << path << ": " << op.name;
                }
            });
    }
}

TEST(GenericForm, TheVerifierSaysTheSameAboutBothSpellings)
{
    for (const auto& path : testing::corpus_and_examples()) {
        Module custom = parse_clean(testing::read_text(path)).module;
        Module generic = parse_clean(print(custom, Form::Generic)).module;
        for (profile::Target target : {profile::Target::Cpu, profile::Target::A2A3, profile::Target::A5}) {
            std::vector<std::string> from_custom, from_generic;
            for (const Diagnostic& d : verify(custom, target)) from_custom.push_back(d.code + " " + d.message);
            for (const Diagnostic& d : verify(generic, target)) from_generic.push_back(d.code + " " + d.message);
            EXPECT_EQ(from_custom, from_generic) << path;
        }
    }
}

// ---- diagnostics --------------------------------------------------------------------------------

struct BadGeneric {
    std::string name;
    std::string text;
    std::string code;
    std::string location;
};

class GenericFormErrors : public ::testing::TestWithParam<BadGeneric> {};

TEST_P(GenericFormErrors, ReportedAtTheirSource)
{
    ParseResult r = parse_bad(GetParam().text);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].code, GetParam().code) << diagnostics_text(r.diagnostics);
    EXPECT_EQ(r.diagnostics[0].location, GetParam().location) << diagnostics_text(r.diagnostics);
}

const std::string kFn = "func.func @f(%a: index) {\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, GenericFormErrors,
    ::testing::Values(
        BadGeneric{"TypeCountBelowOperands", kFn + "  %b = \"arith.addi\"(%a, %a) : (index) -> index\n  return\n}\n",
                   "PARSE_TYPE_COUNT", "bad.pto:2:29"},
        BadGeneric{"ResultCount", kFn + "  %b, %c = \"arith.addi\"(%a, %a) : (index, index) -> index\n  return\n}\n",
                   "PARSE_RESULT_COUNT", "bad.pto:2:12"},
        BadGeneric{"MissingFunctionType", kFn + "  %b = \"arith.addi\"(%a, %a)\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN",
                   "bad.pto:3:3"},
        BadGeneric{"UndefinedOperand", kFn + "  \"pto.tprint\"(%zz) : (index) -> ()\n  return\n}\n", "PARSE_UNDEFINED_VALUE",
                   "bad.pto:2:16"},
        BadGeneric{"Successors", kFn + "  \"cf.br\"() [^bb1] : () -> ()\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN",
                   "bad.pto:2:13"},
        BadGeneric{"SegmentsNotAddingUp",
                   kFn + "  %v = \"pto.make_tensor_view\"(%a, %a) <{operandSegmentSizes = array<i32: 1, 2, 2>}> : (index, index) -> "
                         "index\n  return\n}\n",
                   "PARSE_BAD_ATTRIBUTE", "bad.pto:2:41"},
        BadGeneric{"TileSegmentsNotAddingUp",
                   kFn + "  \"pto.tadd\"(%a, %a) <{operandSegmentSizes = array<i32: 2, 1>}> : (index, index) -> ()\n  return\n}\n",
                   "PARSE_BAD_ATTRIBUTE", "bad.pto:2:3"},
        BadGeneric{"UnclosedProperties", kFn + "  \"pto.tadd\"(%a) <{x = 1} : (index) -> ()\n  return\n}\n",
                   "PARSE_UNEXPECTED_TOKEN", "bad.pto:2:27"},
        BadGeneric{"DuplicateAcrossPropertiesAndAttributes",
                   kFn + "  \"pto.tprint\"(%a) <{x = 1}> {x = 2} : (index) -> ()\n  return\n}\n", "PARSE_DUPLICATE_ATTRIBUTE",
                   "bad.pto:2:31"},
        BadGeneric{"FunctionWithoutName", "\"func.func\"() <{function_type = () -> ()}> ({\n  \"func.return\"() : () -> ()\n}) : () -> ()\n",
                   "PARSE_BAD_ATTRIBUTE", "bad.pto:1:1"},
        BadGeneric{"FunctionTypeAgainstBlockArguments",
                   "\"func.func\"() <{function_type = (i32) -> (), sym_name = \"f\"}> ({\n^bb0(%x: index):\n"
                   "  \"func.return\"() : () -> ()\n}) : () -> ()\n",
                   "PARSE_BAD_TYPE", "bad.pto:1:64"},
        BadGeneric{"NestedFunction", kFn + "  \"func.func\"() : () -> ()\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:2:3"}),
    [](const auto& info) { return info.param.name; });

TEST(GenericFormErrors, ParsingResumesAfterABrokenGenericOperation)
{
    ParseResult r = parse_bad(kFn + "  %b = \"arith.addi\"(%a, %a) : (index) -> index\n  %c = \"arith.addi\"(%zz, %a) : (index, index) -> "
                                    "index\n  return\n}\n");
    ASSERT_EQ(r.diagnostics.size(), 2u) << diagnostics_text(r.diagnostics);
    EXPECT_EQ(r.diagnostics[1].code, "PARSE_UNDEFINED_VALUE");
    EXPECT_EQ(r.diagnostics[1].location, "bad.pto:3:21");
}

TEST(GenericFormErrors, UnknownQuotedNameIsTheVerifiersUnknownOp)
{
    ParseResult r = parse_clean(kFn + "  \"pto.tnosuch\"(%a) : (index) -> ()\n  return\n}\n", "bad.pto");
    std::vector<Diagnostic> found = verify(r.module, profile::Target::Cpu);
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found[0].code, "STRUCT_UNKNOWN_OP") << diagnostics_text(found);
    EXPECT_EQ(found[0].location, "bad.pto:2:3");
}

}  // namespace
}  // namespace pto::as
