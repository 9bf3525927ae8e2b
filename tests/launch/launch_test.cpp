// The parallel launch: every multi-block example gives the same bytes (and the same synchronisation
// log) on one thread and on many; a failing launch reports the lowest-numbered failing block, as a serial
// run does; a block sees what its launching thread chose (target, checked mode, execution context, task
// cookie); a launch nested in a block runs; atomic adds of all blocks into the same bytes all land.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include "thread_count.hpp"

#include "../examples/flash_attention/flash_attention_kernel.hpp"
#include "../examples/gelu/gelu_kernel.hpp"
#include "../examples/layernorm/layernorm_kernel.hpp"
#include "../examples/softmax/softmax_kernel.hpp"
#include "../examples/vector_add/vector_add_kernel.hpp"
#include "support/test_support.hpp"

#include <pto/runtime/sync.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace pto;

namespace {

using pto::launch_testing::ScopedThreads;
using pto::launch_testing::many_threads;
using pto::test::random_floats;

template <typename T>
std::vector<std::byte> bytes_of(const std::vector<T>& v)
{
    std::vector<std::byte> out(v.size() * sizeof(T));
    std::memcpy(out.data(), v.data(), out.size());
    return out;
}

bool same_records(const std::vector<runtime::SyncRecord>& a, const std::vector<runtime::SyncRecord>& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
               return x.kind == y.kind && x.src_pipe == y.src_pipe && x.dst_pipe == y.dst_pipe && x.event_id == y.event_id &&
                      x.block == y.block;
           });
}

// run() launches a kernel and returns its output bytes: the same on one thread and on many (three
// parallel runs), and so is the synchronisation log.
void expect_same_on_any_thread_count(const std::function<std::vector<std::byte>()>& run)
{
    std::vector<std::byte> serial;
    std::vector<runtime::SyncRecord> serial_log;
    {
        ScopedThreads one(1);
        runtime::clear_sync_log();
        serial = run();
        serial_log = runtime::sync_log();
    }
    ASSERT_FALSE(serial.empty());
    ScopedThreads all(many_threads());
    for (int round = 0; round < 3; ++round) {
        runtime::clear_sync_log();
        const std::vector<std::byte> parallel = run();
        ASSERT_TRUE(parallel == serial) << "round " << round << ": the bytes differ from the one-thread run";
        ASSERT_TRUE(same_records(runtime::sync_log(), serial_log)) << "round " << round << ": the synchronisation log differs";
    }
    runtime::clear_sync_log();
}


TEST(ParallelLaunch, VectorAddMainJobGivesTheSameBytesOnAnyThreadCount)
{
    const int rows = 1000, cols = 700;  // partial bands and partial tiles
    const std::vector<float> x = random_floats(size_t(rows) * cols, 1, 100.0f), y = random_floats(x.size(), 2, 100.0f);
    for (const int blocks : {2, 7, 64}) {
        SCOPED_TRACE(blocks);
        expect_same_on_any_thread_count([&] {
            std::vector<float> a = x, b = y, z(x.size(), 0.0f);
            sim::launch(blocks, vector_add::vector_add_kernel, a.data(), b.data(), z.data(), rows, cols);
            for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], x[i] + y[i]) << i;
            return bytes_of(z);
        });
    }
}

template <int D>
void expect_flash_attention_deterministic(flash_attention::Problem p, int blocks, bool checked)
{
    const size_t n = size_t(p.heads) * p.seq * D;
    std::vector<half> q(n), k(n), v(n);
    std::mt19937 rng(uint32_t(p.seq + D + p.causal));
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (auto& e : q) e = half(3.0f * unit(rng));
    for (auto& e : k) e = half(3.0f * unit(rng));
    for (auto& e : v) e = half(unit(rng));
    const test::ScopedChecked mode(checked);
    expect_same_on_any_thread_count([&] {
        std::vector<float> o(n, 0.0f);
        sim::launch(blocks, flash_attention::flash_attention_kernel<D>, q.data(), k.data(), v.data(), o.data(), p);
        return bytes_of(o);
    });
}

TEST(ParallelLaunch, FlashAttentionGivesTheSameBytesOnAnyThreadCount)
{
    expect_flash_attention_deterministic<64>({.heads = 2, .seq = 256, .causal = false}, 8, false);
    expect_flash_attention_deterministic<128>({.heads = 2, .seq = 192, .causal = true}, 3, false);
    expect_flash_attention_deterministic<64>({.heads = 1, .seq = 256, .causal = true}, 4, true);
}

TEST(ParallelLaunch, GeluSoftmaxAndLayerNormGiveTheSameBytesOnAnyThreadCount)
{
    const int rows = 200, cols = 256;
    const std::vector<float> x = random_floats(size_t(rows) * cols, 3, 8.0f), gamma = random_floats(size_t(cols), 4, 1.0f),
                             beta = random_floats(size_t(cols), 5, 1.0f);
    for (const int blocks : {3, 8}) {
        SCOPED_TRACE(blocks);
        expect_same_on_any_thread_count([&] {
            std::vector<float> in = x, y(x.size(), 0.0f);
            sim::launch(blocks, gelu::gelu_kernel, in.data(), y.data(), rows, cols);
            return bytes_of(y);
        });
        expect_same_on_any_thread_count([&] {
            std::vector<float> in = x, y(x.size(), 0.0f);
            sim::launch(blocks, softmax::softmax_kernel, in.data(), y.data(), rows, cols);
            return bytes_of(y);
        });
        expect_same_on_any_thread_count([&] {
            std::vector<float> in = x, g = gamma, b = beta, y(x.size(), 0.0f);
            sim::launch(blocks, layernorm::layernorm_kernel, in.data(), g.data(), b.data(), y.data(), rows, cols);
            return bytes_of(y);
        });
    }
}

// --- failures ----------------------------------------------------------------------------------

using VecF = Tile<TileType::Vec, float, 8, 64>;

// A TASSIGN past the end of UB whose offset names the block: RUN_TASSIGN_RANGE, one text per block.
void fail_as_block(uint32_t block)
{
    VecF t;
    TASSIGN(t, runtime::memory_size(TileType::Vec) + 64 * block);
}

// Some element-wise work, so that a block takes a while.
void busy_work(int rounds)
{
    VecF a, b;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x800);
    TEXPANDS(a, 1.0f);
    TEXPANDS(b, 0.5f);
    for (int i = 0; i < rounds; ++i) TADD(a, a, b);
}

TEST(ParallelLaunch, TheLowestFailingBlockIsReportedAsInASerialRun)
{
    // Block 2 fails late, after a long computation; blocks 5 and on fail at once, and would win a race.
    const auto kernel = [] {
        const uint32_t b = uint32_t(get_block_idx());
        if (b == 2) {
            busy_work(20000);
            fail_as_block(b);
        }
        if (b >= 5) fail_as_block(b);
        busy_work(100);
    };
    std::string serial;
    {
        ScopedThreads one(1);
        serial = test::diagnostic_of([&] { sim::launch(16, kernel); }).format();
    }
    const std::string block2 = test::diagnostic_of([&] { sim::launch(3, [] { fail_as_block(2); }); }).format();
    EXPECT_EQ(serial, block2);
    ScopedThreads all(many_threads());
    for (int round = 0; round < 5; ++round) EXPECT_EQ(test::diagnostic_of([&] { sim::launch(16, kernel); }).format(), serial) << round;
}

TEST(ParallelLaunch, BlocksBeforeTheFailingOneRunToTheirEnd)
{
    ScopedThreads all(many_threads());
    std::vector<int> finished(8, 0);
    const Diagnostic d = test::diagnostic_of([&] {
        sim::launch(8, [&] {
            const uint32_t b = uint32_t(get_block_idx());
            if (b == 6) fail_as_block(b);
            busy_work(b < 6 ? 3000 : 10);
            finished[b] = 1;
        });
    });
    EXPECT_EQ(d.code, "RUN_TASSIGN_RANGE");
    for (int b = 0; b < 6; ++b) EXPECT_EQ(finished[size_t(b)], 1) << b;
    EXPECT_EQ(finished[6], 0);
}

TEST(ParallelLaunch, AnyExceptionOfABlockReachesTheLaunchingThread)
{
    ScopedThreads all(many_threads());
    try {
        sim::launch(4, [] {
            if (get_block_idx() == 1) throw std::runtime_error("block 1");
            if (get_block_idx() == 3) throw std::logic_error("block 3");
        });
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "block 1");
    }
    // The launching thread is itself again afterwards.
    EXPECT_EQ(get_block_idx(), 0);
    EXPECT_EQ(get_block_num(), 1);
}

// --- what a block inherits ---------------------------------------------------------------------

TEST(ParallelLaunch, ABlockSeesTheLaunchingThreadsChoices)
{
    ScopedThreads all(many_threads());
    const test::ScopedChecked checked(true);
    runtime::select_thread_target(profile::Target::A2A3);  // a 192 KiB UB
    runtime::set_task_cookie(0x1234);
    runtime::set_execution_context(0, 1, 2);
    const uint32_t blocks = 8;
    std::vector<uint64_t> ub(blocks), cookie(blocks), subblock(blocks), subblocks(blocks), fresh(blocks);
    std::vector<int> arch(blocks), mode(blocks);
    sim::launch(blocks, [&] {
        const auto b = size_t(get_block_idx());
        ub[b] = runtime::memory_size(TileType::Vec);
        arch[b] = NPUMemoryModel::Instance().GetArch() == NPUArch::A2A3;
        mode[b] = runtime::checked();
        cookie[b] = get_task_cookie();
        subblock[b] = uint64_t(get_subblockid());
        subblocks[b] = uint64_t(get_subblockdim());
        fresh[b] = uint8_t(runtime::memory_base(TileType::Vec)[100]);  // poisoned, as checked mode makes it
    });
    runtime::set_execution_context(0, 0, 1);
    runtime::set_task_cookie(0);
    runtime::reset_thread_target();
    for (uint32_t b = 0; b < blocks; ++b) {
        SCOPED_TRACE(b);
        EXPECT_EQ(ub[b], 192u * 1024u);
        EXPECT_EQ(arch[b], 1);
        EXPECT_EQ(mode[b], 1);
        EXPECT_EQ(cookie[b], 0x1234u);
        EXPECT_EQ(subblock[b], 1u);
        EXPECT_EQ(subblocks[b], 2u);
        EXPECT_EQ(fresh[b], 0xFFu);
    }
}

TEST(ParallelLaunch, ALaunchInsideABlockRunsItsBlocksInPlace)
{
    ScopedThreads all(many_threads());
    std::vector<int64_t> seen(4 * 3, -1), after(4, -1);
    sim::launch(4, [&] {
        const int64_t outer = get_block_idx();
        const std::thread::id thread = std::this_thread::get_id();
        sim::launch(3, [&] {
            EXPECT_EQ(std::this_thread::get_id(), thread);
            seen[size_t(outer * 3 + get_block_idx())] = outer * 100 + get_block_idx() * 10 + get_block_num();
        });
        after[size_t(outer)] = get_block_idx() * 10 + get_block_num();
    });
    for (int64_t o = 0; o < 4; ++o) {
        EXPECT_EQ(after[size_t(o)], o * 10 + 4);
        for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(seen[size_t(o * 3 + i)], o * 100 + i * 10 + 3);
    }
}

TEST(ParallelLaunch, LaunchesFromSeveralHostThreadsAtOnceAllRun)
{
    // One launch holds the pool; the others run their blocks in place, with the same results.
    ScopedThreads all(many_threads());
    const int rows = 256, cols = 256;
    const std::vector<float> x = random_floats(size_t(rows) * cols, 7, 1.0f), y = random_floats(x.size(), 8, 1.0f);
    std::vector<std::vector<float>> z(4, std::vector<float>(x.size(), 0.0f));
    std::vector<std::thread> hosts;
    for (size_t h = 0; h < z.size(); ++h)
        hosts.emplace_back([&, h] {
            std::vector<float> a = x, b = y;
            sim::launch(8, vector_add::vector_add_kernel, a.data(), b.data(), z[h].data(), rows, cols);
        });
    for (auto& t : hosts) t.join();
    for (const auto& out : z)
        for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], x[i] + y[i]) << i;
}

// Atomic adds of every block into the same global bytes all land, whatever the thread count: each is a
// read-modify-write that another block's must not interleave with (TSTORE<AtomicAdd>, MSCATTER's add).
TEST(ParallelLaunch, AtomicAddsOfEveryBlockToTheSameGlobalBytesAllLand)
{
    constexpr int kBlocks = 64, kRows = 16, kCols = 64;
    using Ones = Tile<TileType::Vec, float, kRows, kCols>;
    using Sum = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;
    using Row = Tile<TileType::Vec, float, 1, kCols>;
    using Index = Tile<TileType::Vec, int32_t, 1, kCols>;
    using Table = GlobalTensor<float, Shape<1, 1, 1, 1, kCols>, Stride<1, 1, 1, kCols, 1>>;
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads count(threads);
        std::vector<float> stored(size_t(kRows) * kCols, 0.0f), scattered(kCols, 0.0f);
        sim::launch(kBlocks, [&] {
            Ones ones;
            Row row;
            Index idx;
            TASSIGN(ones, 0x0);
            TASSIGN(row, 0x1000);
            TASSIGN(idx, 0x1100);
            TEXPANDS(ones, 1.0f);
            TEXPANDS(row, 1.0f);
            for (int c = 0; c < kCols; ++c) idx.SetValue(uint32_t(c), c);
            Sum sum(stored.data());
            Table table(scattered.data());
            TSTORE(sum, ones, AtomicType::AtomicAdd);
            MSCATTER<Coalesce::Elem, ScatterAtomicOp::Add>(table, row, idx);
        });
        for (size_t i = 0; i < stored.size(); ++i) ASSERT_EQ(stored[i], float(kBlocks)) << threads << " threads, " << i;
        for (size_t i = 0; i < scattered.size(); ++i) ASSERT_EQ(scattered[i], float(kBlocks)) << threads << " threads, " << i;
    }
}

TEST(ParallelLaunch, TheThreadCountIsSetByTheApi)
{
    EXPECT_GE(sim::threads(), 1u);
    {
        ScopedThreads three(3);
        EXPECT_EQ(sim::threads(), 3u);
        std::vector<int> ran(10, 0);
        sim::launch(10, [&] { ran[size_t(get_block_idx())] = 1; });
        EXPECT_EQ(ran, std::vector<int>(10, 1));
    }
    EXPECT_GE(sim::threads(), 1u);
}

}  // namespace
