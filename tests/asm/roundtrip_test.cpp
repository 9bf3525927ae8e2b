// text -> IR -> text -> IR over the corpus in tests/asm/programs and examples/pto, for every output form.
#include <tuple>

#include "asm_test_support.hpp"

namespace pto::as {
namespace {

using testing::corpus;
using testing::corpus_and_examples;
using testing::diagnostics_text;
using testing::parse_clean;
using testing::program_directory;
using testing::read_text;

std::string form_name(Form form)
{
    switch (form) {
        case Form::Preserve: return "Preserve";
        case Form::Asm: return "Asm";
        case Form::SSA: return "SSA";
        case Form::DPS: return "DPS";
        case Form::Generic: return "Generic";
    }
    return "?";
}

std::string print_and_check(const Module& module, Form form)
{
    std::string text = print(module, form);
    ParseResult again = parse(text, "printed.pto");
    EXPECT_TRUE(again.ok()) << diagnostics_text(again.diagnostics) << "printed:\n" << text;
    return text;
}

class CorpusRoundTrip : public ::testing::TestWithParam<std::tuple<std::filesystem::path, Form>> {};

TEST_P(CorpusRoundTrip, ParsePrintParseGivesEqualIR)
{
    const auto& [path, form] = GetParam();
    std::string source = read_text(path);
    ParseResult original = parse_clean(source, path.filename().string());
    ASSERT_TRUE(original.ok());

    std::string printed = print_and_check(original.module, form);
    ParseResult reparsed = parse(printed, "printed.pto");
    ASSERT_TRUE(reparsed.ok());
    if (form == Form::Preserve) {
        auto difference = first_difference(original.module, reparsed.module, /*exact=*/true);
        EXPECT_FALSE(difference) << *difference << "\nprinted:\n" << printed;
    } else {
        auto difference = first_difference(original.module, reparsed.module, /*exact=*/false);
        EXPECT_FALSE(difference) << *difference << "\nprinted:\n" << printed;
    }

    // The printed text is a fixed point: printing the re-parsed module changes nothing and
    // parses to exactly the same IR, spelling included.
    std::string second = print(reparsed.module, form);
    EXPECT_EQ(second, printed);
    ParseResult third = parse(second, "second.pto");
    EXPECT_TRUE(reparsed.module == third.module);
}

INSTANTIATE_TEST_SUITE_P(Programs, CorpusRoundTrip,
                         ::testing::Combine(::testing::ValuesIn(corpus_and_examples()),
                                            ::testing::Values(Form::Preserve, Form::Asm, Form::SSA, Form::DPS,
                                                              Form::Generic)),
                         [](const auto& info) {
                             const std::filesystem::path& path = std::get<0>(info.param);
                             std::string origin = path.parent_path().filename() == "pto" ? "example_" : "";
                             return origin + path.stem().string() + "_" + form_name(std::get<1>(info.param));
                         });

TEST(Corpus, CoversTheRequiredPrograms)
{
    for (std::string name : {"vector_add_asm", "vector_add_ssa", "vector_add_dps", "multi_tile_loop", "if_else",
                             "while_loop", "call", "sync", "tgather", "tsort32", "mgather", "sections"})
        EXPECT_TRUE(std::filesystem::exists(program_directory() / (name + ".pto"))) << name;
}

TEST(Corpus, PreservePrintsEveryProgramAsWritten)
{
    // Operation for operation, the preserved text keeps each instruction's spelling.
    std::string asm_text = print(parse_clean(read_text(program_directory() / "vector_add_asm.pto")).module);
    EXPECT_NE(asm_text.find("    tadd %c_tile, %a_tile, %b_tile : ("), std::string::npos) << asm_text;
    EXPECT_NE(asm_text.find("    %b_tile = tload %b_part : "), std::string::npos) << asm_text;
    std::string dps_text = print(parse_clean(read_text(program_directory() / "vector_add_dps.pto")).module);
    EXPECT_NE(dps_text.find("pto.tadd ins(%a_tile, %b_tile : !vec_tile, !vec_tile) outs(%c_tile : !vec_tile)"),
              std::string::npos)
        << dps_text;
}

class VectorAddForms : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorAddForms, EveryTileInstructionTakesTheRequestedSpelling)
{
    Module m = parse_clean(read_text(program_directory() / (GetParam() + ".pto"))).module;
    std::string dps = print(m, Form::DPS);
    EXPECT_NE(dps.find("pto.tstore ins(%"), std::string::npos) << dps;
    EXPECT_NE(dps.find(") outs(%c_part : !pto.partition_tensor_view<1x1024xf32>)"), std::string::npos) << dps;
    EXPECT_EQ(dps.find(" tadd "), std::string::npos) << dps;

    std::string ssa = print(m, Form::SSA);
    EXPECT_EQ(ssa.find("ins("), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("pto.tstore %"), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("!pto.partition_tensor_view<1x1024xf32>) -> ()"), std::string::npos) << ssa;

    std::string assembly = print(m, Form::Asm);
    EXPECT_EQ(assembly.find("pto.tadd"), std::string::npos) << assembly;
    EXPECT_EQ(assembly.find("pto.tload"), std::string::npos) << assembly;
    EXPECT_NE(assembly.find("tstore %c_part, %"), std::string::npos) << assembly;  // destination first
    // Views and buffers keep their one spelling in every form.
    EXPECT_NE(assembly.find("pto.make_tensor_view %a, shape = [%c1, %c1024], strides = [%c1024, %c1]"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Programs, VectorAddForms, ::testing::Values("vector_add_asm", "vector_add_ssa", "vector_add_dps"));

TEST(RoundTrip, ChainsOfFormsStayEquivalent)
{
    for (const auto& path : corpus_and_examples()) {
        Module original = parse_clean(read_text(path), path.filename().string()).module;
        Module current = parse(print(original, Form::Asm), "a.pto").module;
        for (Form next : {Form::Generic, Form::DPS, Form::SSA, Form::Generic, Form::Asm, Form::Preserve, Form::DPS}) {
            ParseResult step = parse(print(current, next), "step.pto");
            ASSERT_TRUE(step.ok()) << path << diagnostics_text(step.diagnostics);
            current = std::move(step.module);
        }
        auto difference = first_difference(original, current, /*exact=*/false);
        EXPECT_FALSE(difference) << path << ": " << *difference;
    }
}

TEST(RoundTrip, DestinationsMoveBetweenSpellings)
{
    std::string tile = "!pto.tile_buf<vec, 8x8xf32>";
    Module m = parse_clean("func.func @f(%a: " + tile + ", %b: " + tile + ", %k: f32) {\n  pto.tgather ins(%a, %k : " + tile +
                           ", f32) outs(%a, %b : " + tile + ", " + tile + ")\n  pto.tprint ins(%a : " + tile + ")\n  return\n}\n")
                   .module;
    std::string ssa = print(m, Form::SSA);
    EXPECT_NE(ssa.find("pto.tgather %a, %k, %a, %b {operandSegmentSizes = array<i32: 2, 2>}"), std::string::npos) << ssa;
    EXPECT_NE(ssa.find("pto.tprint %a {operandSegmentSizes = array<i32: 1, 0>}"), std::string::npos) << ssa;
    std::string assembly = print(m, Form::Asm);
    EXPECT_NE(assembly.find("tgather %a, %b, %a, %k {operandSegmentSizes = array<i32: 2, 2>} : (" + tile + ", " + tile +
                            ", " + tile + ", f32)"),
              std::string::npos)
        << assembly;
    for (Form form : {Form::SSA, Form::Asm, Form::DPS}) {
        Module back = parse_clean(print(m, form)).module;
        EXPECT_TRUE(equivalent(m, back)) << *first_difference(m, back, false);
    }
}

TEST(RoundTrip, OperationsThatCannotChangeSpellingKeepTheirOwn)
{
    // Keyword operand groups have no DPS spelling; a partial type list cannot be reordered for
    // PTO assembly. Both stay as written and still round-trip.
    std::string tile = "!pto.tile_buf<vec, 8x8xf32>";
    Module m = parse_clean("func.func @f(%a: " + tile + ", %n: index) {\n  pto.tfancy %a, size = [%n, 4]\n  pto.tadd %a, %a, %a : (" +
                           tile + ") -> ()\n  return\n}\n")
                   .module;
    std::string dps = print(m, Form::DPS);
    EXPECT_NE(dps.find("pto.tfancy %a, size = [%n, 4]"), std::string::npos) << dps;
    std::string assembly = print(m, Form::Asm);
    EXPECT_NE(assembly.find("pto.tadd %a, %a, %a : (" + tile + ") -> ()"), std::string::npos) << assembly;
    for (Form form : {Form::SSA, Form::Asm, Form::DPS}) EXPECT_TRUE(equivalent(m, parse_clean(print(m, form)).module));
}

TEST(RoundTrip, LeadingTokensBeforeAKeywordGroupPrintWithACommaThatParses)
{
    // Found by the fuzzer: `"ROUND_R"ets = [...]` parsed, and printed back as `"ROUND_R", ets = [...]`,
    // which did not.
    for (const char* written : {"\"ROUND_R\"ets = [%a, %a]", "\"ROUND_R\", ets = [%a, %a]"}) {
        Module m = parse_clean(std::string("func.func @f(%a: index) {\n  pto.tfancy ") + written + "\n  return\n}\n").module;
        for (Form form : {Form::Preserve, Form::SSA, Form::Asm, Form::DPS, Form::Generic})
            EXPECT_TRUE(equivalent(m, parse_clean(print_and_check(m, form)).module)) << written << " as " << form_name(form);
    }
}

TEST(RoundTrip, AnUnknownOperationKeepsItsPrefixInAssembly)
{
    // Found by the fuzzer: `pto.strict_vecet_block_idx` before `%num = ...` printed bare in PTO assembly,
    // where an unknown operation followed by an undefined value reads as a register form naming %num its
    // destination (PARSE_UNKNOWN_OP). A known one loses its prefix as before.
    Module m = parse_clean("func.func @f() {\n  pto.strict_vecet_block_idx\n  %num = pto.get_block_num\n  pto.pipe_barrier(PIPE_ALL)\n"
                           "  return\n}\n")
                   .module;
    for (Form form : {Form::Preserve, Form::SSA, Form::Asm, Form::DPS, Form::Generic})
        EXPECT_TRUE(equivalent(m, parse_clean(print_and_check(m, form)).module)) << form_name(form);
    const std::string assembly = print(m, Form::Asm);
    EXPECT_NE(assembly.find("  pto.strict_vecet_block_idx\n"), std::string::npos) << assembly;
    EXPECT_NE(assembly.find("  pipe_barrier(PIPE_ALL)\n"), std::string::npos) << assembly;
}

TEST(RoundTrip, ImmediateOffsetsPrintBackAsWritten)
{
    // pto.pldi / pto.psti: an integer literal offset stays a literal (with the type written for it) in
    // every form, a constant stays an operand; without a distribution token too, which keeps the
    // operation out of the generic spelling.
    Module m = parse_clean("func.func @f(%p: !pto.ptr<i64, ub>, %k: i32) {\n  pto.vecscope {\n"
                           "    %m = pto.pldi %p, 7, \"DS\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n"
                           "    %n = pto.pldi %p, -0 : !pto.ptr<i64, ub>, index -> !pto.mask<G>\n"
                           "    pto.psti %m, %p, 12, \"NORM\" : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n"
                           "    pto.psti %n, %p, %k : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n  }\n  return\n}\n")
                   .module;
    for (Form form : {Form::Preserve, Form::SSA, Form::Asm, Form::DPS, Form::Generic}) {
        const std::string text = print_and_check(m, form);
        const std::string prefix = form == Form::Asm ? "" : "pto.";
        // (PTO assembly puts the operand types in parentheses.)
        EXPECT_NE(text.find(prefix + "pldi %p, 7, \"DS\" : "), std::string::npos) << text;
        EXPECT_NE(text.find(prefix + "pldi %p, 0 : "), std::string::npos) << text;
        EXPECT_NE(text.find("!pto.ptr<i64, ub>, index"), std::string::npos) << text;
        EXPECT_NE(text.find(prefix + "psti %m, %p, 12, \"NORM\" : "), std::string::npos) << text;
        EXPECT_TRUE(equivalent(m, parse_clean(text).module)) << form_name(form);
    }
}

}  // namespace
}  // namespace pto::as
