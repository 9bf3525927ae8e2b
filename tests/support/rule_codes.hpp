// The first rule an engine check reports, for the tests of each instruction's LEGAL_* / RUN_* codes.
#pragma once

#include <pto/engine/legality.hpp>
#include <pto/profile/profile.hpp>

#include <string>

namespace pto::test {

// The code of the first finding `check(sink)` reports, or "none".
template <typename Check>
std::string first_code(Check&& check)
{
    engine::FirstFinding finding;
    check(finding);
    return finding.found ? finding.first.code : std::string("none");
}

// The same for a check run on target `t`'s profile: `check(profile, sink)`.
template <typename Check>
std::string first_code_on(profile::Target t, Check&& check)
{
    return first_code([&](engine::LegalitySink& sink) { check(profile::profile_of(t), sink); });
}

}  // namespace pto::test
