// The run-time synchronisation check (checked mode, blocks of a launch): accesses on different pipes
// must be ordered by flags, events or a PIPE_ALL barrier; flags are set and waited in pairs; two blocks
// must not touch the same global bytes when one of them writes.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include "launch/thread_count.hpp"
#include "support/test_support.hpp"

#include <random>
#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;
using namespace pto::launch_testing;

namespace {

constexpr int kRows = 16, kCols = 64;
using TileF = Tile<TileType::Vec, float, kRows, kCols>;
using GlobalF = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;


// The vector add of examples/vector_add, written with flags only so that each can be left out: bands of
// kRows rows, each block taking every block_num-th band, with MTE2 -> V and V -> MTE3 forward and
// V -> MTE2 and MTE3 -> V back (the tiles are reused next iteration), the back flags set once before
// the loop and waited once after it. `omit` leaves synchronisation operation number `omit` out (-1: none).
constexpr int kSyncOps = 12;
void vector_add_with_flags(float* x, float* y, float* z, int bands, int omit)
{
    TileF a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x4000);
    TASSIGN(c, 0x8000);
    int op = 0;
    const auto sync = [&](auto&& fn) {
        if (op++ != omit) fn();
    };
    sync([] { set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0); });
    sync([] { set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0); });
    for (int band = int(get_block_idx()); band < bands; band += int(get_block_num())) {
        op = 2;
        GlobalF gx(x + band * kRows * kCols), gy(y + band * kRows * kCols), gz(z + band * kRows * kCols);
        sync([] { wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0); });
        TLOAD(a, gx);
        TLOAD(b, gy);
        sync([] { set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); });
        sync([] { wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); });
        sync([] { wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0); });
        TADD(c, a, b);
        sync([] { set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0); });
        sync([] { set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0); });
        sync([] { wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0); });
        TSTORE(gz, c);
        sync([] { set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0); });
    }
    op = 10;
    sync([] { wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0); });
    sync([] { wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0); });
}

// What leaving out each operation breaks first: a wait then waits for nothing, a set finds its flag
// still set, an access races, or a flag outlives the block.
const std::string kFindingWithout[kSyncOps] = {
    "ORDER_WAIT_WITHOUT_SET", "ORDER_WAIT_WITHOUT_SET", "ORDER_SET_TWICE",        "ORDER_WAIT_WITHOUT_SET",
    "ORDER_MISSING_SYNC",     "ORDER_SET_TWICE",        "ORDER_WAIT_WITHOUT_SET", "ORDER_WAIT_WITHOUT_SET",
    "ORDER_MISSING_SYNC",     "ORDER_WAIT_WITHOUT_SET", "ORDER_UNWAITED_SET",     "ORDER_UNWAITED_SET",
};

struct VectorAdd {
    static constexpr int kBands = 8;
    std::vector<float> x = random_floats(kBands * kRows * kCols, 1), y = random_floats(kBands * kRows * kCols, 2);
    std::vector<float> z = std::vector<float>(kBands * kRows * kCols, -1.f);

    void run(uint32_t blocks, int omit)
    {
        sim::launch(blocks, vector_add_with_flags, x.data(), y.data(), z.data(), kBands, omit);
    }
};

// A single-block kernel written inline.
template <typename Body>
Diagnostic run_block(Body body)
{
    return diagnostic_of([&] { sim::launch(1, body); });
}

struct Tiles {
    std::vector<float> in = random_floats(kRows * kCols, 3), out = std::vector<float>(kRows * kCols, 0.f);
    TileF a, c;
    GlobalF gin{in.data()}, gout{out.data()};
    Tiles()
    {
        TASSIGN(a, 0x0);
        TASSIGN(c, 0x4000);
    }
};

}  // namespace

TEST(OrderCheck, VectorAddWithEveryFlagRunsCleanOnAnyThreadCount)
{
    ScopedChecked checked;
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads t(threads);
        VectorAdd v;
        EXPECT_EQ(diagnostic_of([&] { v.run(3, -1); }).code, "no error");
        for (std::size_t i = 0; i < v.z.size(); ++i) ASSERT_EQ(v.z[i], v.x[i] + v.y[i]) << i;
    }
}

TEST(OrderCheck, EachFlagOfVectorAddRemovedIsReported)
{
    ScopedChecked checked;
    for (int omit = 0; omit < kSyncOps; ++omit) {
        VectorAdd v;
        EXPECT_EQ(diagnostic_of([&] { v.run(2, omit); }).code, kFindingWithout[omit]) << "without synchronisation operation " << omit;
    }
    // The same kernels run unchecked, and give the right answer here (on the device they would not).
    ScopedChecked fast(false);
    VectorAdd v;
    v.run(2, 4);
    for (std::size_t i = 0; i < v.z.size(); ++i) ASSERT_EQ(v.z[i], v.x[i] + v.y[i]) << i;
}

// --- the adversarial schedule -------------------------------------------------------------------

bool adds_up(const VectorAdd& v)
{
    for (std::size_t i = 0; i < v.z.size(); ++i)
        if (v.z[i] != v.x[i] + v.y[i]) return false;
    return true;
}

TEST(AdversarialSchedule, VectorAddWithEveryFlagGivesTheSameBytes)
{
    ScopedSchedule adversarial(runtime::Schedule::Adversarial);
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads t(threads);
        VectorAdd v;
        EXPECT_EQ(diagnostic_of([&] { v.run(3, -1); }).code, "no error");
        EXPECT_TRUE(adds_up(v)) << threads << " threads";
    }
}

TEST(AdversarialSchedule, EachFlagWhoseRemovalTheCheckerReportsChangesTheResult)
{
    // A set left out leaves its wait waiting for ever, on the device and here (the checker's
    // ORDER_WAIT_WITHOUT_SET). A wait left out drops an ordering between two pipes (ORDER_MISSING_SYNC,
    // or ORDER_SET_TWICE at the next set): the schedule runs the later instruction first, as the device
    // may, and the sums are wrong. The last two waits (ORDER_UNWAITED_SET) order nothing this kernel
    // computes: a flag left set breaks whatever runs next on the device.
    ScopedSchedule adversarial(runtime::Schedule::Adversarial);
    for (int omit = 0; omit < kSyncOps; ++omit) {
        SCOPED_TRACE("without synchronisation operation " + std::to_string(omit) + " (" + kFindingWithout[omit] + ")");
        VectorAdd v;
        const std::string code = diagnostic_of([&] { v.run(2, omit); }).code;
        if (kFindingWithout[omit] == "ORDER_WAIT_WITHOUT_SET") {
            EXPECT_EQ(code, "ORDER_WAIT_WITHOUT_SET");
            continue;
        }
        EXPECT_EQ(code, "no error");
        EXPECT_EQ(adds_up(v), kFindingWithout[omit] == "ORDER_UNWAITED_SET");
    }
}

TEST(AdversarialSchedule, TheKernelsOwnAccessesSeeEveryInstructionIssuedBeforeThem)
{
    ScopedSchedule adversarial(runtime::Schedule::Adversarial);
    Tiles t;
    std::vector<float> seen(2, 0.f);
    const Diagnostic d = run_block([&] {
        TLOAD(t.a, t.gin);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADDS(t.c, t.a, 1.0f);
        seen[0] = t.c.GetValue(5);  // the scalar unit reads what the vector pipe wrote
        t.c.SetValue(6, 100.f);
        TMULS(t.a, t.c, 2.0f);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(t.gout, t.a);
        seen[1] = t.gout.GetElement(7);
    });
    ASSERT_EQ(d.code, "no error") << d.format();
    EXPECT_EQ(seen[0], t.in[5] + 1.0f);
    EXPECT_EQ(t.out[6], 200.f);
    EXPECT_EQ(seen[1], (t.in[7] + 1.0f) * 2.0f);
}

TEST(OrderCheck, MissingSyncNamesBothInstructionsPipesAndBytes)
{
    ScopedChecked checked;
    Tiles t;
    const Diagnostic d = run_block([&] {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);  // an unrelated flag: the block synchronises explicitly
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TLOAD(t.a, t.gin);
        TADD(t.c, t.a, t.a);
    });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_EQ(d.instruction, "TADD");
    EXPECT_EQ(without_source_lines(d.message), "reads UB bytes 0x0..0xfff, which TLOAD (instruction 3 of block 0) wrote on pipe MTE2, while TADD runs on pipe V");
    EXPECT_EQ(without_source_lines(d.expected), "set_flag(MTE2, V, EVENT_IDn) / wait_flag(MTE2, V, EVENT_IDn) between TLOAD (instruction 3 of block 0) and this TADD");
    EXPECT_EQ(d.actual, "no synchronisation from MTE2 to V");
}

TEST(OrderCheck, ASetWithoutItsWaitIsNamed)
{
    ScopedChecked checked;
    Tiles t;
    const Diagnostic d = run_block([&] {
        TLOAD(t.a, t.gin);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
        TADD(t.c, t.a, t.a);
    });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_EQ(without_source_lines(d.actual), "set_flag(MTE2, V, EVENT_ID2) by set_flag (instruction 2 of block 0) without its wait_flag");
}

TEST(OrderCheck, WriteAfterReadAndWriteAfterWriteAcrossPipes)
{
    ScopedChecked checked;
    Tiles t;
    // TLOAD overwrites a while TADD may still read it.
    Diagnostic d = run_block([&] {
        TLOAD(t.a, t.gin);
        pipe_barrier(PIPE_ALL);
        TADD(t.c, t.a, t.a);
        TLOAD(t.a, t.gin);
    });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_TRUE(mentions(d, "overwrites UB bytes 0x0..0xfff, which TADD (instruction 3 of block 0) read on pipe V")) << d.format();
    // TLOAD overwrites c, which TADD wrote.
    d = run_block([&] {
        TLOAD(t.a, t.gin);
        pipe_barrier(PIPE_ALL);
        TADD(t.c, t.a, t.a);
        TLOAD(t.c, t.gin);
    });
    EXPECT_TRUE(mentions(d, "overwrites UB bytes 0x4000..0x4fff, which TADD (instruction 3 of block 0) wrote on pipe V")) << d.format();
}

TEST(OrderCheck, SamePipeAndDisjointBytesNeedNoFlag)
{
    ScopedChecked checked;
    Tiles t;
    TileF b;
    TASSIGN(b, 0x8000);
    const Diagnostic d = run_block([&] {
        TLOAD(t.a, t.gin);
        TLOAD(b, t.gin);  // MTE2 after MTE2
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(t.c, t.a, b);
        TADD(t.c, t.c, t.a);  // V after V
        TLOAD(b, t.gin);      // MTE2 writes b while... V read b: needs V -> MTE2
    });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_TRUE(mentions(d, "UB bytes 0x8000..0x8fff")) << d.format();
    // A region of another tile than the ones V touched is free to load.
    TileF other;
    TASSIGN(other, 0xC000);
    EXPECT_EQ(run_block([&] {
                  TLOAD(t.a, t.gin);
                  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
                  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
                  TADD(t.c, t.a, t.a);
                  TLOAD(other, t.gin);
                  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
                  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
                  TSTORE(t.gout, t.c);
              }).code,
              "no error");
}

TEST(OrderCheck, OrderingComposesThroughAThirdPipe)
{
    // MTE3 reads c, written on V after V waited for MTE2: the store needs no flag from MTE2.
    ScopedChecked checked;
    Tiles t;
    EXPECT_EQ(run_block([&] {
                  TLOAD(t.c, t.gin);
                  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
                  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
                  TADD(t.c, t.c, t.c);
                  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
                  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
                  TSTORE(t.gout, t.c);
              }).code,
              "no error");
}

TEST(OrderCheck, FlagProtocol)
{
    ScopedChecked checked;
    Tiles t;
    Diagnostic d = run_block([] {
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
    });
    EXPECT_EQ(d.code, "ORDER_SET_TWICE");
    EXPECT_EQ(without_source_lines(d.message), "the flag is already set and not yet waited (set by set_flag (instruction 1 of block 0))");
    d = run_block([] { wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1); });
    EXPECT_EQ(d.code, "ORDER_WAIT_WITHOUT_SET");
    EXPECT_EQ(d.expected, "an earlier set_flag(MTE2, V, EVENT_ID1)");
    // Another event id is another flag.
    EXPECT_EQ(run_block([] {
                  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
                  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
              }).code,
              "ORDER_WAIT_WITHOUT_SET");
    d = run_block([] { set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID3); });
    EXPECT_EQ(d.code, "ORDER_UNWAITED_SET");
    EXPECT_EQ(d.expected, "wait_flag(MTE3, MTE2, EVENT_ID3) before the end");
    EXPECT_EQ(run_block([] {
                  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID3);
                  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID3);
                  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID3);
                  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID3);
              }).code,
              "no error");
}

TEST(OrderCheck, PipeAllBarrierOrdersEverythingBeforeIt)
{
    ScopedChecked checked;
    Tiles t;
    EXPECT_EQ(run_block([&] {
                  TLOAD(t.a, t.gin);
                  pipe_barrier(PIPE_ALL);
                  TADD(t.c, t.a, t.a);
                  pipe_barrier(PIPE_ALL);
                  TSTORE(t.gout, t.c);
                  TLOAD(t.a, t.gin);  // after the barrier's TADD: ordered too
              }).code,
              "no error");
    // A barrier of one pipe orders nothing across pipes.
    EXPECT_EQ(run_block([&] {
                  TLOAD(t.a, t.gin);
                  pipe_barrier(PIPE_V);
                  TADD(t.c, t.a, t.a);
              }).code,
              "ORDER_MISSING_SYNC");
}

TEST(OrderCheck, EventsOrderTheirPipes)
{
    ScopedChecked checked;
    Tiles t;
    EXPECT_EQ(run_block([&] {
                  Event<Op::TLOAD, Op::TADD> loaded = TLOAD(t.a, t.gin);
                  Event<Op::TADD, Op::TSTORE_VEC> added = TADD(t.c, t.a, t.a, loaded);
                  TSTORE(t.gout, t.c, added);
              }).code,
              "no error");
    const Diagnostic d = run_block([&] {
        Event<Op::TLOAD, Op::TADD> loaded = TLOAD(t.a, t.gin);
        TADD(t.c, t.a, t.a, loaded);
        TSTORE(t.gout, t.c);
    });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_EQ(d.instruction, "TSTORE");
    // An event waited without being recorded waits for nothing; a copy waits for the original's flag.
    EXPECT_EQ(run_block([&] {
                  Event<Op::TLOAD, Op::TADD> never;
                  TADD(t.c, t.a, t.a, never);
              }).code,
              "ORDER_WAIT_WITHOUT_SET");
    EXPECT_EQ(run_block([&] {
                  Event<Op::TLOAD, Op::TADD> loaded = TLOAD(t.a, t.gin);
                  Event<Op::TLOAD, Op::TADD> copy = loaded;
                  TADD(t.c, t.a, t.a, copy);
              }).code,
              "no error");
    EXPECT_EQ(run_block([&] { [[maybe_unused]] Event<Op::TLOAD, Op::TADD> loaded = TLOAD(t.a, t.gin); }).code, "ORDER_UNWAITED_SET");
}

TEST(OrderCheck, ABlockWithoutSynchronisationIsNotJudged)
{
    // Written for automatic synchronisation, as the static check assumes too.
    ScopedChecked checked;
    Tiles t;
    EXPECT_EQ(run_block([&] {
                  TLOAD(t.a, t.gin);
                  TADD(t.c, t.a, t.a);
                  TSTORE(t.gout, t.c);
              }).code,
              "no error");
    // One synchronisation operation anywhere makes the block explicit: the earlier finding is reported then.
    const Diagnostic d = run_block([&] {
        TLOAD(t.a, t.gin);
        TADD(t.c, t.a, t.a);
        TSTORE(t.gout, t.c);
        pipe_barrier(PIPE_ALL);
    });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_EQ(d.instruction, "TADD");
}

TEST(OrderCheck, FastModeChecksNothing)
{
    Tiles t;
    EXPECT_EQ(run_block([&] {
                  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
                  TLOAD(t.a, t.gin);
                  TADD(t.c, t.a, t.a);
              }).code,
              "no error");
}

TEST(OrderCheck, TheCppVectorFormsRunOnTheVectorPipe)
{
    // TLOAD on MTE2, the vector forms on V, TSTORE on MTE3: each pair of pipes needs its flag.
    for (int omit = -1; omit < 2; ++omit) {
        SCOPED_TRACE("without flag " + std::to_string(omit));
        ScopedChecked checked;
        Tiles t;
        const Diagnostic d = run_block([&] {
            TileF a, c;  // in this block's UB
            TASSIGN(a, 0x0);
            TASSIGN(c, 0x4000);
            TLOAD(a, t.gin);
            if (omit != 0) {
                set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
                wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            }
            Mask<64> all;
            PSET_B32(all, "PAT_ALL");
            for (int at = 0; at < kRows * kCols; at += 64) {
                VReg<64, float> r;
                VLDS(r, Ptr<ub_space_t, float>(a) + at);
                VADD(r, r, r, all);
                VSTS(r, Ptr<ub_space_t, float>(c) + at, all);
            }
            if (omit != 1) {
                set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
                wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            }
            TSTORE(t.gout, c);
        });
        if (omit < 0) {
            ASSERT_EQ(d.code, "no error") << d.format();
            for (int i = 0; i < kRows * kCols; ++i) ASSERT_EQ(t.out[i], t.in[i] * 2) << i;
            continue;
        }
        EXPECT_EQ(d.code, "ORDER_MISSING_SYNC") << d.format();
        EXPECT_EQ(d.instruction, omit == 0 ? "VLDS" : "TSTORE") << d.format();
        EXPECT_NE(d.message.find(omit == 0 ? "which TLOAD" : "which VSTS"), std::string::npos) << d.format();
        EXPECT_NE(d.message.find(omit == 0 ? "on pipe MTE2, while VLDS runs on pipe V" : "on pipe V, while TSTORE runs on pipe MTE3"),
                  std::string::npos)
            << d.format();
    }
}

TEST(OrderCheck, GlobalMemoryBetweenPipesOfOneCore)
{
    // TSTORE on MTE3 writes what a later TLOAD on MTE2 reads back.
    ScopedChecked checked;
    Tiles t;
    const Diagnostic d = run_block([&] {
        TLOAD(t.a, t.gin);
        pipe_barrier(PIPE_ALL);
        TSTORE(t.gout, t.a);
        TLOAD(t.c, t.gout);
    });
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC");
    EXPECT_EQ(d.instruction, "TLOAD");
    EXPECT_TRUE(mentions(d, "which TSTORE (instruction 3 of block 0) wrote on pipe MTE3")) << d.format();
}

namespace {

// Each block stores a tile of ones to row band `band_of(block)` of z (atomically if asked).
struct BandStore {
    std::vector<float> z = std::vector<float>(4 * kRows * kCols, 0.f);
    int (*band_of)(int block);
    bool atomic = false;

    static void kernel(BandStore* s)
    {
        TileF ones;
        TASSIGN(ones, 0x0);
        TEXPANDS(ones, 1.0f);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        GlobalF g(s->z.data() + s->band_of(int(get_block_idx())) * kRows * kCols);
        if (s->atomic) TSTORE(g, ones, AtomicType::AtomicAdd);
        else TSTORE(g, ones);
    }
};

}  // namespace

TEST(OrderCheck, TwoBlocksWritingTheSameGlobalBytesRace)
{
    ScopedChecked checked;
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads th(threads);
        BandStore own{.band_of = [](int b) { return b; }};
        EXPECT_EQ(diagnostic_of([&] { sim::launch(4, BandStore::kernel, &own); }).code, "no error");
        BandStore shared{.band_of = [](int b) { return b / 2; }};
        const Diagnostic d = diagnostic_of([&] { sim::launch(4, BandStore::kernel, &shared); });
        EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE");
        // The same report whatever the thread count: the lowest pair of blocks.
        EXPECT_TRUE(mentions(d, "block 1 writes global bytes")) << d.format();
        EXPECT_TRUE(mentions(d, "which block 0 writes (TSTORE (instruction 4 of block 0))")) << d.format();
        BandStore atomic{.band_of = [](int b) { return b / 2; }, .atomic = true};
        EXPECT_EQ(diagnostic_of([&] { sim::launch(4, BandStore::kernel, &atomic); }).code, "no error");
        EXPECT_EQ(atomic.z[0], 2.f);
    }
}

TEST(OrderCheck, ABlockReadingWhatAnotherWritesRaces)
{
    ScopedChecked checked;
    std::vector<float> data = random_floats(2 * kRows * kCols, 4);
    const Diagnostic d = diagnostic_of([&] {
        sim::launch(2, [&] {
            TileF t;
            TASSIGN(t, 0x0);
            GlobalF first(data.data()), second(data.data() + kRows * kCols);
            if (get_block_idx() == 0) {
                TLOAD(t, first);
            } else {
                TLOAD(t, second);
                set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
                wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
                TSTORE(first, t);
            }
        });
    });
    EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE");
    EXPECT_TRUE(mentions(d, "block 1 writes global")) << d.format();
    EXPECT_TRUE(mentions(d, "which block 0 reads")) << d.format();
}

namespace {

// Each block scatters 4 rows of ones into table rows first_row(block) .. + 3 (atomically if asked).
struct ScatterRows {
    std::vector<float> table = std::vector<float>(16 * kCols, 0.f);
    int (*first_row)(int block);
    bool atomic = false;

    static void kernel(ScatterRows* s)
    {
        Tile<TileType::Vec, float, 4, kCols> src;
        Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 4> idx;
        TASSIGN(src, 0x0);
        TASSIGN(idx, 0x2000);
        TEXPANDS(src, 1.0f);
        for (int i = 0; i < 4; ++i) idx.SetValue(i, s->first_row(int(get_block_idx())) + i);
        pipe_barrier(PIPE_ALL);
        GlobalTensor<float, Shape<1, 1, 1, 16, kCols>, Stride<1, 1, 1, kCols, 1>> g(s->table.data());
        if (s->atomic) MSCATTER<Coalesce::Row, ScatterAtomicOp::Add>(g, src, idx);
        else MSCATTER(g, src, idx);
    }
};

}  // namespace

TEST(OrderCheck, ScattersOfTwoBlocksRaceWhereTheirRowsMeet)
{
    ScopedChecked checked;
    ScatterRows own{.first_row = [](int b) { return 4 * b; }};
    EXPECT_EQ(diagnostic_of([&] { sim::launch(4, ScatterRows::kernel, &own); }).code, "no error");
    ScatterRows overlapping{.first_row = [](int b) { return 2 * b; }};
    const Diagnostic d = diagnostic_of([&] { sim::launch(4, ScatterRows::kernel, &overlapping); });
    EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE");
    EXPECT_TRUE(mentions(d, "block 1 writes global bytes")) << d.format();
    EXPECT_TRUE(mentions(d, "which block 0 writes (MSCATTER")) << d.format();
    ScatterRows atomic{.first_row = [](int b) { return 2 * b; }, .atomic = true};
    EXPECT_EQ(diagnostic_of([&] { sim::launch(4, ScatterRows::kernel, &atomic); }).code, "no error");
    EXPECT_EQ(atomic.table[2 * kCols], 2.f);
}
