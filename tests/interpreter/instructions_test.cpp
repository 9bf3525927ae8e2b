// Every tile instruction through the interpreter, in each spelling (DPS, SSA, PTO assembly), checked
// against plain reference loops.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "asm/op_table.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to)
{
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    return s;
}

// A kernel skeleton over three 16x16 arrays: %a and %b are loaded into %ta / %tb, BODY computes
// into %tc (or defines %tc), which is stored to %c. T is the tile type, V the partition view type.
std::string kernel(const std::string& dtype, const std::string& body)
{
    std::string text = R"(func.func @k(%a: !pto.ptr<DT>, %b: !pto.ptr<DT>, %c: !pto.ptr<DT>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xDT>
  %bv = pto.make_tensor_view %b, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xDT>
  %cv = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xDT>
  %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xDT> -> V
  %bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xDT> -> V
  %cp = pto.partition_view %cv, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xDT> -> V
  %ta = pto.alloc_tile : T
  %tb = pto.alloc_tile : T
  pto.tload ins(%ap : V) outs(%ta : T)
  pto.tload ins(%bp : V) outs(%tb : T)
BODY
  pto.tstore ins(%tc : T) outs(%cp : V)
  return
})";
    text = replace_all(text, "BODY", body);
    text = replace_all(text, "T\n", "!pto.tile_buf<vec, 16x16xDT>\n");
    text = replace_all(text, ": T)", ": !pto.tile_buf<vec, 16x16xDT>)");
    text = replace_all(text, " V\n", " !pto.partition_tensor_view<16x16xDT>\n");
    text = replace_all(text, ": V)", ": !pto.partition_tensor_view<16x16xDT>)");
    return replace_all(text, "DT", dtype);
}

const std::string kT = "!pto.tile_buf<vec, 16x16xf32>";

// The three spellings of a binary element-wise instruction writing %tc.
std::vector<std::string> binary_spellings(const std::string& mnemonic)
{
    return {
        "  %tc = pto.alloc_tile : " + kT + "\n  pto." + mnemonic + " ins(%ta, %tb : " + kT + ", " + kT + ") outs(%tc : " + kT + ")",
        "  %tc = pto." + mnemonic + " %ta, %tb : (" + kT + ", " + kT + ") -> " + kT,
        "  %tc = pto.alloc_tile : " + kT + "\n  " + mnemonic + " %tc, %ta, %tb : (" + kT + ", " + kT + ", " + kT + ");",
    };
}

struct BinaryCase {
    std::string mnemonic;
    float (*ref)(float, float);
};

class Elementwise : public ::testing::TestWithParam<BinaryCase> {};

TEST_P(Elementwise, EverySpellingMatchesTheReference)
{
    const BinaryCase& c = GetParam();
    for (const std::string& body : binary_spellings(c.mnemonic)) {
        SCOPED_TRACE(body);
        const ParseResult parsed = parse_ok(kernel("f32", body));
        auto a = random_vector<float>(256, 3), b = random_vector<float>(256, 4, 1, 50);
        std::vector<float> out(256, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], c.ref(a[i], b[i])) << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Interpreter, Elementwise,
                         ::testing::Values(BinaryCase{"tadd", [](float x, float y) { return x + y; }},
                                           BinaryCase{"tsub", [](float x, float y) { return x - y; }},
                                           BinaryCase{"tmul", [](float x, float y) { return x * y; }},
                                           BinaryCase{"tdiv", [](float x, float y) { return x / y; }}),
                         [](const auto& info) { return info.param.mnemonic; });

TEST(Instructions, TloadTstoreTmovEverySpelling)
{
    const std::vector<std::string> bodies = {
        // DPS TMOV, then the stored tile is the moved copy.
        "  %tc = pto.alloc_tile : " + kT + "\n  pto.tmov ins(%ta : " + kT + ") outs(%tc : " + kT + ")",
        // SSA TLOAD and TMOV.
        "  %l = pto.tload %ap : !pto.partition_tensor_view<16x16xf32> -> " + kT + "\n  %tc = pto.tmov %l : " + kT + " -> " + kT,
        // Assembly TLOAD and TMOV.
        "  %tc = pto.alloc_tile : " + kT + "\n  %l = pto.alloc_tile : " + kT + "\n  tload %l, %ap : (" + kT +
            ", !pto.partition_tensor_view<16x16xf32>)\n  tmov %tc, %l : (" + kT + ", " + kT + ")",
    };
    for (const std::string& body : bodies) {
        SCOPED_TRACE(body);
        const ParseResult parsed = parse_ok(kernel("f32", body));
        auto a = random_vector<float>(256, 5), b = random_vector<float>(256, 6);
        std::vector<float> out(256, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        EXPECT_EQ(out, a);
    }
    // Assembly TSTORE: destination view first.
    std::string text = kernel("f32", "  %tc = pto.alloc_tile : " + kT + "\n  tadd %tc, %ta, %tb : (" + kT + ", " + kT + ", " + kT + ")");
    text = replace_all(text, "pto.tstore ins(%tc : " + kT + ") outs(%cp : !pto.partition_tensor_view<16x16xf32>)",
                       "tstore %cp, %tc : (!pto.partition_tensor_view<16x16xf32>, " + kT + ")");
    const ParseResult parsed = parse_ok(text);
    auto a = random_vector<float>(256, 7), b = random_vector<float>(256, 8);
    std::vector<float> out(256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], a[i] + b[i]);
}

TEST(Instructions, TcolexpandEverySpelling)
{
    const std::vector<std::string> bodies = {
        "  %tc = pto.alloc_tile : " + kT + "\n  pto.tcolexpand ins(%ta : " + kT + ") outs(%tc : " + kT + ")",
        "  %tc = pto.tcolexpand %ta : " + kT + " -> " + kT,
        "  %tc = pto.alloc_tile : " + kT + "\n  tcolexpand %tc, %ta : (" + kT + ", " + kT + ")",
    };
    for (const std::string& body : bodies) {
        SCOPED_TRACE(body);
        const ParseResult parsed = parse_ok(kernel("f32", body));
        auto a = random_vector<float>(256, 9), b = random_vector<float>(256, 10);
        std::vector<float> out(256, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], a[i % 16]) << i;
    }
}

TEST(Instructions, TgatherIndexAndMaskForms)
{
    // Index form: indices come in %b as i32 (reversed order); the DPS form has a tmp tile.
    const std::string Ti = "!pto.tile_buf<vec, 16x16xi32>";
    const std::vector<std::string> bodies = {
        "  %tmp = pto.alloc_tile : " + Ti + "\n  %tc = pto.alloc_tile : " + Ti + "\n  pto.tgather ins(%ta, %tb, %tmp : " + Ti + ", " + Ti + ", " + Ti +
            ") outs(%tc : " + Ti + ")",
        "  %tc = pto.tgather %ta, %tb : (" + Ti + ", " + Ti + ") -> " + Ti,
        "  %tc = pto.alloc_tile : " + Ti + "\n  tgather %tc, %ta, %tb : (" + Ti + ", " + Ti + ", " + Ti + ")",
    };
    for (const std::string& body : bodies) {
        SCOPED_TRACE(body);
        const ParseResult parsed = parse_ok(replace_all(kernel("i32", body), "!pto.tile_buf<vec, 16x16xi32>", Ti));
        std::vector<int32_t> a(256), idx(256), out(256, 0);
        std::iota(a.begin(), a.end(), 1000);
        for (int i = 0; i < 256; ++i) idx[std::size_t(i)] = (i * 37) % 256;
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", idx), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t i = 0; i < 256; ++i) ASSERT_EQ(out[i], a[std::size_t(idx[i])]) << i;
    }
    // Mask form (P0101 keeps even columns), DPS and SSA. Each row of dst takes the kept elements in order.
    const std::string Th = "!pto.tile_buf<vec, 16x8xf32>";
    for (const std::string& body : {"  %tc = pto.alloc_tile : " + Th + "\n  pto.tgather ins(%ta, {maskPattern = #pto.mask_pattern<P0101>} : " + kT + ") outs(%tc : " + Th + ")",
                                    "  %tc = pto.tgather %ta {maskPattern = #pto.mask_pattern<P0101>} : " + kT + " -> " + Th}) {
        SCOPED_TRACE(body);
        std::string text = kernel("f32", body);
        text = replace_all(text, "pto.tstore ins(%tc : " + kT + ") outs(%cp : !pto.partition_tensor_view<16x16xf32>)",
                           "%cq = pto.partition_view %cv, offsets = [%c0, %c0], sizes = [%c16, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x8xf32>\n"
                           "  pto.tstore ins(%tc : " + Th + ") outs(%cq : !pto.partition_tensor_view<16x8xf32>)");
        text = replace_all(text, "%c16 = arith.constant 16 : index", "%c16 = arith.constant 16 : index\n  %c8 = arith.constant 8 : index");
        text = replace_all(text, "shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n  %ap",
                           "shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n  %ap");
        const ParseResult parsed = parse_ok(text);
        auto a = random_vector<float>(256, 11), b = random_vector<float>(256, 12);
        std::vector<float> out(256, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        // The output view has row stride 16: row r of dst lands at out[r*16 .. r*16+8).
        for (std::size_t row = 0; row < 16; ++row)
            for (std::size_t col = 0; col < 8; ++col) ASSERT_EQ(out[row * 16 + col], a[row * 16 + 2 * col]) << row << "," << col;
    }
}

TEST(Instructions, OpTableCoversTheEngineTable)
{
    // The two front doors cannot drift apart: every engine instruction has a text spelling that the
    // interpreter dispatches, and the interpreter dispatches nothing else. TASSIGN is `pto.tassign`
    // and also `pto.alloc_tile addr = %offset`.
    std::vector<engine::Instr> got = interpreter_instructions();
    std::vector<std::string_view> names;
    for (engine::Instr i : got) names.push_back(engine::instr_name(i));
    std::sort(names.begin(), names.end());
    std::vector<std::string_view> want(engine::kInstrNames.begin(), engine::kInstrNames.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(names, want);
    for (std::string_view n : engine::kInstrNames) {
        std::string op = "pto.";
        for (char ch : n) op += char(std::tolower(static_cast<unsigned char>(ch)));
        const OpInfo* info = find_op(op);
        ASSERT_NE(info, nullptr) << op;
        ASSERT_NE(info->instruction, nullptr) << op;
        EXPECT_EQ(info->instruction->mnemonic, n);
    }
}

TEST(Instructions, ThreeOperandAndFusedForms)
{
    // The kinds that read dst or take a scalar between two tiles, each in DPS form, against the formula.
    const std::string s = "  %s = arith.constant 0.5 : f32\n";
    const std::vector<std::pair<std::string, std::function<float(float, float, float)>>> cases = {
        {"  pto.taddc ins(%ta, %tb, %ta : " + kT + ", " + kT + ", " + kT + ") outs(%tc : " + kT + ")",
         [](float a, float b, float) { return (a + b) + a; }},
        {"  pto.tsubsc ins(%ta, %s, %tb : " + kT + ", f32, " + kT + ") outs(%tc : " + kT + ")",
         [](float a, float b, float) { return (a - 0.5f) + b; }},
        {"  pto.tmuladddst ins(%ta, %tb : " + kT + ", " + kT + ") outs(%tc : " + kT + ")",
         [](float a, float b, float c) { return a * b + c; }},
        {"  pto.tfusedmuladd ins(%ta, %tb : " + kT + ", " + kT + ") outs(%tc : " + kT + ")",
         [](float a, float b, float c) { return a * c + b; }},
        {"  pto.taxpy ins(%ta, %s : " + kT + ", f32) outs(%tc : " + kT + ")",
         [](float a, float, float c) { return a * 0.5f + c; }},
        {"  pto.texpands ins(%s : f32) outs(%tc : " + kT + ")", [](float, float, float) { return 0.5f; }},
    };
    for (const auto& [body, formula] : cases) {
        SCOPED_TRACE(body);
        // %tc starts as a copy of %tb, so the instructions that read dst read known values.
        const ParseResult parsed = parse_ok(kernel("f32", s + "  %tc = pto.alloc_tile : " + kT + "\n  pto.tmov ins(%tb : " + kT +
                                                               ") outs(%tc : " + kT + ")\n" + body));
        auto a = random_vector<float>(256, 71), b = random_vector<float>(256, 72);
        std::vector<float> out(256, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t i = 0; i < 256; ++i) ASSERT_EQ(out[i], formula(a[i], b[i], b[i])) << i;
    }
}

TEST(Instructions, EveryDefinitionStandsAtItsInstruction)
{
    // The definitions table and the instruction list agree, and every definition is complete.
    const auto definitions = engine::instruction_definitions();
    ASSERT_EQ(definitions.size(), engine::kInstrNames.size());
    for (std::size_t i = 0; i < definitions.size(); ++i) {
        const engine::InstrDef& def = *definitions[i];
        EXPECT_EQ(std::size_t(def.id), i);
        EXPECT_EQ(def.mnemonic, engine::kInstrNames[i]);
        EXPECT_FALSE(def.forms.empty()) << def.mnemonic;
        EXPECT_TRUE(def.pipe && def.check && def.run) << def.mnemonic;
        for (const engine::AttributeSpec& a : def.attributes) EXPECT_FALSE(a.keys.empty()) << def.mnemonic;
        for (const engine::Alias& alias : def.aliases) EXPECT_LT(alias.attribute, def.attributes.size()) << def.mnemonic;
    }
}

TEST(Instructions, TassignPlacesATileAtAnOffset)
{
    // Two tiles TASSIGNed to one UB offset alias: a load into one is visible through the other.
    const std::string body = "  %off = arith.constant 4096 : i64\n  %tc = pto.alloc_tile addr = %off : " + kT +
                             "\n  %td = pto.alloc_tile : " + kT + "\n  pto.tassign ins(%off : i64) outs(%td : " + kT + ")\n" +
                             "  pto.tmov ins(%ta : " + kT + ") outs(%td : " + kT + ")";
    const ParseResult parsed = parse_ok(kernel("f32", body));
    auto a = random_vector<float>(256, 13), b = random_vector<float>(256, 14);
    std::vector<float> out(256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    EXPECT_EQ(out, a);
}

TEST(Instructions, EngineDiagnosticsCarryTheOpLocation)
{
    // An index past the source's capacity: the engine's RUN_GATHER_INDEX, located at the tgather.
    const std::string Ti = "!pto.tile_buf<vec, 16x16xi32>";
    const ParseResult parsed = parse_ok(kernel("i32", "  %tc = pto.tgather %ta, %tb : (" + Ti + ", " + Ti + ") -> " + Ti));
    std::vector<int32_t> a(256), idx(256, 3), out(256);
    idx[17] = 1000;
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", idx), array_arg("c", out)}, checked_run());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].code, "RUN_GATHER_INDEX");
    EXPECT_EQ(r.diagnostics[0].location, "test.pto:15:9") << r.diagnostics[0].format();
}

TEST(Instructions, ViewsOutsideTheirArrayAreReported)
{
    const ParseResult parsed = parse_ok(kernel("f32", "  %tc = pto.tadd %ta, %tb : (" + kT + ", " + kT + ") -> " + kT));
    std::vector<float> a(100), b(256), out(256);
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].code, "RUN_VIEW_BOUNDS");
    EXPECT_EQ(r.diagnostics[0].location, "test.pto:5:9") << r.diagnostics[0].format();
}

}  // namespace
}  // namespace pto::as::testing

namespace pto::as::testing {
namespace {

TEST(TileViews, SubsetOfWholeRowsAndTreshape)
{
    // Rows 8..15 of %ta through a subset, reshaped from 8x16 to 16x8 (same bytes), copied with TMOV into a
    // 16x8 tile and stored to the first 128 elements of %c as a 16x8 view.
    const std::string H = "!pto.tile_buf<vec, 8x16xf32>", R = "!pto.tile_buf<vec, 16x8xf32>";
    std::string body = "  %c8 = arith.constant 8 : index\n  %half = pto.subset %ta[%c8, %c0] sizes [8, 16] : " + kT + "\n" +
                       "  %r = pto.treshape %half : " + H + " -> " + R + "\n  %m = pto.alloc_tile : " + R + "\n" +
                       "  pto.tmov ins(%r : " + R + ") outs(%m : " + R + ")\n" +
                       "  %cq = pto.make_tensor_view %c, shape = [%c16, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n" +
                       "  pto.tstore ins(%m : " + R + ") outs(%cq : !pto.tensor_view<?x?xf32>)\n  %tc = pto.alloc_tile : " + kT +
                       "\n  pto.tmov ins(%tb : " + kT + ") outs(%tc : " + kT + ")";
    std::string text = kernel("f32", body);
    // The kernel's final store would overwrite %c: store %tc into %b's view instead.
    text = replace_all(text, "outs(%cp : !pto.partition_tensor_view<16x16xf32>)", "outs(%bp : !pto.partition_tensor_view<16x16xf32>)");
    const ParseResult parsed = parse_ok(text);
    auto a = random_vector<float>(256, 61), b = random_vector<float>(256, 62);
    std::vector<float> out(256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t i = 0; i < 128; ++i) ASSERT_EQ(out[i], a[128 + i]) << i;
}

TEST(TileViews, SetValidshapeOutsideTheTileIsReported)
{
    const std::string D = "!pto.tile_buf<vec, 16x16xf32, valid=?x?>";
    const ParseResult parsed = parse_ok("func.func @f(%r: index) {\n  %c4 = arith.constant 4 : index\n  %t = pto.alloc_tile : " + D +
                                        "\n  pto.set_validshape %t, %r, %c4 : " + D + "\n  return\n}");
    EXPECT_TRUE(run(parsed.module, {scalar_arg("r", 16)}, checked_run()).ok());
    const RunResult r = run(parsed.module, {scalar_arg("r", 17)}, checked_run());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].code, "RUN_VALID_SHAPE");
    EXPECT_EQ(r.diagnostics[0].location, "test.pto:4:3");
}

}  // namespace
}  // namespace pto::as::testing
