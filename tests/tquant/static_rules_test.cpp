// The intrinsics stop illegal TQUANTs at compile time, each at the static_assert naming its rule: the
// compiler (CXX, or c++) compiles compile_fail/illegal_<target>.cpp for its target and must report
// exactly the broken rules, one per illegal call, and nothing about the legal one.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/compile_check.hpp"

namespace {

using namespace pto::test;

void expect_rules(const std::string& target, const std::vector<std::pair<std::string, int>>& rules)
{
    const auto compiled = compile_for_target(target, "tquant/compile_fail/illegal_" + target + ".cpp");
    if (!compiled) GTEST_SKIP() << "no C++ compiler to run";
    EXPECT_NE(compiled->status, 0);
    int errors = 0;
    for (const auto& [rule, n] : rules) {
        EXPECT_EQ(occurrences(compiled->output, "error: static assertion failed: " + rule + ":"), n) << rule << "\n" << compiled->output;
        errors += n;
    }
    EXPECT_EQ(occurrences(compiled->output, "error:"), errors) << compiled->output;
}

TEST(TquantStaticRules, OnA2A3MxAndTheFormWithoutTmpAndASmallTmpStop) { expect_rules("a2a3", {{"LEGAL_TQUANT_FORM", 2}, {"LEGAL_TQUANT_TMP", 1}}); }

TEST(TquantStaticRules, OnA5Mxfp4FromFloatDnRowsInterleavingAndTheZzFormStop)
{
    expect_rules("a5", {{"LEGAL_TQUANT_DTYPE", 1}, {"LEGAL_TQUANT_SHAPE", 2}, {"LEGAL_TQUANT_MODE", 1}, {"LEGAL_TQUANT_FORM", 1}});
}

}  // namespace
