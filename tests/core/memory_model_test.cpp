// The memory model: TASSIGN into per-core memories sized by the profile, aliasing, automatic storage.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <cstring>

using namespace pto;

namespace {

template <typename F>
std::string code_of(F&& f)
{
    return test::diagnostic_of(f).code;
}

using VecF = Tile<TileType::Vec, float, 8, 64>;

}  // namespace

TEST(MemoryModel, TassignPointsIntoTheCoresUnifiedBuffer)
{
    VecF a, b;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x800);
    EXPECT_EQ(reinterpret_cast<std::byte*>(b.data()) - reinterpret_cast<std::byte*>(a.data()), 0x800);
}

TEST(MemoryModel, AliasedTilesShareBytes)
{
    VecF a;
    Tile<TileType::Vec, int32_t, 8, 64> same;
    Tile<TileType::Vec, uint8_t, 4, 32> tail;
    TASSIGN(a, 0x1000);
    TASSIGN(same, 0x1000);
    TASSIGN(tail, 0x1000 + 4 * 64);
    for (int i = 0; i < 8 * 64; ++i) a.data()[i] = 1.5f * i - 7.0f;
    for (int i = 0; i < 8 * 64; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &a.data()[i], 4);
        ASSERT_EQ(static_cast<uint32_t>(same.data()[i]), bits);
    }
    // Writing through one view is seen through the other.
    same.data()[3] = 0x3f800000;  // 1.0f
    EXPECT_EQ(a.data()[3], 1.0f);
    uint8_t expected[4];
    std::memcpy(expected, &a.data()[64], 4);
    EXPECT_EQ(std::memcmp(tail.data(), expected, 4), 0);
}

TEST(MemoryModel, TileWithoutTassignGetsItsOwnStorage)
{
    VecF a, b;
    ASSERT_NE(a.data(), nullptr);
    ASSERT_NE(b.data(), nullptr);
    EXPECT_NE(a.data(), b.data());
    for (int i = 0; i < VecF::Numel; ++i) a.data()[i] = float(i);
    VecF copy = a;  // copies of a tile view the same storage
    EXPECT_EQ(copy.data(), a.data());
    EXPECT_EQ(copy.data()[17], 17.0f);
}

TEST(MemoryModel, TassignPastTheEndIsAnErrorInFastModeToo)
{
    runtime::set_checked(false);
    VecF t;  // 2 KiB
    EXPECT_EQ(code_of([&] { TASSIGN(t, 256 * 1024 - 1024); }), "RUN_TASSIGN_RANGE");
    EXPECT_EQ(code_of([&] { TASSIGN(t, 256 * 1024 - 2048); }), "no error");
}

// A window (a full-size tile whose valid region is a strip of it) TASSIGNed where its valid region fits
// but its capacity runs past the end of the memory: TASSIGN and valid-region work are fine; an
// instruction that would write the whole capacity (a pad fill) stops with RUN_TILE_RANGE naming it.
TEST(MemoryModel, WindowWhoseValidRegionFitsBindsNearTheEnd)
{
    runtime::set_checked(false);
    constexpr uint64_t kUb = 256 * 1024;
    using Window = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, 2, 64, SLayout::NoneBox, 512, PadValue::Zero>;
    Window w;  // 2 KiB capacity, valid rows 0..1 span 512 bytes
    EXPECT_EQ(code_of([&] { TASSIGN(w, kUb - 512); }), "no error");
    EXPECT_EQ(code_of([&] { TASSIGN(w, kUb - 480); }), "RUN_TASSIGN_RANGE");
    EXPECT_EQ(code_of([&] { TASSIGN<kUb - 512>(w); }), "no error");  // checked at compile time too
    static_assert(detail::static_tile_span<Window>() == 512);
    static_assert(detail::static_tile_span<VecF>() == VecF::SizeInBytes);
    TASSIGN(w, kUb - 512);
    EXPECT_EQ(reinterpret_cast<std::byte*>(w.data()), runtime::memory_base(TileType::Vec) + (kUb - 512));

    // Valid-region work: the whole valid region loads; a full-width load into a tile with no pad
    // region needs no fill.
    std::vector<float> gm(8 * 64);
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = float(i) + 0.5f;
    GlobalTensor<float, Shape<1, 1, 1, 2, 64>, Stride<1, 1, 1, 64, 1>> rows2(gm.data());
    using FullWidth = Tile<TileType::Vec, float, 2, 64>;
    FullWidth strip;
    TASSIGN(strip, kUb - 512);
    EXPECT_EQ(code_of([&] { TLOAD(strip, rows2); }), "no error");
    EXPECT_EQ(w.data()[64], 64.5f);

    // A Zero pad writes the whole 2 KiB capacity: 1.5 KiB past the end of UB.
    using Window2 = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, 2, 32, SLayout::NoneBox, 512, PadValue::Zero>;
    Window2 padded;
    TASSIGN(padded, kUb - 512);
    GlobalTensor<float, Shape<1, 1, 1, 2, 32>, Stride<1, 1, 1, 64, 1>> narrow(gm.data());
    const Diagnostic d = test::diagnostic_of([&] { TLOAD(padded, narrow); });
    EXPECT_EQ(d.code, "RUN_TILE_RANGE");
    EXPECT_EQ(d.instruction, "TLOAD");
    EXPECT_EQ(d.operand, "dst");

    // A Null pad promises nothing: the cpu profile zero-fills only a capacity that lies in memory.
    using NullWindow = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, 2, 32>;
    NullWindow unpadded;
    TASSIGN(unpadded, kUb - 512);
    EXPECT_EQ(code_of([&] { TLOAD(unpadded, narrow); }), "no error");

    // Growing the valid region of a bound window past the end of its memory.
    using Dynamic = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    Dynamic grown(2, 64);
    TASSIGN(grown, kUb - 512);
    EXPECT_EQ(code_of([&] { grown.SetValidRow(2); }), "no error");
    EXPECT_EQ(code_of([&] { grown.SetValidRow(3); }), "RUN_TILE_RANGE");
}

// The public CPU simulation's windowed Acc strips: a 128x256 int32 Nz accumulator (all of a2a3's
// 128 KiB L0C) whose valid region is 16 rows, TASSIGNed at every strip offset.
TEST(MemoryModel, AccStripWindowsFitL0C)
{
    test::ScopedTarget a2(profile::Target::A2A3);
    using Strip = Tile<TileType::Acc, int32_t, 128, 256, BLayout::ColMajor, 16, 256, SLayout::RowMajor, 1024>;
    for (uint64_t offset = 0; offset < 8 * 1024; offset += 1024) {
        Strip strip;
        EXPECT_EQ(code_of([&] { TASSIGN(strip, offset); }), "no error") << offset;
    }
    Strip last;
    EXPECT_EQ(code_of([&] { TASSIGN(last, 8 * 1024); }), "RUN_TASSIGN_RANGE");
}

TEST(MemoryModel, CapacitiesFollowTheProfile)
{
    VecF t;  // 2 KiB
    {
        test::ScopedTarget a2(profile::Target::A2A3);
        EXPECT_EQ(code_of([&] { TASSIGN(t, 192 * 1024 - 2048); }), "no error");
        EXPECT_EQ(code_of([&] { TASSIGN(t, 192 * 1024 - 1024); }), "RUN_TASSIGN_RANGE");
        Tile<TileType::Acc, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 1024> acc;  // 1 KiB
        EXPECT_EQ(code_of([&] { TASSIGN(acc, 128 * 1024 - 1024); }), "no error");
        EXPECT_EQ(code_of([&] { TASSIGN(acc, 128 * 1024); }), "RUN_TASSIGN_RANGE");
        Tile<TileType::ScaleLeft, uint8_t, 16, 32, BLayout::RowMajor, 16, 32, SLayout::RowMajor, 32> scale;
        EXPECT_EQ(code_of([&] { TASSIGN(scale, 0); }), "RUN_TASSIGN_LOCATION");
    }
    {
        test::ScopedTarget a5(profile::Target::A5);
        EXPECT_EQ(code_of([&] { TASSIGN(t, 256 * 1024 - 2048); }), "no error");
        Tile<TileType::Acc, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 1024> acc;
        EXPECT_EQ(code_of([&] { TASSIGN(acc, 256 * 1024 - 1024); }), "no error");
    }
}

TEST(MemoryModel, MisalignedTassignIsReportedInCheckedMode)
{
    VecF t;
    runtime::set_checked(true);
    EXPECT_EQ(code_of([&] { TASSIGN(t, 0x104); }), "RUN_TASSIGN_ALIGN");
    runtime::set_checked(false);
    EXPECT_EQ(code_of([&] { TASSIGN(t, 0x104); }), "no error");
}

TEST(MemoryModel, EachBlockOfALaunchHasItsOwnCore)
{
    std::vector<uintptr_t> seen(3);
    std::vector<int64_t> idx(3, -1);
    sim::launch(3, [&] {
        VecF t;
        TASSIGN(t, 0);
        t.data()[0] = float(get_block_idx());
        seen[get_block_idx()] = reinterpret_cast<uintptr_t>(t.data());
        idx[get_block_idx()] = get_block_idx() + 10 * get_block_num();
    });
    EXPECT_EQ(idx, (std::vector<int64_t>{30, 31, 32}));
    EXPECT_EQ(get_block_idx(), 0);
    EXPECT_EQ(get_block_num(), 1);
}
