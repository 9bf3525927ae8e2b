#include "asm/diagnostics.hpp"

namespace pto::as {

DiagnosticSink::DiagnosticSink(std::string file, std::size_t limit) : file_(std::move(file)), limit_(limit) {}

void DiagnosticSink::error(std::string_view code, SourceLocation loc, std::string what, std::string expected,
                           std::string actual, std::string instruction, std::string operand)
{
    if (saturated_) return;
    if (diagnostics_.size() >= limit_) {
        saturated_ = true;
        Diagnostic stop;
        stop.code = codes::kTooManyErrors;
        stop.message = "too many errors, giving up";
        stop.expected = "at most " + std::to_string(limit_) + " errors";
        stop.actual = "more";
        stop.location = format_location(file_, loc);
        diagnostics_.push_back(std::move(stop));
        return;
    }
    Diagnostic d;
    d.code = code;
    d.instruction = std::move(instruction);
    d.operand = std::move(operand);
    d.message = std::move(what);
    d.expected = std::move(expected);
    d.actual = std::move(actual);
    d.location = format_location(file_, loc);
    diagnostics_.push_back(std::move(d));
}

}  // namespace pto::as
