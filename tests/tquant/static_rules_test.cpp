// The intrinsics stop illegal TQUANTs at compile time, each at the static_assert naming its rule: the
// compiler (CXX, or c++) compiles compile_fail/illegal_<target>.cpp for its target and must report
// exactly the broken rules, one per illegal call, and nothing about the legal one.
#include <gtest/gtest.h>

#include "support/compile_check.hpp"

namespace {

using namespace pto::test;

TEST(TquantStaticRules, OnA2A3MxAndTheFormWithoutTmpAndASmallTmpStop) { expect_static_rules("tquant", "a2a3", {{"LEGAL_TQUANT_FORM", 2}, {"LEGAL_TQUANT_TMP", 1}}); }

TEST(TquantStaticRules, OnA5Mxfp4FromFloatDnRowsInterleavingAndTheZzFormStop)
{
    expect_static_rules("tquant", "a5", {{"LEGAL_TQUANT_DTYPE", 1}, {"LEGAL_TQUANT_SHAPE", 2}, {"LEGAL_TQUANT_MODE", 1}, {"LEGAL_TQUANT_FORM", 1}});
}

}  // namespace
