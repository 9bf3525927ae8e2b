// Structured diagnostics: a stable code, where it happened, what was expected and what was found.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace pto {

struct Diagnostic {
    std::string code;         // stable, e.g. RUN_TASSIGN_RANGE
    std::string instruction;  // e.g. TLOAD; empty when not inside an instruction
    std::string operand;      // e.g. dst; may be empty
    std::string message;      // what is wrong
    std::string expected;     // may be empty
    std::string actual;       // may be empty
    std::string location;     // file:line:col when known

    // "location: error[CODE]: INSTR operand: message — expected X, got Y"
    std::string format(const char* severity = "error") const;  // severity replaces "error"
};

// Thrown by the runtime when a run finds an error. A kernel binary that does not catch it exits with
// status 1 after printing the formatted diagnostic (the runtime installs a terminate handler).
class SimError : public std::runtime_error {
public:
    explicit SimError(Diagnostic d);
    const Diagnostic& diagnostic() const { return diag_; }

private:
    Diagnostic diag_;
};

namespace runtime {
[[noreturn]] void fail(Diagnostic d);
// A finding that does not stop the run: printed once per distinct message to standard error as
// "ptosim: warning[CODE]: ..." and kept in warnings().
void warn(Diagnostic d);
const std::vector<Diagnostic>& warnings();
void clear_warnings();
// The instruction currently executing (for diagnostics raised below it); null outside one.
const char* current_instruction();

// Names the executing instruction for the diagnostics raised while it lives.
class InstructionScope {
public:
    explicit InstructionScope(const char* name);
    ~InstructionScope();
    InstructionScope(const InstructionScope&) = delete;
    InstructionScope& operator=(const InstructionScope&) = delete;

private:
    const char* previous_;
};
}  // namespace runtime

}  // namespace pto
