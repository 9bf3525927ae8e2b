// Entry point of the PTO-AS front end: text in, Module and diagnostics out.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include <pto/runtime/diagnostic.hpp>

#include "asm/ir.hpp"

namespace pto::as {

// Bounds that keep hostile input from exhausting the stack or memory.
struct ParseOptions {
    std::size_t max_errors = 50;                 // then one PARSE_TOO_MANY_ERRORS and stop
    unsigned max_nesting = 256;                  // regions, attributes and types together; PARSE_TOO_DEEP
    std::size_t max_input_bytes = 64u << 20;     // PARSE_INPUT_TOO_LARGE
    unsigned max_result_group = 4096;            // largest N in `%r:N = ...`
};

struct ParseResult {
    Module module;                      // everything that parsed; partial when there were errors
    std::vector<Diagnostic> diagnostics;
    bool ok() const { return diagnostics.empty(); }
};

// Parses PTO-AS text. Never throws on malformed input: each problem becomes a PARSE_* diagnostic
// at its file:line:col, and parsing resumes at the next statement so that one run reports several.
//
// Names follow MLIR's scoping: a value is visible after its definition in its region and in the
// regions nested there, and may not be redefined while visible. PTO-AS blocks are straight-line,
// so there are no forward references: a use before the definition is PARSE_UNDEFINED_VALUE.
ParseResult parse(std::string_view text, std::string_view filename, const ParseOptions& options = {});

}  // namespace pto::as
