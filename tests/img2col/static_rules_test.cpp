// The intrinsics stop illegal TIMG2COLs at compile time, each at the static_assert naming its rule: the
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
    const auto compiled = compile_for_target(target, "img2col/compile_fail/illegal_" + target + ".cpp");
    if (!compiled) GTEST_SKIP() << "no C++ compiler to run";
    EXPECT_NE(compiled->status, 0);
    int errors = 0;
    for (const auto& [rule, n] : rules) {
        EXPECT_EQ(occurrences(compiled->output, "error: static assertion failed: " + rule + ":"), n) << rule << "\n" << compiled->output;
        errors += n;
    }
    EXPECT_EQ(occurrences(compiled->output, "error:"), errors) << compiled->output;
}

TEST(Timg2colStaticRules, OnA2A3NzLeftVecTilesAndSixteenBitIntegersStop)
{
    expect_rules("a2a3", {{"LEGAL_TIMG2COL_LAYOUT", 2}, {"LEGAL_TIMG2COL_LOCATION", 1}, {"LEGAL_TIMG2COL_DTYPE", 1}});
}

}  // namespace
