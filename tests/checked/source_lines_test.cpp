// Findings of the run-time synchronisation check name the C++ kernel's lines: this file is compiled
// with line tables (tests/CMakeLists.txt), as a kernel author's debug build would be.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;

namespace {

constexpr int kRows = 16, kCols = 64;
using TileF = Tile<TileType::Vec, float, kRows, kCols>;
using GlobalF = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;

std::string at_line(int line) { return "source_lines_test.cpp:" + std::to_string(line); }

// The kernels' lines, as the kernels record them.
int load_line = 0, add_line = 0, set_line = 0;

// Kernels whose intrinsics are inlined into them (flatten), so that each engine call returns into the
// kernel's own line whatever the optimisation level.
[[gnu::flatten]] void missing_sync_kernel(float* in)
{
    TileF a, c;
    TASSIGN(a, 0x0);
    TASSIGN(c, 0x4000);
    GlobalF gin(in);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);  // the block synchronises explicitly
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    load_line = __LINE__ + 1;
    TLOAD(a, gin);
    add_line = __LINE__ + 1;
    TADD(c, a, a);
}

[[gnu::flatten]] void unwaited_set_kernel(float* in)
{
    TileF a, c;
    TASSIGN(a, 0x0);
    TASSIGN(c, 0x4000);
    GlobalF gin(in);
    TLOAD(a, gin);
    set_line = __LINE__ + 1;
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    TADD(c, a, a);
}

}  // namespace

TEST(OrderCheck, AMissingSyncNamesTheKernelLinesOfBothInstructions)
{
    ScopedChecked checked;
    std::vector<float> in = random_floats(kRows * kCols, 3);
    const Diagnostic d = diagnostic_of([&] { sim::launch(1, missing_sync_kernel, in.data()); });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_TRUE(mentions(d, "which TLOAD (instruction 3 of block 0) at " + at_line(load_line) + " wrote on pipe MTE2")) << d.format();
    EXPECT_EQ(d.location, at_line(add_line)) << d.format();
}

TEST(OrderCheck, ASetWithoutItsWaitNamesTheKernelLineOfTheSet)
{
    ScopedChecked checked;
    std::vector<float> in = random_floats(kRows * kCols, 5);
    const Diagnostic d = diagnostic_of([&] { sim::launch(1, unwaited_set_kernel, in.data()); });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_TRUE(mentions(d, "by set_flag (instruction 2 of block 0) at " + at_line(set_line) + " without its wait_flag")) << d.format();
}
