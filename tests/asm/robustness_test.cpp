// Randomized robustness: mutate the corpus programs (delete, duplicate, overwrite bytes) and parse
// the result. Nothing may crash; a failed parse must say why with well-formed PARSE_* diagnostics;
// a mutant that still parses must round-trip through every form like any other program.
#include <random>

#include "asm/verifier.hpp"
#include "asm_test_support.hpp"

namespace pto::as {
namespace {

using testing::body_of;
using testing::corpus;
using testing::diagnostics_text;
using testing::read_text;

std::string mutate(std::string text, std::mt19937& rng)
{
    static constexpr std::string_view kSyntax = "%{}()<>[],:=x?\"#!@^-0.;/\\\n ";
    int mutations = 1 + static_cast<int>(rng() % 3);
    for (int m = 0; m < mutations && !text.empty(); ++m) {
        std::size_t at = rng() % text.size();
        switch (rng() % 4) {
            case 0: text.erase(at, 1 + rng() % 4); break;
            case 1: text.insert(at, text.substr(at, 1 + rng() % 12)); break;
            case 2: text[at] = static_cast<char>(rng() % 256); break;
            default: text[at] = kSyntax[rng() % kSyntax.size()]; break;
        }
    }
    return text;
}

bool well_formed(const Diagnostic& d)
{
    // "mutant.pto:<line>:<col>"
    std::string_view loc = d.location;
    std::string_view prefix = "mutant.pto:";
    if (loc.substr(0, prefix.size()) != prefix) return false;
    loc.remove_prefix(prefix.size());
    std::size_t colon = loc.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 >= loc.size()) return false;
    return d.code.rfind("PARSE_", 0) == 0 && !d.message.empty() && !d.expected.empty() && !d.actual.empty();
}

// Every form prints text that parses back to the same module (exactly, for the preserved form),
// which prints the same text again.
void expect_round_trip(const Module& module, const std::string& source)
{
    for (Form form : {Form::Preserve, Form::Asm, Form::SSA, Form::DPS, Form::Generic}) {
        std::string printed = print(module, form);
        ParseResult again = parse(printed, "printed.pto");
        ASSERT_TRUE(again.ok()) << diagnostics_text(again.diagnostics) << "input:\n" << source << "\nprinted:\n" << printed;
        auto difference = first_difference(module, again.module, form == Form::Preserve);
        ASSERT_FALSE(difference) << *difference << "\ninput:\n" << source;
        ASSERT_EQ(print(again.module, form), printed) << "input:\n" << source;
    }
}

TEST(Robustness, MutatedCorpusNeverCrashesAndAlwaysExplains)
{
    std::vector<std::string> programs;
    for (const auto& path : corpus()) programs.push_back(read_text(path));
    ASSERT_FALSE(programs.empty());

    constexpr int kIterations = 2000;
    std::mt19937 rng(20240611);
    int parsed = 0;
    for (int i = 0; i < kIterations; ++i) {
        std::string source = mutate(programs[rng() % programs.size()], rng);
        ParseResult result = parse(source, "mutant.pto");
        if (!result.ok()) {
            for (const Diagnostic& d : result.diagnostics)
                ASSERT_TRUE(well_formed(d)) << "iteration " << i << ": " << d.format() << "\ninput:\n" << source;
            continue;
        }
        ++parsed;
        SCOPED_TRACE("iteration " + std::to_string(i));
        expect_round_trip(result.module, source);
        if (::testing::Test::HasFatalFailure()) return;
    }
    // Some mutants (in comments, names, numbers) stay valid and exercised the round trip.
    EXPECT_GT(parsed, kIterations / 50);
}

TEST(Robustness, RandomBytesNeverCrash)
{
    std::mt19937 rng(7);
    for (int i = 0; i < 500; ++i) {
        std::string noise(rng() % 200, '\0');
        for (char& c : noise) c = static_cast<char>(rng() % 256);
        ParseResult result = parse(noise, "mutant.pto");
        for (const Diagnostic& d : result.diagnostics) ASSERT_TRUE(well_formed(d)) << d.format();
    }
}

TEST(Robustness, TruncatedProgramsReportAndStop)
{
    for (const auto& path : corpus()) {
        std::string text = read_text(path);
        for (std::size_t cut = 0; cut < text.size(); cut += 97) {
            ParseResult result = parse(std::string_view(text).substr(0, cut), "mutant.pto");
            for (const Diagnostic& d : result.diagnostics) ASSERT_TRUE(well_formed(d)) << d.format();
        }
    }
}

// Inputs the fuzzer (fuzz/pto_as_fuzzer.cpp) once crashed on: each must now parse or explain, and
// what parses must verify on every profile and round-trip. (Their memory errors show under the
// sanitizers of scripts/fuzz.sh, which seeds its corpus with them; the tests below pin each fix.)
TEST(Robustness, FuzzRegressionsParseOrExplain)
{
    const auto directory = testing::program_directory().parent_path() / "fuzz_regressions";
    int inputs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        SCOPED_TRACE(entry.path().filename().string());
        ++inputs;
        const std::string source = read_text(entry.path());
        ParseResult result = parse(source, "mutant.pto");
        for (const Diagnostic& d : result.diagnostics) ASSERT_TRUE(well_formed(d)) << d.format();
        if (!result.ok()) continue;
        for (profile::Target target : {profile::Target::Cpu, profile::Target::A2A3, profile::Target::A5})
            (void)verify(result.module, target);
        expect_round_trip(result.module, source);
    }
    EXPECT_GT(inputs, 0);
}

// A name poisoned by an error (here %v, whose definition failed) and then defined inside a region
// belongs to that region: after the region closes it is still the poisoned name, not the inner
// value. (The outer scope used to take the inner value over, and kept pointing at it after a failed
// enclosing operation freed it.)
TEST(Robustness, PoisonedNameDefinedInARegionStaysInIt)
{
    ParseResult result = parse(testing::in_function(R"(
  %c0 = arith.constant 0 : index
  %v = arith.addi %missing, %c0 : index
  scf.if %flag {
    %v = arith.constant 1 : index
  }
  %w = arith.addi %v, %v : index)", "%flag: i1"), "mutant.pto");
    ASSERT_FALSE(result.ok());
    for (const auto& op : body_of(result.module))
        EXPECT_FALSE(op->result(0) && op->result(0)->name == "w") << "%w used the value defined inside scf.if";
}

// An operation that is not a tile instruction but was written with ins/outs keeps that spelling in
// every form: printed positionally it lost its destinations, and read back as a different module.
TEST(Robustness, NonInstructionWithOutsKeepsThemInEveryForm)
{
    const std::string source = testing::in_function(R"(
  arith.divf outs(%t : !pto.tile_buf<vec, 16x16xf32>)
  %y = arith.negf ins(%x : f32) outs(%t : !pto.tile_buf<vec, 16x16xf32>) -> f32)", "%t: !pto.tile_buf<vec, 16x16xf32>, %x: f32");
    ParseResult result = testing::parse_clean(source);
    ASSERT_TRUE(result.ok());
    expect_round_trip(result.module, source);
}

// A section written without its dialect prefix prints as written: the printer used to add `pto.`,
// so the preserved form read back with another spelling.
TEST(Robustness, SectionWithoutDialectPrefixPrintsAsWritten)
{
    const std::string source = testing::in_function("  section.vector {\n  }");
    ParseResult result = testing::parse_clean(source);
    ASSERT_TRUE(result.ok());
    EXPECT_NE(print(result.module, Form::Preserve).find("  section.vector {"), std::string::npos) << print(result.module);
    expect_round_trip(result.module, source);
}

}  // namespace
}  // namespace pto::as
