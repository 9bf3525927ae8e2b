// Running a PTO-AS program in a test: parsed and verified for a target (the test fails on any finding),
// then run on host buffers (support/asm_arguments.hpp binds them).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <pto/runtime/memory.hpp>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"

namespace pto::test {

inline as::RunResult run_verified(const std::string& program, const std::string& file, std::vector<as::ArgumentBinding> args,
                                  profile::Target target = profile::Target::A5)
{
    const as::ParseResult parsed = as::parse(program, file);
    EXPECT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = parsed.ok() ? as::verify(parsed.module, target) : std::vector<Diagnostic>{};
    EXPECT_TRUE(found.empty()) << (found.empty() ? "" : found[0].format());
    if (!parsed.ok() || !found.empty()) return {{parsed.ok() ? found[0] : parsed.diagnostics[0]}, {}};
    return as::run(parsed.module, std::move(args), {});
}

// The codes the verifier reports for `program` on target `t` (the test fails if it does not parse).
inline std::vector<std::string> verifier_codes(const std::string& program, const std::string& file, profile::Target t)
{
    const as::ParseResult parsed = as::parse(program, file);
    EXPECT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    std::vector<std::string> codes;
    if (parsed.ok())
        for (const auto& d : as::verify(parsed.module, t)) codes.push_back(d.code);
    return codes;
}

// The first diagnostic of a run, formatted, or nothing.
inline std::string first_diagnostic(const as::RunResult& r) { return r.diagnostics.empty() ? std::string() : r.diagnostics[0].format(); }

// What a program does on `target`, each diagnostic as "CODE@file:line:col": the verifier's findings
// (a parse failure is the one finding), and when there are none the first diagnostic of a run there
// ("" when it runs clean).
struct TextVerdict {
    std::vector<std::string> verified;
    std::string ran;
};

inline TextVerdict verdict_on(profile::Target target, const std::string& program, const std::string& file,
                              std::vector<as::ArgumentBinding> args = {})
{
    const auto place = [](const Diagnostic& d) { return d.code + "@" + d.location; };
    const as::ParseResult parsed = as::parse(program, file);
    if (!parsed.ok()) return {{place(parsed.diagnostics[0])}, ""};
    TextVerdict v;
    for (const Diagnostic& d : as::verify(parsed.module, target)) v.verified.push_back(place(d));
    if (!v.verified.empty()) return v;
    runtime::set_target(target);
    as::RunOptions options;
    options.target = target;
    const as::RunResult r = as::run(parsed.module, std::move(args), options);
    runtime::set_target(profile::Target::Cpu);
    v.ran = r.ok() ? "" : place(r.diagnostics[0]);
    return v;
}

}  // namespace pto::test
