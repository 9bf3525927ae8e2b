// Randomized robustness: mutate the corpus programs (delete, duplicate, overwrite bytes) and parse
// the result. Nothing may crash; a failed parse must say why with well-formed PARSE_* diagnostics;
// a mutant that still parses must round-trip through every form like any other program.
#include <random>

#include "asm_test_support.hpp"

namespace pto::as {
namespace {

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
        for (Form form : {Form::Preserve, Form::Asm, Form::SSA, Form::DPS, Form::Generic}) {
            std::string printed = print(result.module, form);
            ParseResult again = parse(printed, "printed.pto");
            ASSERT_TRUE(again.ok()) << "iteration " << i << "\n" << diagnostics_text(again.diagnostics) << "input:\n"
                                    << source << "\nprinted:\n" << printed;
            auto difference = first_difference(result.module, again.module, form == Form::Preserve);
            ASSERT_FALSE(difference) << "iteration " << i << ": " << *difference << "\ninput:\n" << source;
        }
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

}  // namespace
}  // namespace pto::as
