// SYNCALL: every block of a launch meets at the barrier before any goes on, also when the launch has
// many more blocks than threads (a waiting block lends its thread); the hard and soft forms, the
// participant sets of a mixed launch, partial participation, and the misuses: a core outside the
// participant set, and a barrier some blocks never reach (ORDER_DEADLOCK).
#include <pto/common/kernel_meta.hpp>
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include "thread_count.hpp"

#include "support/test_support.hpp"

#include <atomic>
#include <vector>

using namespace pto;

namespace {

using pto::launch_testing::ScopedThreads;
using pto::launch_testing::many_threads;
using pto::test::diagnostic_of;
using pto::test::mentions;
using Counter = GlobalTensor<int32_t, Shape<>, Stride<>>;

// A hand-compiled SYNCALL kernel declares its metadata for the device's runtime; here it compiles to
// nothing, as the launch says which cores run.
void syncall_kernel() { SYNCALL<SyncCoreType::Mix>(); }
PTO_SYNCALL_AIV_KERNEL_META(syncall_kernel);
PTO_SYNCALL_AIC_KERNEL_META(syncall_kernel);
PTO_SYNCALL_MIX_AIC_KERNEL_META(syncall_kernel, 1, 2);

// Each block publishes a value, meets the others, and reads its right neighbour's: without the barrier
// a block could read before its neighbour wrote.
template <typename Barrier>
std::vector<int> neighbours_after(uint32_t blocks, int rounds, Barrier barrier)
{
    std::vector<std::atomic<int>> published(blocks);
    std::vector<int> seen(size_t(blocks) * rounds, -1);
    sim::launch(blocks, [&] {
        const uint32_t b = uint32_t(get_block_idx());
        for (int r = 0; r < rounds; ++r) {
            published[b].store(int(b) * 100 + r, std::memory_order_relaxed);
            barrier();
            seen[size_t(r) * blocks + b] = published[(b + 1) % blocks].load(std::memory_order_relaxed);
            barrier();  // nobody publishes the next round before everybody has read this one
        }
    });
    return seen;
}

std::vector<int> expected_neighbours(uint32_t blocks, int rounds)
{
    std::vector<int> v(size_t(blocks) * rounds);
    for (int r = 0; r < rounds; ++r)
        for (uint32_t b = 0; b < blocks; ++b) v[size_t(r) * blocks + b] = int((b + 1) % blocks) * 100 + r;
    return v;
}

TEST(Syncall, HardBarrierHoldsEveryBlockOnOneThreadAndOnMany)
{
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads scoped(threads);
        EXPECT_EQ(neighbours_after(48, 3, [] { SYNCALL(); }), expected_neighbours(48, 3)) << threads << " threads";
    }
}

TEST(Syncall, SoftBarrierCountsArrivalsInGlobalMemory)
{
    int32_t counter = 0;
    Counter workspace(&counter);
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads scoped(threads);
        counter = 0;
        EXPECT_EQ(neighbours_after(24, 2, [&] { SYNCALL<SyncAllMode::Soft>(workspace, 0); }), expected_neighbours(24, 2));
        EXPECT_EQ(counter, 24 * 2 * 2);  // every block arrived at four barriers
    }
    // The hard mode with a workspace ignores it.
    counter = 7;
    EXPECT_EQ(neighbours_after(8, 1, [&] { SYNCALL<SyncAllMode::Hard>(workspace); }), expected_neighbours(8, 1));
    EXPECT_EQ(counter, 7);
}

TEST(Syncall, SoftBarrierOfSomeBlocks)
{
    int32_t counter = 0;
    Counter workspace(&counter);
    std::vector<std::atomic<int>> published(8);
    std::vector<int> seen(4, -1);
    sim::launch(8, [&] {
        const uint32_t b = uint32_t(get_block_idx());
        if (b >= 4) return;  // the others must not call it
        published[b].store(int(b) + 1, std::memory_order_relaxed);
        SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(workspace, 4);
        seen[b] = published[(b + 1) % 4].load(std::memory_order_relaxed);
    });
    EXPECT_EQ(seen, (std::vector<int>{2, 3, 4, 1}));
}

TEST(Syncall, ParticipantSetsOfAMixedLaunch)
{
    constexpr uint32_t kBlocks = 6;
    std::vector<std::atomic<int>> cube_value(kBlocks), vector_value(2 * kBlocks);
    std::vector<int> vector_saw(2 * kBlocks, -1), cube_saw(kBlocks, -1), next_vector_saw(2 * kBlocks, -1);
    const auto kernel = [&] {
        const uint32_t b = uint32_t(get_block_idx());
        if (sim::is_cube_core()) {
            cube_value[b].store(int(b) + 10, std::memory_order_relaxed);
            SYNCALL<SyncCoreType::Mix>();  // cube cores and vector cores together
            SYNCALL<SyncCoreType::AICOnly>();
            SYNCALL<SyncCoreType::Mix>();
            cube_saw[b] = vector_value[2 * ((b + 1) % kBlocks)].load(std::memory_order_relaxed);
            return;
        }
        const uint32_t v = 2 * b + uint32_t(get_subblockid());
        vector_value[v].store(int(v) + 100, std::memory_order_relaxed);
        SYNCALL<SyncCoreType::Mix>();
        vector_saw[v] = cube_value[(b + 1) % kBlocks].load(std::memory_order_relaxed);
        SYNCALL<SyncCoreType::AIVOnly>();  // the vector cores alone
        next_vector_saw[v] = vector_value[(v + 1) % (2 * kBlocks)].load(std::memory_order_relaxed);
        SYNCALL<SyncCoreType::Mix>();
    };
    sim::launch_mixed(kBlocks, kernel, kernel);
    for (uint32_t b = 0; b < kBlocks; ++b) {
        EXPECT_EQ(cube_saw[b], int(2 * ((b + 1) % kBlocks)) + 100);
        for (uint32_t s = 0; s < 2; ++s) {
            const uint32_t v = 2 * b + s;
            EXPECT_EQ(vector_saw[v], int((b + 1) % kBlocks) + 10);
            EXPECT_EQ(next_vector_saw[v], int((v + 1) % (2 * kBlocks)) + 100);
        }
    }
}

TEST(Syncall, AKernelWithItsMetadataRunsAsAMixedLaunch)
{
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads scoped(threads);
        sim::launch_mixed(4, syncall_kernel, syncall_kernel);
    }
}

TEST(Syncall, ACoreOutsideTheParticipantSetIsAnError)
{
    const auto kernel = [] {
        if (sim::is_cube_core()) SYNCALL<SyncCoreType::AIVOnly>();
    };
    const Diagnostic d = diagnostic_of([&] { sim::launch_mixed(2, kernel, kernel); });
    EXPECT_EQ(d.code, "RUN_SYNCALL_CORE");
    EXPECT_TRUE(mentions(d, "the cube core of block 0")) << d.format();
}

TEST(Syncall, ABarrierSomeBlocksNeverReachIsADeadlock)
{
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads scoped(threads);
        const Diagnostic d = diagnostic_of([] {
            sim::launch(6, [] {
                if (get_block_idx() != 3) SYNCALL();
            });
        });
        EXPECT_EQ(d.code, "ORDER_DEADLOCK");
        EXPECT_TRUE(mentions(d, "block 0 waits in SYNCALL for the vector cores that have not arrived")) << d.format();
        EXPECT_TRUE(mentions(d, "block 3 has ended")) << d.format();
    }
}

TEST(Syncall, OutsideLaunchesTheCallingThreadIsAlone)
{
    SYNCALL();
    SYNCALL<SyncCoreType::Mix>();
    int32_t counter = 0;
    Counter workspace(&counter);
    SYNCALL<SyncAllMode::Soft>(workspace, 0);
    EXPECT_EQ(counter, 1);
}

}  // namespace
