// Where an instruction's operand-legality checks report. The checks take descriptors without data and
// the profile to check against; the engine runs them before executing (and stops at the first finding),
// the PTO-AS verifier runs them on descriptors built from types (and collects every finding).
#pragma once

#include <cstdint>

#include <pto/runtime/diagnostic.hpp>

namespace pto::engine {

class LegalitySink {
public:
    virtual void report(Diagnostic finding) = 0;

protected:
    ~LegalitySink() = default;
};

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
