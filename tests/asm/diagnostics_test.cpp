// Malformed input: each problem is one PARSE_* diagnostic at its exact file:line:col, parsing
// resumes after it, and no input crashes or exhausts the stack.
#include "asm_test_support.hpp"

namespace pto::as {
namespace {

using testing::body_of;
using testing::codes_of;
using testing::diagnostics_text;
using testing::in_function;

// "bad.pto:L:C" of the first occurrence of `needle` in `text` (1-based, bytes).
std::string location_of(std::string_view text, std::string_view needle, std::size_t occurrence = 0)
{
    std::size_t at = text.find(needle);
    for (; occurrence > 0 && at != std::string_view::npos; --occurrence) at = text.find(needle, at + 1);
    if (at == std::string_view::npos) return "<not found>";
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "bad.pto:" + std::to_string(line) + ":" + std::to_string(column);
}

ParseResult parse_bad(std::string_view text) { return parse(text, "bad.pto"); }

TEST(Diagnostics, UndefinedValueHasExactLocationAndFormat)
{
    std::string text = "module {\n  func.func @k(%a: i32) {\n    %x = arith.addi %a, %missing : i32\n    return\n  }\n}\n";
    ParseResult r = parse_bad(text);
    ASSERT_EQ(r.diagnostics.size(), 1u) << diagnostics_text(r.diagnostics);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.code, "PARSE_UNDEFINED_VALUE");
    EXPECT_EQ(d.location, "bad.pto:3:25");
    EXPECT_EQ(d.instruction, "arith.addi");
    EXPECT_EQ(d.format(),
              "bad.pto:3:25: error[PARSE_UNDEFINED_VALUE]: arith.addi: use of undefined value %missing \xE2\x80\x94 "
              "expected a value defined earlier in an enclosing scope, got `%missing`");
}

TEST(Diagnostics, UnexpectedTokenNamesWhatWasExpected)
{
    std::string text = "func.func @k(%t: !pto.tile_buf<vec, 8x8xf32>) {\n  pto.tadd ins(%t, %t : !pto.tile_buf<vec, "
                       "8x8xf32>, !pto.tile_buf<vec, 8x8xf32> outs(%t)\n  return\n}\n";
    ParseResult r = parse_bad(text);
    ASSERT_EQ(r.diagnostics.size(), 1u) << diagnostics_text(r.diagnostics);
    EXPECT_EQ(r.diagnostics[0].code, "PARSE_UNEXPECTED_TOKEN");
    EXPECT_EQ(r.diagnostics[0].location, location_of(text, "outs"));
    EXPECT_EQ(r.diagnostics[0].expected, "')' closing ins");
    EXPECT_EQ(r.diagnostics[0].actual, "`outs`");
}

TEST(Diagnostics, SeveralErrorsInOneRunAndParsingResumes)
{
    std::string text = R"(module {
  func.func @k(%a: i32, %p: !pto.ptr<f32>) {
    %x = arith.addi %a, %nope : i32
    %y = arith.constant 99999999999999999999 : i64
    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf33>
    %s = arith.constant "never closed
    %ok = arith.addi %a, %a : i32
    %z = arith.muli %ok, %x : i32
    %v = pto.make_tensor_view %p, shape = [%a], strides = [%a] : !pto.tensor_view<?xf32>
    return
  }
}
)";
    ParseResult r = parse_bad(text);
    EXPECT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_UNDEFINED_VALUE", "PARSE_BAD_NUMBER", "PARSE_UNKNOWN_TYPE",
                                                     "PARSE_UNTERMINATED_STRING"}))
        << diagnostics_text(r.diagnostics);
    ASSERT_EQ(r.diagnostics.size(), 4u);
    EXPECT_EQ(r.diagnostics[0].location, location_of(text, "%nope"));
    EXPECT_EQ(r.diagnostics[1].location, location_of(text, "99999"));
    EXPECT_EQ(r.diagnostics[2].location, location_of(text, "f33"));
    EXPECT_EQ(r.diagnostics[3].location, location_of(text, "\"never"));
    // %x failed, so its use on line 8 is not reported again; the good statements are all there.
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 3u);
    EXPECT_EQ(ops[0]->results[0]->name, "ok");
    EXPECT_EQ(ops[1]->name, "pto.make_tensor_view");
    EXPECT_EQ(ops[2]->name, "func.return");
}

TEST(Diagnostics, ErrorsInSeveralFunctions)
{
    std::string text = "func.func @a() {\n  %x = arith.addi %u, %u : i32\n  return\n}\n"
                       "func.func @b() {\n  %y = arith.constant 1 : f33\n  return\n}\n"
                       "func.func @c() {\n  return\n}\n";
    ParseResult r = parse_bad(text);
    EXPECT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_UNDEFINED_VALUE", "PARSE_UNKNOWN_TYPE"}));
    EXPECT_EQ(r.module.functions.size(), 3u);
}

TEST(Diagnostics, UseBeforeDefinitionIsAnUndefinedValue)
{
    ParseResult r = parse_bad(in_function("  %a = arith.addi %b, %b : i32\n  %b = arith.constant 1 : i32"));
    ASSERT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_UNDEFINED_VALUE"}));
    EXPECT_EQ(r.diagnostics[0].location, "bad.pto:2:19");
}

TEST(Diagnostics, ValuesDoNotEscapeTheirRegion)
{
    std::string text = in_function("  scf.if %c {\n    %inner = arith.constant 1 : i32\n  }\n  %x = arith.addi %inner, %inner : i32",
                                   "%c: i1");
    ParseResult r = parse_bad(text);
    ASSERT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_UNDEFINED_VALUE"}));
    EXPECT_EQ(r.diagnostics[0].location, location_of(text, "%inner", 1));
}

TEST(Diagnostics, RedefinitionAndShadowing)
{
    std::string text = in_function("  %a = arith.constant 1 : i32\n  %a = arith.constant 2 : i32\n  scf.if %c {\n"
                                   "    %c = arith.constant 3 : i32\n  }",
                                   "%c: i1");
    ParseResult r = parse_bad(text);
    EXPECT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_DUPLICATE_VALUE", "PARSE_DUPLICATE_VALUE"}));
    EXPECT_EQ(r.diagnostics[0].location, location_of(text, "%a", 1));
    EXPECT_NE(r.diagnostics[0].actual.find("already defined at 2:3"), std::string::npos) << r.diagnostics[0].actual;
    EXPECT_EQ(r.diagnostics[1].location, location_of(text, "%c = "));
}

TEST(Diagnostics, ResultCounts)
{
    std::string text = in_function("  %a, %b = arith.constant 1 : i32\n  %x = arith.addi %c, %c : (i32, i32) -> (i32, i32)\n"
                                   "  %y = scf.if %f -> (i32, i32) {\n    scf.yield %c, %c : i32, i32\n  }\n"
                                   "  %z = scf.for %i = %n to %n step %n iter_args(%v = %c) -> (i32, i32) {\n"
                                   "    scf.yield %v : i32\n  }",
                                   "%c: i32, %f: i1, %n: index");
    ParseResult r = parse_bad(text);
    EXPECT_EQ(codes_of(r), (std::vector<std::string>(4, "PARSE_RESULT_COUNT"))) << diagnostics_text(r.diagnostics);
    ASSERT_EQ(r.diagnostics.size(), 4u);
    EXPECT_EQ(r.diagnostics[0].expected, "1 result name");
    EXPECT_EQ(r.diagnostics[0].actual, "2");
}

TEST(Diagnostics, DuplicateSymbolsBlocksAndAttributes)
{
    std::string text = "!t = i32\n!t = f32\nfunc.func @f() {\n  return\n}\nfunc.func @f() {\n  scf.execute_region {\n"
                       "  }\n  return\n}\n";
    ParseResult r = parse_bad(text);
    ASSERT_GE(r.diagnostics.size(), 2u);
    EXPECT_EQ(r.diagnostics[0].code, "PARSE_DUPLICATE_SYMBOL");
    EXPECT_EQ(r.diagnostics[0].location, "bad.pto:2:1");
    EXPECT_EQ(r.diagnostics[1].code, "PARSE_DUPLICATE_SYMBOL");
    EXPECT_EQ(r.diagnostics[1].location, "bad.pto:6:11");

    ParseResult blocks = parse_bad("func.func @f() {\n  pto.section.cube {\n  ^bb0:\n    return\n  ^bb0:\n    return\n  }\n  return\n}\n");
    EXPECT_EQ(codes_of(blocks), (std::vector<std::string>{"PARSE_DUPLICATE_BLOCK"}));
    EXPECT_EQ(blocks.diagnostics[0].location, "bad.pto:5:3");

    ParseResult attrs = parse_bad(in_function("  pto.tfoo {a = 1, b = 2, a = 3}"));
    EXPECT_EQ(codes_of(attrs), (std::vector<std::string>{"PARSE_DUPLICATE_ATTRIBUTE"}));
    EXPECT_EQ(attrs.diagnostics[0].location, "bad.pto:2:27");
}

TEST(Diagnostics, MalformedSegmentSizes)
{
    ParseResult r = parse_bad(in_function("  pto.tadd %a, %a, %a {operandSegmentSizes = array<i32: 1, 1>}", "%a: i32"));
    ASSERT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_BAD_ATTRIBUTE"}));
    EXPECT_EQ(r.diagnostics[0].location, "bad.pto:2:3");
}

TEST(Diagnostics, StructuralMistakes)
{
    struct Case {
        std::string text;
        std::string code;
        std::string location;
    };
    std::vector<Case> cases = {
        {"func.func @f() {\n  %r#1 = arith.constant 1 : i32\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:2:3"},
        {"func.func @f() {\n  func.func @g() {\n  }\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:2:3"},
        {"func.func @f() {\n  \"func.func\"() : () -> ()\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:2:3"},
        {"func.func @f(%a: i32) {\n^bb0(%b: i32):\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:2:5"},
        {"func.func @f() {\n  return\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:3:1"},
        {"garbage here\nfunc.func @f() {\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:1:1"},
        {"func.func @f(%a: i32) {\n  %b = arith.addi %a, %a : i32 junk\n  return\n}\n", "PARSE_UNEXPECTED_TOKEN",
         "bad.pto:2:32"},
        {"module {\n}\nmodule {\n}\n", "PARSE_UNEXPECTED_TOKEN", "bad.pto:3:1"},
        {"func.func @f() {\n  %x:0 = pto.tfoo\n  return\n}\n", "PARSE_BAD_NUMBER", "bad.pto:2:6"},
        {"func.func @f() {\n  %x = arith.constant #nothing\n  return\n}\n", "PARSE_UNKNOWN_ATTRIBUTE", "bad.pto:2:23"},
    };
    for (const Case& c : cases) {
        ParseResult r = parse_bad(c.text);
        ASSERT_FALSE(r.diagnostics.empty()) << c.text;
        EXPECT_EQ(r.diagnostics[0].code, c.code) << c.text << diagnostics_text(r.diagnostics);
        EXPECT_EQ(r.diagnostics[0].location, c.location) << c.text << diagnostics_text(r.diagnostics);
    }
}

TEST(Diagnostics, LexerErrorsAreReportedOnce)
{
    ParseResult r = parse_bad(in_function("  %s = arith.constant \"bad \\q escape\"\n  %t = arith.constant 1 : i32 $"));
    EXPECT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_BAD_ESCAPE", "PARSE_UNEXPECTED_CHARACTER"}))
        << diagnostics_text(r.diagnostics);
}

TEST(Diagnostics, RecoveryDoesNotSpillABrokenLoopBodyIntoItsBlock)
{
    std::string text = in_function("  scf.for %i = %n to %n step {\n    %a = arith.constant 1 : i32\n  }\n"
                                   "  %b = arith.constant 2 : i32",
                                   "%n: index");
    ParseResult r = parse_bad(text);
    EXPECT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_UNEXPECTED_TOKEN"}));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0]->results[0]->name, "b");
}

TEST(Limits, DeepAttributeNestingStopsCleanly)
{
    std::string text = in_function("  %x = arith.constant " + std::string(100000, '[') + std::string(100000, ']'));
    ParseResult r = parse_bad(text);
    ASSERT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_TOO_DEEP"}));
}

TEST(Limits, DeepRegionNestingStopsCleanly)
{
    std::string text = "func.func @f(%c: i1) {\n";
    for (int i = 0; i < 5000; ++i) text += "scf.if %c {\n";
    for (int i = 0; i < 5000; ++i) text += "}\n";
    text += "return\n}\n";
    ParseResult r = parse_bad(text);
    ASSERT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_TOO_DEEP"}));
}

TEST(Limits, DeepTypeNestingStopsCleanly)
{
    std::string type;
    for (int i = 0; i < 5000; ++i) type += "!pto.ptr<";
    type += "f32" + std::string(5000, '>');
    ParseResult r = parse_bad("func.func @f(%p: " + type + ") {\n  return\n}\n");
    ASSERT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_TOO_DEEP"}));
}

TEST(Limits, NestingJustBelowTheLimitIsFine)
{
    std::string text = "func.func @f(%c: i1) {\n";
    for (int i = 0; i < 100; ++i) text += "scf.if %c {\n";
    for (int i = 0; i < 100; ++i) text += "}\n";
    text += "return\n}\n";
    EXPECT_TRUE(parse_bad(text).ok());
}

TEST(Limits, TooManyErrors)
{
    std::string body;
    for (int i = 0; i < 100; ++i) {
        std::string n = std::to_string(i);
        body += "  %x" + n + " = arith.addi %u" + n + ", %u" + n + " : i32\n";  // each undefined name reports once
    }
    ParseOptions options;
    options.max_errors = 5;
    ParseResult r = parse(in_function(body), "bad.pto", options);
    ASSERT_EQ(r.diagnostics.size(), 6u);
    EXPECT_EQ(r.diagnostics.back().code, "PARSE_TOO_MANY_ERRORS");
}

TEST(Limits, InputTooLarge)
{
    ParseOptions options;
    options.max_input_bytes = 16;
    ParseResult r = parse(in_function(""), "bad.pto", options);
    ASSERT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_INPUT_TOO_LARGE"}));
    EXPECT_EQ(r.diagnostics[0].location, "bad.pto:1:1");
}

TEST(Limits, HugeResultGroupsAreRefused)
{
    ParseResult r = parse_bad(in_function("  %r:4000000000 = pto.tfoo"));
    EXPECT_EQ(codes_of(r), (std::vector<std::string>{"PARSE_BAD_NUMBER"}));
}

}  // namespace
}  // namespace pto::as
