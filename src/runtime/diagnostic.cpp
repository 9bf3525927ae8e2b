#include <pto/runtime/diagnostic.hpp>

#include "runtime/adversarial_schedule.hpp"
#include "runtime/order_checker.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>

namespace pto {

std::string Diagnostic::format(const char* severity) const
{
    std::string out;
    if (!location.empty()) out += location + ": ";
    out += std::string(severity) + "[" + code + "]: ";
    if (!instruction.empty()) out += instruction + (operand.empty() ? ": " : " ");
    if (!operand.empty()) out += operand + ": ";
    out += message;
    if (!expected.empty() || !actual.empty()) out += " \xE2\x80\x94 expected " + expected + ", got " + actual;
    return out;
}

SimError::SimError(Diagnostic d) : std::runtime_error(d.format()), diag_(std::move(d)) {}

namespace runtime {

namespace {
// A kernel binary that lets a SimError escape gets the diagnostic and exit status 1, not an abort.
[[noreturn]] void terminate_with_diagnostic()
{
    if (auto current = std::current_exception()) {
        try {
            std::rethrow_exception(current);
        } catch (const SimError& e) {
            std::fprintf(stderr, "ptosim: %s\n", e.what());
            std::fflush(stderr);
            std::_Exit(1);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ptosim: internal error: %s\n", e.what());
        } catch (...) {
        }
    }
    std::fflush(stderr);
    std::abort();
}

const bool kHandlerInstalled = (std::set_terminate(terminate_with_diagnostic), true);
}  // namespace

[[noreturn]] void fail(Diagnostic d)
{
    (void)kHandlerInstalled;
    if (d.instruction.empty()) {
        if (const char* instr = current_instruction()) d.instruction = instr;
    }
    throw SimError(std::move(d));
}

namespace {
std::mutex g_warnings_mutex;
std::vector<Diagnostic> g_warnings;
}  // namespace

void warn(Diagnostic d)
{
    if (d.instruction.empty()) {
        if (const char* instr = current_instruction()) d.instruction = instr;
    }
    std::lock_guard lock(g_warnings_mutex);
    const std::string text = d.format("warning");
    for (const Diagnostic& seen : g_warnings) {
        if (seen.format("warning") == text) return;
    }
    std::fprintf(stderr, "ptosim: %s\n", text.c_str());
    g_warnings.push_back(std::move(d));
}

const std::vector<Diagnostic>& warnings() { return g_warnings; }

void clear_warnings()
{
    std::lock_guard lock(g_warnings_mutex);
    g_warnings.clear();
}

}  // namespace runtime
}  // namespace pto

namespace pto::runtime {

namespace {
thread_local const char* t_instruction = nullptr;
}

const char* current_instruction() { return t_instruction; }

// The synchronisation check (checked mode) learns where each instruction begins and ends; it may fail
// on the previous one's accesses before this one starts.
InstructionScope::InstructionScope(const char* name) : previous_(t_instruction)
{
    // An instruction that is not held back observes memory: what the adversarial schedule holds runs first.
    if (!t_instruction) adversary::settle();
    order::instruction_begins(name);
    t_instruction = name;
}
InstructionScope::~InstructionScope()
{
    t_instruction = previous_;
    order::instruction_ends();
}

}  // namespace pto::runtime
