// Checked mode: poisoned fresh memory, reads of never-written tile bytes, and the bookkeeping of
// which bytes each instruction wrote.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <cstring>
#include <vector>

using namespace pto;
using namespace pto::test;

namespace {

class CheckedMode : public ::testing::Test {
protected:
    void SetUp() override { runtime::set_checked(true); }
    void TearDown() override { runtime::set_checked(false); }
};

using TileF = Tile<TileType::Vec, float, 8, 64>;
using GlobalF = GlobalTensor<float, Shape<1, 1, 1, 8, 64>, Stride<1, 1, 1, 64, 1>>;

}  // namespace

TEST_F(CheckedMode, FreshMemoryIsPoisoned)
{
    TileF t;
    TASSIGN(t, 0x400);
    uint32_t bits;
    std::memcpy(&bits, t.data(), 4);
    EXPECT_EQ(bits, 0xFFFFFFFFu);  // a NaN for every float type
    TileF automatic;
    std::memcpy(&bits, automatic.data() + 100, 4);
    EXPECT_EQ(bits, 0xFFFFFFFFu);
}

TEST(FastMode, FreshMemoryIsZero)
{
    runtime::set_checked(false);
    TileF t;
    TASSIGN(t, 0x400);
    EXPECT_EQ(t.data()[5], 0.0f);
}

TEST_F(CheckedMode, ReadOfNeverWrittenTileIsReported)
{
    TileF a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x800);
    TASSIGN(c, 0x1000);
    std::vector<float> host(8 * 64);
    for (size_t i = 0; i < host.size(); ++i) host[i] = 0.5f * float(i) - 3.0f;
    GlobalF g(host.data());
    TLOAD(a, g);
    const Diagnostic d = diagnostic_of([&] { TADD(c, a, b); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.instruction, "TADD");
    EXPECT_EQ(d.operand, "src1");
    EXPECT_NE(d.message.find("(0, 0)"), std::string::npos);
}

TEST_F(CheckedMode, PartiallyWrittenTileIsReportedAtTheFirstGap)
{
    TileF a, c;
    TASSIGN(a, 0x0);
    TASSIGN(c, 0x1000);
    for (int i = 0; i < 8 * 64; ++i) {
        if (i != 3 * 64 + 10) a.SetValue(i, 1.0f);
    }
    const Diagnostic d = diagnostic_of([&] { TADD(c, a, a); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_NE(d.message.find("(3, 10)"), std::string::npos) << d.message;
}

TEST_F(CheckedMode, WritesOfAnInstructionMakeItsOutputReadable)
{
    TileF a, c;
    TASSIGN(a, 0x0);
    TASSIGN(c, 0x1000);
    for (int i = 0; i < 8 * 64; ++i) a.SetValue(i, float(i));
    TADD(c, a, a);
    std::vector<float> out(8 * 64, -1.0f);
    GlobalF g(out.data());
    EXPECT_EQ(diagnostic_of([&] { TSTORE(g, c); }).code, "no error");
    EXPECT_EQ(out[7], 14.0f);
}

TEST_F(CheckedMode, OnlyTheValidRegionMustBeWritten)
{
    using Partial = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    Partial a(3, 20), c(3, 20);
    TASSIGN(a, 0x0);
    TASSIGN(c, 0x1000);
    for (int r = 0; r < 3; ++r) {
        for (int col = 0; col < 20; ++col) a.SetValue(r * 64 + col, 2.0f);
    }
    EXPECT_EQ(diagnostic_of([&] { TADD(c, a, a); }).code, "no error");
    a.SetValidShape(4, 20);
    c.SetValidShape(4, 20);
    EXPECT_EQ(diagnostic_of([&] { TADD(c, a, a); }).code, "RUN_UNINIT_READ");
}

TEST_F(CheckedMode, AliasedTileSeesTheWritesOfItsTwin)
{
    TileF a, alias, c;
    TASSIGN(a, 0x2000);
    TASSIGN(alias, 0x2000);
    TASSIGN(c, 0x4000);
    for (int i = 0; i < 8 * 64; ++i) a.SetValue(i, 1.0f);
    EXPECT_EQ(diagnostic_of([&] { TADD(c, alias, alias); }).code, "no error");
}
