// Where an instruction's operand-legality checks report. The checks take descriptors without data and
// the profile to check against; the engine runs them before executing (and stops at the first finding),
// the PTO-AS verifier runs them on descriptors built from types (and collects every finding).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <pto/runtime/diagnostic.hpp>

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
