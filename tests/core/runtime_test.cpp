// Events and flags are recorded; host runtime calls; diagnostics format; profiles.
#include <pto/pto-inst.hpp>

#include <acl/acl.h>
#include <gtest/gtest.h>

#include <cstring>

using namespace pto;

TEST(Sync, FlagsBarriersAndEventsAreRecordedInOrder)
{
    runtime::clear_sync_log();
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
    pipe_barrier(PIPE_ALL);
    Event<Op::TLOAD, Op::TADD> e;
    e = RecordEvent{};
    WaitAllEvents(e);
    TSYNC<Op::TADD>();
    const auto log = runtime::sync_log();
    ASSERT_EQ(log.size(), 6u);
    EXPECT_EQ(log[0].kind, runtime::SyncKind::SetFlag);
    EXPECT_EQ(log[0].src_pipe, PIPE_MTE2);
    EXPECT_EQ(log[0].dst_pipe, PIPE_V);
    EXPECT_EQ(log[0].event_id, EVENT_ID1);
    EXPECT_EQ(log[1].kind, runtime::SyncKind::WaitFlag);
    EXPECT_EQ(log[2].kind, runtime::SyncKind::PipeBarrier);
    EXPECT_EQ(log[3].kind, runtime::SyncKind::EventRecord);
    EXPECT_EQ(log[3].event_id, static_cast<int>(Op::TLOAD));
    EXPECT_EQ(log[4].kind, runtime::SyncKind::EventWait);
    EXPECT_EQ(log[4].event_id, static_cast<int>(Op::TADD));
    EXPECT_EQ(log[5].kind, runtime::SyncKind::Tsync);
}

TEST(HostRuntime, MallocMemcpyMemsetFree)
{
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 32, 0u);
    EXPECT_EQ(runtime::global_bytes_after(dev), 100);
    EXPECT_EQ(runtime::global_bytes_after(static_cast<char*>(dev) + 60), 40);
    EXPECT_EQ(runtime::global_bytes_after(static_cast<char*>(dev) + 100), -1);
    char host[100], back[100];
    for (int i = 0; i < 100; ++i) host[i] = char(i * 7 + 1);
    EXPECT_EQ(aclrtMemcpy(dev, 100, host, 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(back, 100, dev, 100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(host, back, 100), 0);
    EXPECT_EQ(aclrtMemcpy(back, 50, dev, 100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemset(dev, 100, 0x5a, 10), ACL_SUCCESS);
    EXPECT_EQ(static_cast<unsigned char*>(dev)[9], 0x5a);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(runtime::global_bytes_after(dev), -1);
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Allocations come zero-filled, even where a freed one left other bytes (as the public CPU simulation's).
TEST(HostRuntime, AllocationsAreZeroFilled)
{
    for (int round = 0; round < 2; ++round) {
        void* dev = nullptr;
        void* pinned = nullptr;
        ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
        for (int i = 0; i < 4096; ++i) {
            ASSERT_EQ(static_cast<unsigned char*>(dev)[i], 0) << i;
            ASSERT_EQ(static_cast<unsigned char*>(pinned)[i], 0) << i;
        }
        std::memset(dev, 0xA5, 4096);
        std::memset(pinned, 0x5A, 4096);
        EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
        EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
    }
}

TEST(Diagnostics, FormatNamesCodeInstructionAndExpectation)
{
    Diagnostic d{"RUN_TASSIGN_RANGE", "TASSIGN", "tile", "ends past the end of UB", "offset + size <= 262144", "270336",
                 "k.pto:3:5"};
    EXPECT_EQ(d.format(),
              "k.pto:3:5: error[RUN_TASSIGN_RANGE]: TASSIGN tile: ends past the end of UB \xE2\x80\x94 expected "
              "offset + size <= 262144, got 270336");
    try {
        runtime::InstructionScope scope("TADD");
        runtime::fail({"RUN_X", "", "src0", "bad", "", "", ""});
    } catch (const SimError& e) {
        EXPECT_EQ(e.diagnostic().instruction, "TADD");
        EXPECT_STREQ(e.what(), "error[RUN_X]: TADD src0: bad");
    }
    EXPECT_EQ(runtime::current_instruction(), nullptr);
}

TEST(Profiles, CapacitiesAreData)
{
    using profile::capacity_of;
    EXPECT_EQ(capacity_of(profile::kA2A3, TileType::Vec), 192u * 1024);
    EXPECT_EQ(capacity_of(profile::kA2A3, TileType::Mat), 512u * 1024);
    EXPECT_EQ(capacity_of(profile::kA2A3, TileType::Left), 64u * 1024);
    EXPECT_EQ(capacity_of(profile::kA2A3, TileType::Right), 64u * 1024);
    EXPECT_EQ(capacity_of(profile::kA2A3, TileType::Acc), 128u * 1024);
    EXPECT_EQ(capacity_of(profile::kA5, TileType::Vec), 256u * 1024);
    EXPECT_EQ(capacity_of(profile::kA5, TileType::Acc), 256u * 1024);
    // The cpu profile is at least as large as every real target, buffer by buffer.
    for (int i = 0; i < profile::kMemoryCount; ++i) {
        const auto loc = static_cast<TileType>(i);
        EXPECT_GE(capacity_of(profile::kCpu, loc), capacity_of(profile::kA2A3, loc));
        EXPECT_GE(capacity_of(profile::kCpu, loc), capacity_of(profile::kA5, loc));
    }
    profile::Target t{};
    EXPECT_TRUE(profile::parse_target("a5", t));
    EXPECT_EQ(t, profile::Target::A5);
    EXPECT_FALSE(profile::parse_target("a6", t));
    EXPECT_EQ(profile::kCompiledTarget, profile::Target::Cpu);
    EXPECT_EQ(runtime::active_target(), profile::Target::Cpu);
}
