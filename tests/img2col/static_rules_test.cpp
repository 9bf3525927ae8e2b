// The intrinsics stop illegal TIMG2COLs at compile time, each at the static_assert naming its rule: the
// compiler (CXX, or c++) compiles compile_fail/illegal_<target>.cpp for its target and must report
// exactly the broken rules, one per illegal call, and nothing about the legal one.
#include <gtest/gtest.h>

#include "support/compile_check.hpp"

namespace {

using namespace pto::test;

TEST(Timg2colStaticRules, OnA2A3NzLeftVecTilesAndSixteenBitIntegersStop)
{
    expect_static_rules("img2col", "a2a3", {{"LEGAL_TIMG2COL_LAYOUT", 2}, {"LEGAL_TIMG2COL_LOCATION", 1}, {"LEGAL_TIMG2COL_DTYPE", 1}});
}

}  // namespace
