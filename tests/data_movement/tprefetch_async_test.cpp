// TPREFETCH_ASYNC: a contiguous tensor inside its allocation prefetches and its event completes; a tensor
// that is not one range, or that leaves its allocation, is reported.
#include <acl/acl.h>
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <vector>

#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

TEST(TprefetchAsync, ContiguousTensorPrefetchesAndCompletes)
{
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 16 * 256 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    GlobalTensor<float, Shape<1, 1, 1, 16, 256>, Stride<1, 1, 1, 256, 1>> g(static_cast<float*>(p));
    std::vector<uint8_t> workspace(1024);
    PrefetchAsyncContext ctx(workspace.data());
    const comm::AsyncEvent first = TPREFETCH_ASYNC(g, ctx);
    EXPECT_TRUE(first.valid());
    EXPECT_EQ(first.engine, comm::DmaEngine::SDMA);
    EXPECT_TRUE(ctx.session.valid);
    EXPECT_TRUE(first.Wait(ctx.session));
    EXPECT_TRUE(first.Test(ctx.session));
    Event<Op::TLOAD, Op::TADD> e;
    const comm::AsyncEvent second = TPREFETCH_ASYNC(g, ctx, e);  // with a wait event
    EXPECT_NE(second.handle, first.handle);
    aclrtFree(p);
}

TEST(TprefetchAsync, NonContiguousOrOutOfRangeTensorsAreReported)
{
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 16 * 256 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    PrefetchAsyncContext ctx;
    // 16 rows of 128 floats with a pitch of 256: two ranges, not one.
    GlobalTensor<float, Shape<1, 1, 1, 16, 128>, Stride<1, 1, 1, 256, 1>> strided(static_cast<float*>(p));
    const Diagnostic d = diagnostic_of([&] { TPREFETCH_ASYNC(strided, ctx); });
    EXPECT_EQ(d.code, "RUN_PREFETCH_LAYOUT");
    EXPECT_EQ(d.instruction, "TPREFETCH_ASYNC");
    // 17 rows from a 16-row allocation.
    GlobalTensor<float, Shape<1, 1, 1, 17, 256>, Stride<1, 1, 1, 256, 1>> too_long(static_cast<float*>(p));
    EXPECT_EQ(diagnostic_of([&] { TPREFETCH_ASYNC(too_long, ctx); }).code, "RUN_GLOBAL_OOB");
    aclrtFree(p);
}

}  // namespace
