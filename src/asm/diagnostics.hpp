// The PARSE_* diagnostic codes of the PTO-AS front end and the sink that collects them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <pto/runtime/diagnostic.hpp>

#include "asm/source_location.hpp"

namespace pto::as {

// Stable codes: tools and tests match on them, so they never change meaning.
namespace codes {
inline constexpr std::string_view kUnexpectedCharacter = "PARSE_UNEXPECTED_CHARACTER";
inline constexpr std::string_view kUnterminatedString = "PARSE_UNTERMINATED_STRING";
inline constexpr std::string_view kBadEscape = "PARSE_BAD_ESCAPE";
inline constexpr std::string_view kUnbalancedBrackets = "PARSE_UNBALANCED_BRACKETS";
inline constexpr std::string_view kBadNumber = "PARSE_BAD_NUMBER";
inline constexpr std::string_view kUnexpectedToken = "PARSE_UNEXPECTED_TOKEN";
inline constexpr std::string_view kUnknownType = "PARSE_UNKNOWN_TYPE";
inline constexpr std::string_view kBadType = "PARSE_BAD_TYPE";
inline constexpr std::string_view kUnknownAttribute = "PARSE_UNKNOWN_ATTRIBUTE";
inline constexpr std::string_view kBadAttribute = "PARSE_BAD_ATTRIBUTE";
inline constexpr std::string_view kDuplicateAttribute = "PARSE_DUPLICATE_ATTRIBUTE";
inline constexpr std::string_view kUndefinedValue = "PARSE_UNDEFINED_VALUE";
inline constexpr std::string_view kDuplicateValue = "PARSE_DUPLICATE_VALUE";
inline constexpr std::string_view kDuplicateSymbol = "PARSE_DUPLICATE_SYMBOL";
inline constexpr std::string_view kDuplicateBlock = "PARSE_DUPLICATE_BLOCK";
inline constexpr std::string_view kResultCount = "PARSE_RESULT_COUNT";
inline constexpr std::string_view kTypeCount = "PARSE_TYPE_COUNT";
inline constexpr std::string_view kResultType = "PARSE_RESULT_TYPE";
inline constexpr std::string_view kUnknownMnemonic = "PARSE_UNKNOWN_OP";
inline constexpr std::string_view kTooDeep = "PARSE_TOO_DEEP";
inline constexpr std::string_view kTooManyErrors = "PARSE_TOO_MANY_ERRORS";
inline constexpr std::string_view kInputTooLarge = "PARSE_INPUT_TOO_LARGE";
}  // namespace codes

// Collects diagnostics for one source buffer. Past `limit` errors it records a single
// PARSE_TOO_MANY_ERRORS and drops the rest, which bounds memory on hostile input.
class DiagnosticSink {
public:
    explicit DiagnosticSink(std::string file, std::size_t limit = 50);

    // Records "file:line:col: error[code]: [instruction [operand]: ]what — expected X, got Y".
    void error(std::string_view code, SourceLocation loc, std::string what, std::string expected = {},
               std::string actual = {}, std::string instruction = {}, std::string operand = {});

    bool saturated() const { return saturated_; }
    bool empty() const { return diagnostics_.empty(); }
    std::size_t count() const { return diagnostics_.size(); }
    const std::string& file() const { return file_; }
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    std::vector<Diagnostic> take() { return std::move(diagnostics_); }

private:
    std::string file_;
    std::size_t limit_;
    bool saturated_ = false;
    std::vector<Diagnostic> diagnostics_;
};

}  // namespace pto::as
