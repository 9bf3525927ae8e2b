// The cross-core part of the run-time synchronisation check (checked mode): two cores of a launch
// touching the same global bytes, one of them writing, race unless a cross-core synchronisation orders
// the two accesses: SYNCALL (hard and soft), a cross-core flag's set and wait (a2a3 and a5 forms), a
// tile pipe's push and pop, free and next push. Each edge orders what came before the release with
// what comes after the acquire, nothing else.
#include <pto/pto-inst.hpp>
#include <pto/runtime/cross_core_flags.hpp>

#include <gtest/gtest.h>

#include "launch/thread_count.hpp"
#include "support/test_support.hpp"

#include <initializer_list>
#include <random>
#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;
using namespace pto::launch_testing;

namespace {

constexpr int kRows = 8, kCols = 32, kElems = kRows * kCols;
using TileF = Tile<TileType::Vec, float, kRows, kCols>;
using GlobalF = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;


// dst <- src through a tile, its two pipes ordered by flags (the next copy reuses the tile).
void copy(float* dst, const float* src)
{
    TileF t;
    TASSIGN(t, 0x0);
    GlobalF from(const_cast<float*>(src)), to(dst);
    TLOAD(t, from);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(to, t);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
}

enum class Barrier { None, Hard, Soft };

// Block 0 publishes `in` in `shared`; after the barrier block 1 copies it to `out` (or, with
// `late_write`, block 0 publishes only after the barrier, which then orders nothing).
struct Publish {
    std::vector<float> in = random_floats(kElems, 1), shared = std::vector<float>(kElems, 0.f), out = std::vector<float>(kElems, -1.f);
    std::vector<int32_t> workspace = std::vector<int32_t>(8, 0);
    Barrier barrier = Barrier::Hard;
    bool late_write = false;

    void meet()
    {
        if (barrier == Barrier::Hard) SYNCALL<SyncCoreType::Mix>();
        if (barrier == Barrier::Soft) {
            GlobalTensor<int32_t, Shape<>, Stride<>> counter(workspace.data());
            SYNCALL<SyncAllMode::Soft, SyncCoreType::Mix>(counter, 0);
        }
    }

    void kernel()
    {
        if (get_block_idx() == 0) {
            if (!late_write) copy(shared.data(), in.data());
            meet();
            if (late_write) copy(shared.data(), in.data());
        } else {
            meet();
            copy(out.data(), shared.data());
        }
    }

    Diagnostic run()
    {
        return diagnostic_of([&] { sim::launch(2, [this] { kernel(); }); });
    }
};

TEST(CrossCoreOrder, ABarrierOrdersWhatOneBlockWroteBeforeItWithWhatAnotherReadsAfterIt)
{
    ScopedChecked checked;
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads th(threads);
        for (Barrier barrier : {Barrier::Hard, Barrier::Soft}) {
            Publish p{.barrier = barrier};
            EXPECT_EQ(p.run().code, "no error") << threads << " threads";
            EXPECT_EQ(p.out, p.in);
        }
        Publish unordered{.barrier = Barrier::None};
        const Diagnostic d = unordered.run();
        EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE");
        EXPECT_TRUE(mentions(d, "block 1 reads global bytes")) << d.format();
        EXPECT_TRUE(mentions(d, "which block 0 writes (TSTORE (instruction 4 of block 0))")) << d.format();
        for (Barrier barrier : {Barrier::Hard, Barrier::Soft}) {
            Publish late{.barrier = barrier, .late_write = true};
            EXPECT_EQ(late.run().code, "ORDER_CROSS_CORE_RACE") << "a write after the barrier";
        }
    }
}

// The cube core publishes a tile for its vector cores (or, `back`, each vector core publishes its half
// for the cube core), with the flags of `flags`: a2a3's, a5's, or none; `early` sets the flag before
// the store it should publish.
enum class Flags { None, CrossCore, IntraBlock };

struct Handoff {
    std::vector<float> in = random_floats(2 * kElems, 2), shared = std::vector<float>(2 * kElems, 0.f),
                       out = std::vector<float>(2 * kElems, -1.f);
    Flags flags = Flags::CrossCore;
    bool back = false, early = false;

    void signal(bool from_cube)
    {
        if (flags == Flags::CrossCore) runtime::set_cross_core(3);
        if (flags == Flags::IntraBlock) {
            if (from_cube) {
                runtime::set_intra_block(3);       // vector core 0
                runtime::set_intra_block(16 + 3);  // vector core 1
            } else {
                runtime::set_intra_block(3);
            }
        }
    }

    void wait(bool on_cube)
    {
        if (flags == Flags::CrossCore) runtime::wait_flag_dev(3);
        if (flags == Flags::IntraBlock) {
            runtime::wait_intra_core(3);
            if (on_cube) runtime::wait_intra_core(16 + 3);
        }
    }

    // Copies `halves` of `in` to `shared` and tells the other side.
    void publish(std::initializer_list<int> halves, bool from_cube)
    {
        if (early) signal(from_cube);
        for (int half : halves) copy(shared.data() + half * kElems, in.data() + half * kElems);
        if (!early) signal(from_cube);
    }

    void cube()
    {
        if (!back) return publish({0, 1}, true);
        wait(true);
        for (int half = 0; half < 2; ++half) copy(out.data() + half * kElems, shared.data() + half * kElems);
    }

    void vector()
    {
        const int half = int(get_subblockid());
        if (back) return publish({half}, false);
        wait(false);
        copy(out.data() + half * kElems, shared.data() + half * kElems);
    }

    Diagnostic run()
    {
        return diagnostic_of([&] { sim::launch_mixed(1, [this] { cube(); }, [this] { vector(); }); });
    }
};

TEST(CrossCoreOrder, AFlagOrdersTheCubesStoreWithTheVectorCoresLoad)
{
    ScopedChecked checked;
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads th(threads);
        for (Flags flags : {Flags::CrossCore, Flags::IntraBlock})
            for (bool back : {false, true}) {
                SCOPED_TRACE(std::string(flags == Flags::CrossCore ? "a2a3" : "a5") + (back ? ", vector to cube" : ", cube to vector"));
                Handoff h{.flags = flags, .back = back};
                EXPECT_EQ(h.run().code, "no error");
                EXPECT_EQ(h.out, h.in);
                Handoff early{.flags = flags, .back = back, .early = true};
                EXPECT_EQ(early.run().code, "ORDER_CROSS_CORE_RACE") << "a flag set before the store it should publish";
            }
        Handoff none{.flags = Flags::None};
        const Diagnostic d = none.run();
        EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE");
        EXPECT_TRUE(mentions(d, "vector core 0 of block 0 reads global bytes")) << d.format();
        EXPECT_TRUE(mentions(d, "which the cube core of block 0 writes (TSTORE")) << d.format();
    }
}

// The global-slot flow through a pipe of one slot: the cube stores each tile into the slot and pushes
// it, each vector core pops its half, loads it and frees it. The push orders the store with the load, the free
// orders the load with the next tile's store; loading again after the free (`reload_after_free`) reads
// bytes the cube is about to overwrite.
Diagnostic slot_round_trip(bool reload_after_free, std::vector<float>& in, std::vector<float>& out)
{
    using Pipe = TPipe<5, DIR_C2V, kElems * sizeof(float), 1>;
    std::vector<float> slot_memory(kElems, 0.f);
    const int tiles = int(in.size() / kElems);
    const auto kernel = [&] {
        Pipe pipe(slot_memory.data(), 0x0, 0x0);
        if (sim::is_cube_core()) {
            TileF t;
            TASSIGN(t, 0x0);
            for (int i = 0; i < tiles; ++i) {
                GlobalF slot;
                TALLOC<Pipe, GlobalF, TILE_NO_SPLIT>(pipe, slot);
                GlobalF src(in.data() + i * kElems);
                TLOAD(t, src);
                set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
                wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
                TSTORE(slot, t);
                TPUSH<Pipe, GlobalF, TILE_NO_SPLIT>(pipe, slot);
                set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
                wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
            }
            return;
        }
        // Each vector core receives its half of the rows.
        using HalfG = GlobalTensor<float, Shape<1, 1, 1, kRows / 2, kCols>, Stride<1, 1, 1, kCols, 1>>;
        Tile<TileType::Vec, float, kRows / 2, kCols> half;
        TASSIGN(half, 0x0);
        const int sub = int(get_subblockid());
        for (int i = 0; i < tiles; ++i) {
            HalfG slot;
            TPOP<Pipe, HalfG, TILE_UP_DOWN>(pipe, slot);
            if (!reload_after_free) TLOAD(half, slot);
            TFREE<Pipe, HalfG, TILE_UP_DOWN>(pipe, slot);
            if (reload_after_free) TLOAD(half, slot);
            set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
            wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
            HalfG dst(out.data() + i * kElems + sub * (kRows / 2) * kCols);
            TSTORE(dst, half);
            set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
            wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        }
    };
    return diagnostic_of([&] { sim::launch_mixed(1, kernel, kernel); });
}

TEST(CrossCoreOrder, APipeOrdersTheSlotsStoresLoadsAndReuse)
{
    ScopedChecked checked;
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads th(threads);
        std::vector<float> in = random_floats(3 * kElems, 3), out(in.size(), -1.f);
        EXPECT_EQ(slot_round_trip(false, in, out).code, "no error");
        EXPECT_EQ(out, in);
        const Diagnostic d = slot_round_trip(true, in, out);
        EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE");
        EXPECT_TRUE(mentions(d, "vector core 0 of block 0 reads global bytes")) << d.format();
        EXPECT_TRUE(mentions(d, "which the cube core of block 0 writes (TSTORE")) << d.format();
    }
}

}  // namespace
