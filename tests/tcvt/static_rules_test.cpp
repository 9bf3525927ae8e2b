// The intrinsics stop illegal TCVTs at compile time, each at the static_assert naming its rule: the
// compiler (CXX, or c++) compiles compile_fail/illegal_calls.cpp for a2a3 and must report exactly the
// four broken rules, one per illegal call, and nothing about the legal one.
#include <gtest/gtest.h>

#include "support/compile_check.hpp"

using namespace pto::test;

TEST(TcvtStaticRules, EachIllegalCallStopsAtItsRulesStaticAssert)
{
    const auto compiled = compile_for_target("a2a3", "tcvt/compile_fail/illegal_calls.cpp");
    if (!compiled) GTEST_SKIP() << "no C++ compiler to run";
    EXPECT_NE(compiled->status, 0);
    for (const char* rule : {"LEGAL_TCVT_PAIR:", "LEGAL_TCVT_LOCATION:", "LEGAL_TCVT_LAYOUT:", "RUN_VALID_SHAPE:"}) {
        EXPECT_EQ(occurrences(compiled->output, rule), 1) << rule << "\n" << compiled->output;
    }
    EXPECT_EQ(occurrences(compiled->output, "error:"), 4) << compiled->output;
}
