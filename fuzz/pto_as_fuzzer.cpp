// libFuzzer target for the PTO-AS front end: arbitrary bytes through the parser, the verifier on
// every profile, and the printer. Nothing may crash, hang or grow without bound; a module that
// parses must also survive a round trip: printed as written it parses back to an equal module, printed
// in each other form to an equivalent one, and in every form the module read back prints the same text.
// The interpreter is never run on fuzz input (a program may loop for as long as it likes).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "asm/parser.hpp"
#include "asm/printer.hpp"
#include "asm/verifier.hpp"

namespace {

using namespace pto::as;

[[noreturn]] void round_trip_failure(Form form, std::string_view what, const std::string& printed, std::string_view detail)
{
    static constexpr const char* kFormNames[] = {"preserve", "asm", "ssa", "dps", "generic"};
    std::fprintf(stderr, "pto_as_fuzzer: round trip broken (--form %s): %.*s\n%.*s\n--- printed text ---\n%s\n",
                 kFormNames[static_cast<int>(form)], static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data(), printed.c_str());
    std::abort();
}

// Location, code and message of each diagnostic.
std::string diagnostics_text(const ParseResult& result)
{
    std::string text;
    for (const pto::Diagnostic& d : result.diagnostics) text += d.location + ": " + d.code + ": " + d.message + "\n";
    return text;
}

void check_round_trip(const Module& module)
{
    for (Form form : {Form::Preserve, Form::Asm, Form::SSA, Form::DPS, Form::Generic}) {
        const bool exact = form == Form::Preserve;
        const std::string printed = print(module, form);
        const ParseResult again = parse(printed, "printed.pto");
        if (!again.ok()) round_trip_failure(form, "the printed text does not parse", printed, diagnostics_text(again));
        if (auto difference = first_difference(module, again.module, exact))
            round_trip_failure(form, "the printed text parses to a different module", printed, *difference);
        if (print(again.module, form) != printed)
            round_trip_failure(form, "the reparsed module prints differently", printed, "");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ParseResult parsed = parse(text, "fuzz.pto");
    if (!parsed.ok()) {
        // What did parse, printed as any tool might print it; it need not parse back.
        (void)print(parsed.module, Form::Preserve);
        return 0;
    }
    for (pto::profile::Target target : {pto::profile::Target::Cpu, pto::profile::Target::A2A3, pto::profile::Target::A5})
        (void)verify(parsed.module, target);
    check_round_trip(parsed.module);
    return 0;
}
