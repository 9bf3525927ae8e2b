// Where an instruction's operand-legality checks report. The checks take descriptors without data and
// the profile to check against; the engine runs them before executing (and stops at the first finding),
// the PTO-AS verifier runs them on descriptors built from types (and collects every finding).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

namespace pto::engine {

class LegalitySink {
public:
    virtual void report(Diagnostic finding) = 0;

protected:
    ~LegalitySink() = default;
};

// One finding of an operand check; the instruction is named by the caller's scope or the verifier.
inline void report(LegalitySink& sink, const char* code, const char* operand, std::string message, std::string expected,
                   std::string actual)
{
    sink.report({code, "", operand, std::move(message), std::move(expected), std::move(actual), ""});
}

// A valid region or capacity as findings print it: "16x64".
inline std::string extent_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

// The engine's sink: the first finding stops the run (runtime::fail).
class StopAtFirstFinding final : public LegalitySink {
public:
    void report(Diagnostic finding) override;
};

// Keeps the first finding only.
class FirstFinding final : public LegalitySink {
public:
    void report(Diagnostic finding) override
    {
        if (!found) first = std::move(finding), found = true;
    }
    Diagnostic first;
    bool found = false;
};

// Checked mode, cpu profile: when `check(profile, sink)`, which the cpu profile passed, fails on both
// real targets, warns WARN_CPU_ONLY naming the rule a5 breaks, so that a kernel meant for hardware learns it.
template <typename Check>
void warn_if_cpu_only(const profile::Profile& p, Check&& check)
{
    if (p.target != profile::Target::Cpu || !runtime::checked()) return;
    FirstFinding a2a3, a5;
    check(profile::kA2A3, a2a3);
    check(profile::kA5, a5);
    if (!a2a3.found || !a5.found) return;
    runtime::warn({"WARN_CPU_ONLY", "", a5.first.operand,
                   "accepted by the cpu profile only; a2a3 and a5 reject it (" + a5.first.code + ": " +
                       a5.first.message + ")",
                   a5.first.expected, a5.first.actual, ""});
}

// A valid extent, view extent or stride that only the run knows (a `?` of a PTO-AS type). A rule that
// reads one is skipped; the run checks it. Run-time descriptors never hold it.
inline constexpr int32_t kUnknownExtent = -1;

constexpr bool known(int64_t extent) { return extent != kUnknownExtent; }

template <typename... Extents>
constexpr bool all_known(Extents... extents)
{
    return (known(int64_t(extents)) && ...);
}

}  // namespace pto::engine
