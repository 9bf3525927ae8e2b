// Runs PTO-AS programs: an entry function of a module, with its pointer arguments bound to host
// arrays and its scalar arguments to numbers. Every tile instruction goes through the engine entry
// point the C++ intrinsic calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pto/engine/dtype.hpp>
#include <pto/engine/instructions.hpp>
#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/schedule.hpp>

#include "asm/ir.hpp"

namespace pto::as {

namespace interp {
class Program;
}

// One argument of the entry function, by name (without '%').
struct ArgumentBinding {
    std::string name;
    // A pointer argument: the host array it points to, registered for bounds checks during the run.
    std::byte* data = nullptr;
    std::size_t bytes = 0;
    std::optional<engine::DType> dtype;  // when known, checked against the pointer's element type
    // A scalar argument.
    std::optional<double> scalar;
};

// A run sets the runtime's target and checked mode for the process (runtime::set_target/set_checked).
struct RunOptions {
    std::string entry;  // empty: the function marked `pto.entry`, else the only or first function
    profile::Target target = profile::Target::Cpu;
    bool checked = false;
    runtime::Schedule schedule = runtime::Schedule::Program;  // pto/runtime/schedule.hpp
    uint32_t blocks = 1;  // blocks of the launch; get_block_idx tells them apart
};

struct RunResult {
    std::vector<Diagnostic> diagnostics;
    std::vector<double> results;  // the entry's scalar results (block 0's in a multi-block launch)
    bool ok() const { return diagnostics.empty(); }
};

// A module lowered once, runnable many times.
class Interpreter {
public:
    // Lowering failures (an operation the interpreter cannot run) are kept and returned by every run.
    explicit Interpreter(const Module& module);
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    RunResult run(const std::vector<ArgumentBinding>& args, const RunOptions& options = {}) const;

    // The function `entry` names (or the default entry), or null.
    const Function* entry_function(std::string_view entry) const;
    // The arguments a run of `entry` binds by name: its own, and those of the peer a kernel split over
    // a cube and a vector function runs with (a name both have once).
    std::vector<const Value*> arguments(const Function& entry) const;

private:
    const Module& module_;
    std::unique_ptr<interp::Program> program_;
    std::vector<Diagnostic> lowering_errors_;
};

// Lowers and runs in one call.
RunResult run(const Module& module, const std::vector<ArgumentBinding>& args, const RunOptions& options = {});

// Run-time diagnostic codes about the arguments of a run.
namespace codes {
inline constexpr std::string_view kUnknownEntry = "RUN_UNKNOWN_ENTRY";
inline constexpr std::string_view kArgUnknown = "RUN_ARG_UNKNOWN";
inline constexpr std::string_view kArgMissing = "RUN_ARG_MISSING";
inline constexpr std::string_view kArgKind = "RUN_ARG_KIND";
inline constexpr std::string_view kArgDType = "RUN_ARG_DTYPE";
}  // namespace codes

// Every engine instruction the interpreter dispatches to (the op table's instructions).
std::vector<engine::Instr> interpreter_instructions();

}  // namespace pto::as
