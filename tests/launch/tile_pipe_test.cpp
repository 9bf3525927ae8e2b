// Mixed launches and their tile pipes: tiles cross between a block's cube core and its vector cores
// through TPipe in every split form and both directions, by tiles (TPUSH/TPOP) and by global slots
// (TALLOC/TPUSH/TPOP/TFREE), more tiles than slots so that producers wait; the same bytes on one thread
// and on many; a handshake that cannot finish is ORDER_DEADLOCK with its cycle, never a hang; the
// misuses of a pipe are diagnostics.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include "thread_count.hpp"

#include <pto/runtime/cross_core_flags.hpp>

#include "../examples/attention_scores/attention_scores_kernel.hpp"
#include "support/test_support.hpp"

#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace pto;

namespace {

using pto::launch_testing::ScopedThreads;
using pto::launch_testing::many_threads;
using pto::test::diagnostic_of;
using pto::test::mentions;
using pto::test::random_floats;


// --- the example: matmul on the cube, softmax on the vector cores ---------------------------------

struct AttentionRun {
    std::vector<half> q, k;
    std::vector<float> p;
};

AttentionRun run_attention(int rows, uint32_t blocks, uint32_t seed)
{
    using namespace attention_scores;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    AttentionRun run;
    run.q.resize(size_t(rows) * kDim);
    run.k.resize(size_t(kKeys) * kDim);
    for (half& x : run.q) x = half(dist(rng));
    for (half& x : run.k) x = half(dist(rng));
    run.p.assign(size_t(rows) * kKeys, -1.0f);
    std::vector<float> fifo(blocks * kFifoFloatsPerBlock);
    sim::launch_mixed(blocks, attention_scores_kernel, attention_scores_kernel, run.q.data(), run.k.data(), run.p.data(),
                      fifo.data(), rows);
    return run;
}

TEST(TilePipeExample, AttentionScoresMatchDoublePrecision)
{
    using namespace attention_scores;
    const int rows = 10 * kRows;  // block 0 takes three bands: more than the pipe's two slots
    const AttentionRun run = run_attention(rows, 4, 7);
    const double scale = 1.0 / std::sqrt(double(kDim));
    double worst = 0;
    for (int i = 0; i < rows; ++i) {
        std::vector<double> s(kKeys);
        double max = -INFINITY;
        for (int j = 0; j < kKeys; ++j) {
            double dot = 0;
            for (int d = 0; d < kDim; ++d) dot += double(float(run.q[size_t(i) * kDim + d])) * double(float(run.k[size_t(j) * kDim + d]));
            s[j] = dot * scale;
            max = std::max(max, s[j]);
        }
        double sum = 0;
        for (double& x : s) sum += (x = std::exp(x - max));
        for (int j = 0; j < kKeys; ++j) worst = std::max(worst, std::abs(run.p[size_t(i) * kKeys + j] - s[j] / sum));
    }
    EXPECT_LT(worst, 2e-6);
}

TEST(TilePipeExample, SameBytesOnOneThreadAndOnMany)
{
    const int rows = 24 * attention_scores::kRows;
    AttentionRun one, many;
    {
        ScopedThreads threads(1);
        one = run_attention(rows, 8, 11);
    }
    {
        ScopedThreads threads(many_threads());
        many = run_attention(rows, 8, 11);
    }
    EXPECT_EQ(0, std::memcmp(one.p.data(), many.p.data(), one.p.size() * sizeof(float)));
}

// --- every split, both directions -------------------------------------------------------------

constexpr int kMax = 32;  // the tiles' static shape; the transfers use dynamic valid regions
using FullMat = Tile<TileType::Mat, float, kMax, kMax, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using PartVec = Tile<TileType::Vec, float, kMax, kMax, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using Rows = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;

// The part of a rows x cols tile that vector sub-block `sub` has under `split`.
struct Part {
    int row, col, rows, cols;
};
Part part_of(TileSplitAxis split, int sub, int rows, int cols)
{
    const bool by_rows = split == TILE_UP_DOWN || split == TILE_UP_DOWN_ODD;
    const bool odd = split == TILE_UP_DOWN_ODD || split == TILE_LEFT_RIGHT_ODD;
    if (split == TILE_NO_SPLIT) return {0, 0, rows, cols};
    const int n = by_rows ? rows : cols;
    const int first = odd ? (n + 1) / 2 : n / 2;
    const int start = sub == 0 ? 0 : first, size = sub == 0 ? first : n - first;
    return by_rows ? Part{start, 0, size, cols} : Part{0, start, rows, size};
}

// `tiles` tiles of rows x cols floats, one after another, that every block moves through its pipe, and
// where each block's copies land.
struct Transfer {
    int rows, cols, tiles, blocks;
    std::vector<float> in, out, out_second;  // out_second: what vector sub-block 1 received (no-split pipes)

    size_t tile_floats() const { return size_t(rows) * cols; }
    size_t block_offset() const { return size_t(get_block_idx()) * in.size(); }
    // What every block should have delivered.
    std::vector<float> expected() const
    {
        std::vector<float> all;
        for (int b = 0; b < blocks; ++b) all.insert(all.end(), in.begin(), in.end());
        return all;
    }
};

Transfer make_transfer(int rows, int cols, int tiles, int blocks, uint32_t seed)
{
    Transfer t{rows, cols, tiles, blocks, random_floats(size_t(rows) * cols * tiles, seed, 4.0f), {}, {}};
    t.out.assign(t.in.size() * blocks, -99.0f);
    t.out_second.assign(t.in.size() * blocks, -99.0f);
    return t;
}

template <TileSplitAxis Split, bool NoSplitPipe = false>
void cube_to_vector(Transfer& t)
{
    using Pipe = TPipe<2, DIR_C2V, kMax * kMax * sizeof(float), 2, 2, NoSplitPipe>;
    const auto kernel = [&t] {
        Pipe pipe(nullptr, 0x0, 0x0);
        if (sim::is_cube_core()) {
            FullMat mat(t.rows, t.cols);
            TASSIGN(mat, 0x0);
            for (int i = 0; i < t.tiles; ++i) {
                Rows src(t.in.data() + i * t.tile_floats(), {t.rows, t.cols}, {t.cols});
                TLOAD(mat, src);
                TPUSH<Pipe, FullMat, Split>(pipe, mat);
            }
            return;
        }
        const int sub = int(get_subblockid());
        const Part part = part_of(Split, sub, t.rows, t.cols);
        PartVec vec(part.rows, part.cols);
        TASSIGN(vec, 0x0);
        const bool receives = Split != TILE_NO_SPLIT || NoSplitPipe || sub == 0;
        std::vector<float>& out = (Split == TILE_NO_SPLIT && sub == 1) ? t.out_second : t.out;
        for (int i = 0; i < t.tiles; ++i) {
            TPOP<Pipe, PartVec, Split>(pipe, vec);
            if (!receives) continue;  // sub-block 1 has no part of an unsplit tile
            Rows dst(out.data() + t.block_offset() + i * t.tile_floats() + size_t(part.row) * t.cols + part.col,
                     {part.rows, part.cols}, {t.cols});
            TSTORE(dst, vec);
        }
    };
    sim::launch_mixed(uint32_t(t.blocks), kernel, kernel);
}

template <TileSplitAxis Split>
void vector_to_cube(Transfer& t)
{
    using Pipe = TPipe<4, DIR_V2C, kMax * kMax * sizeof(float), 2>;
    const auto kernel = [&t] {
        Pipe pipe(nullptr, 0x0, 0x0);
        if (sim::is_cube_core()) {
            FullMat mat(t.rows, t.cols);
            TASSIGN(mat, 0x0);
            for (int i = 0; i < t.tiles; ++i) {
                TPOP<Pipe, FullMat, Split>(pipe, mat);
                Rows dst(t.out.data() + t.block_offset() + i * t.tile_floats(), {t.rows, t.cols}, {t.cols});
                TSTORE(dst, mat);
            }
            return;
        }
        const Part part = part_of(Split, int(get_subblockid()), t.rows, t.cols);
        PartVec vec(part.rows, part.cols);
        TASSIGN(vec, 0x0);
        for (int i = 0; i < t.tiles; ++i) {
            Rows src(t.in.data() + i * t.tile_floats() + size_t(part.row) * t.cols + part.col, {part.rows, part.cols}, {t.cols});
            TLOAD(vec, src);
            TPUSH<Pipe, PartVec, Split>(pipe, vec);
        }
    };
    sim::launch_mixed(uint32_t(t.blocks), kernel, kernel);
}

template <TileSplitAxis Split>
void expect_every_split_moves_the_tiles(int rows, int cols)
{
    SCOPED_TRACE("split " + std::to_string(int(Split)) + ", " + std::to_string(rows) + "x" + std::to_string(cols));
    Transfer down = make_transfer(rows, cols, 5, 2, 3);
    cube_to_vector<Split>(down);
    EXPECT_EQ(down.expected(), down.out);
    if (Split == TILE_NO_SPLIT) {
        EXPECT_EQ(down.out_second, std::vector<float>(down.out.size(), -99.0f));
    }

    Transfer up = make_transfer(rows, cols, 5, 2, 4);
    vector_to_cube<Split>(up);
    EXPECT_EQ(up.expected(), up.out);
}

TEST(TilePipe, EverySplitCarriesTilesBothWays)
{
    expect_every_split_moves_the_tiles<TILE_NO_SPLIT>(13, 24);
    expect_every_split_moves_the_tiles<TILE_UP_DOWN>(20, 32);
    expect_every_split_moves_the_tiles<TILE_LEFT_RIGHT>(9, 32);
    expect_every_split_moves_the_tiles<TILE_UP_DOWN_ODD>(31, 16);
    expect_every_split_moves_the_tiles<TILE_LEFT_RIGHT_ODD>(5, 31);
}

TEST(TilePipe, NoSplitPipeGivesBothSubBlocksTheWholeTile)
{
    Transfer t = make_transfer(16, 32, 4, 2, 5);
    cube_to_vector<TILE_NO_SPLIT, true>(t);
    EXPECT_EQ(t.expected(), t.out);
    EXPECT_EQ(t.expected(), t.out_second);
}

TEST(TilePipe, ManyBlocksOnOneThreadAndOnManyGiveTheSameBytes)
{
    // Every block moves the same tiles into its own pipe; with one thread, the waiting cores lend it.
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads scoped(threads);
        Transfer t = make_transfer(32, 32, 6, 16, 6);
        cube_to_vector<TILE_UP_DOWN>(t);
        EXPECT_EQ(t.expected(), t.out) << threads << " threads";
    }
}

// --- the global-slot flow -----------------------------------------------------------------------

TEST(TilePipe, GlobalSlotsCarryWhatTheProducerStored)
{
    constexpr int R = 16, C = 32, kTiles = 5;
    using Pipe = TPipe<6, DIR_C2V, R * C * sizeof(float), 2>;
    using Slot = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using HalfSlot = GlobalTensor<float, Shape<1, 1, 1, R / 2, C>, Stride<1, 1, 1, C, 1>>;
    using Whole = Tile<TileType::Mat, float, R, C>;
    using Half = Tile<TileType::Vec, float, R / 2, C>;
    using Plain = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using PlainHalf = GlobalTensor<float, Shape<1, 1, 1, R / 2, C>, Stride<1, 1, 1, C, 1>>;
    const std::vector<float> in = random_floats(size_t(R) * C * kTiles, 8, 4.0f);
    std::vector<float> out(in.size(), -1.0f), slots(2 * R * C, 0.0f);
    const auto kernel = [&] {
        Pipe pipe(slots.data(), 0x0, 0x0);
        if (sim::is_cube_core()) {
            Whole mat;
            TASSIGN(mat, 0x0);
            for (int i = 0; i < kTiles; ++i) {
                Plain src(const_cast<float*>(in.data()) + i * R * C);
                TLOAD(mat, src);
                Slot slot;
                TALLOC<Pipe, Slot, TILE_NO_SPLIT>(pipe, slot);
                EXPECT_EQ(slot.data(), slots.data() + (i % 2) * R * C);
                TSTORE(slot, mat);
                TPUSH<Pipe, Slot, TILE_NO_SPLIT>(pipe, slot);
            }
            return;
        }
        Half part;
        TASSIGN(part, 0x0);
        const int sub = int(get_subblockid());
        for (int i = 0; i < kTiles; ++i) {
            HalfSlot slot;
            TPOP<Pipe, HalfSlot, TILE_UP_DOWN>(pipe, slot);
            TLOAD(part, slot);
            TFREE<Pipe, HalfSlot, TILE_UP_DOWN>(pipe, slot);
            PlainHalf dst(out.data() + i * R * C + sub * (R / 2) * C);
            TSTORE(dst, part);
        }
    };
    sim::launch_mixed(1, kernel, kernel);
    EXPECT_EQ(in, out);
}

// An 8 x 32 float tile holding random data (what is pushed must have been written, in checked mode).
template <typename TileT>
TileT loaded_tile()
{
    static const std::vector<float> data = random_floats(8 * 32, 9, 4.0f);
    GlobalTensor<float, Shape<1, 1, 1, 8, 32>, Stride<1, 1, 1, 32, 1>> g(const_cast<float*>(data.data()));
    TileT t;
    TLOAD(t, g);
    return t;
}

// --- cores that wait for good -------------------------------------------------------------------

TEST(TilePipeDeadlock, AConsumerWhoseProducerEndedIsReported)
{
    using Pipe = TPipe<3, DIR_C2V, 1024, 2>;
    const auto kernel = [] {
        if (sim::is_cube_core()) return;  // pushes nothing
        Pipe pipe(nullptr, 0x0, 0x0);
        Tile<TileType::Vec, float, 8, 32> t;
        TPOP<Pipe, decltype(t), TILE_NO_SPLIT>(pipe, t);
    };
    const Diagnostic d = diagnostic_of([&] { sim::launch_mixed(2, kernel, kernel); });
    EXPECT_EQ(d.code, "ORDER_DEADLOCK");
    EXPECT_TRUE(mentions(d, "vector core 0 of block 0 waits in TPOP for tile 0 of the C2V pipe of flag 3")) << d.format();
    EXPECT_TRUE(mentions(d, "the cube core of block 0 has ended")) << d.format();
}

TEST(TilePipeDeadlock, AHandshakeThatWaitsBothWaysIsACycle)
{
    using Down = TPipe<0, DIR_C2V, 1024, 1>;
    using Up = TPipe<1, DIR_V2C, 1024, 1>;
    using VecT = Tile<TileType::Vec, float, 8, 32>;
    using MatT = Tile<TileType::Mat, float, 8, 32>;
    const auto kernel = [] {
        Down down(nullptr, 0x0, 0x0);
        Up up(nullptr, 0x0, 0x0);
        if (sim::is_cube_core()) {
            MatT m = loaded_tile<MatT>();
            TPOP<Up, MatT, TILE_NO_SPLIT>(up, m);  // waits for the vector core's tile first...
            TPUSH<Down, MatT, TILE_NO_SPLIT>(down, m);
        } else {
            VecT v;
            TPOP<Down, VecT, TILE_NO_SPLIT>(down, v);  // ...which waits for the cube's first
            TPUSH<Up, VecT, TILE_NO_SPLIT>(up, v);
        }
    };
    for (unsigned threads : {1u, many_threads()}) {
        ScopedThreads scoped(threads);
        const Diagnostic d = diagnostic_of([&] { sim::launch_mixed(3, kernel, kernel); });
        EXPECT_EQ(d.code, "ORDER_DEADLOCK");
        EXPECT_TRUE(mentions(d, "the cube core of block 0 waits in TPOP for tile 0 of the V2C pipe of flag 1")) << d.format();
        EXPECT_TRUE(mentions(d, "waits in TPOP for tile 0 of the C2V pipe of flag 0")) << d.format();
        EXPECT_TRUE(mentions(d, "the cycle closes at the cube core of block 0")) << d.format();
    }
}

TEST(TilePipeDeadlock, AFailingCoreStopsTheLaunchInsteadOfLeavingItsPartnersWaiting)
{
    using Pipe = TPipe<5, DIR_C2V, 1024, 1>;
    const auto kernel = [] {
        Pipe pipe(nullptr, 0x0, 0x0);
        Tile<TileType::Vec, float, 8, 32> t;
        if (sim::is_cube_core()) {
            auto m = loaded_tile<Tile<TileType::Mat, float, 8, 32>>();
            TPUSH<Pipe, decltype(m), TILE_NO_SPLIT>(pipe, m);  // the slot is full...
            TPUSH<Pipe, decltype(m), TILE_NO_SPLIT>(pipe, m);  // ...so this waits for the vector core
            return;
        }
        if (get_subblockid() == 0) TASSIGN(t, uint64_t(1) << 40);  // RUN_TASSIGN_RANGE: the vector core fails
    };
    const Diagnostic d = diagnostic_of([&] { sim::launch_mixed(2, kernel, kernel); });
    EXPECT_EQ(d.code, "RUN_TASSIGN_RANGE") << d.format();
}

TEST(TilePipeDeadlock, ATileLeftInThePipeAtTheEndIsAFindingOfCheckedMode)
{
    using Pipe = TPipe<8, DIR_C2V, 1024, 2>;
    const auto kernel = [] {
        Pipe pipe(nullptr, 0x0, 0x0);
        if (sim::is_cube_core()) {
            auto m = loaded_tile<Tile<TileType::Mat, float, 8, 32>>();
            TPUSH<Pipe, decltype(m), TILE_NO_SPLIT>(pipe, m);
            TPUSH<Pipe, decltype(m), TILE_NO_SPLIT>(pipe, m);
        } else {
            Tile<TileType::Vec, float, 8, 32> t;
            TPOP<Pipe, decltype(t), TILE_NO_SPLIT>(pipe, t);  // only the first
        }
    };
    {
        const test::ScopedChecked fast(false);
        sim::launch_mixed(1, kernel, kernel);  // fast mode runs it
    }
    const test::ScopedChecked checked(true);
    const Diagnostic d = diagnostic_of([&] { sim::launch_mixed(1, kernel, kernel); });
    EXPECT_EQ(d.code, "ORDER_PIPE_NOT_EMPTY");
    EXPECT_TRUE(mentions(d, "the C2V pipe of flag 8 in block 0 ends the kernel with slot 1 in use: tile 1 pushed but never popped")) << d.format();
}

TEST(CrossCoreFlags, CountersCountAndHaveFourBits)
{
    // The cube sets flag 2 fifteen times ahead; each vector core takes all fifteen.
    std::atomic<int> taken{0};
    const auto fifteen = [&] {
        for (int i = 0; i < 15; ++i) {
            if (sim::is_cube_core()) {
                runtime::set_cross_core(2);
            } else {
                runtime::wait_flag_dev(2);
                ++taken;
            }
        }
    };
    sim::launch_mixed(2, fifteen, fifteen);
    EXPECT_EQ(taken.load(), 2 * 2 * 15);
    const auto sixteen = [] {
        if (sim::is_cube_core())
            for (int i = 0; i < 16; ++i) runtime::set_cross_core(2);
    };
    EXPECT_EQ(diagnostic_of([&] { sim::launch_mixed(1, sixteen, sixteen); }).code, "RUN_CROSS_CORE_OVERFLOW");
    const auto bad_id = [] { runtime::set_intra_block(32); };
    EXPECT_EQ(diagnostic_of([&] { sim::launch_mixed(1, bad_id, bad_id); }).code, "RUN_CROSS_CORE_ID");
}

// --- misuses ------------------------------------------------------------------------------------

TEST(TilePipeDiagnostics, EachMisuseIsNamed)
{
    using VecT = Tile<TileType::Vec, float, 8, 32>;
    using MatT = Tile<TileType::Mat, float, 8, 32>;
    const auto run = [](auto kernel) { return diagnostic_of([&] { sim::launch_mixed(1, kernel, kernel); }); };

    // A slot smaller than the tile.
    Diagnostic d = run([] {
        using Small = TPipe<0, DIR_C2V, 512, 2>;
        Small pipe(nullptr, 0x0, 0x0);
        MatT m = loaded_tile<MatT>();
        if (sim::is_cube_core()) TPUSH<Small, MatT, TILE_NO_SPLIT>(pipe, m);
    });
    EXPECT_EQ(d.code, "RUN_PIPE_SLOT_SIZE");
    EXPECT_EQ(d.instruction, "TPUSH");

    // A vector tile pushed into a cube-to-vector pipe.
    d = run([] {
        using Down = TPipe<0, DIR_C2V, 1024, 2>;
        Down pipe(nullptr, 0x0, 0x0);
        VecT v;
        if (!sim::is_cube_core()) TPUSH<Down, VecT, TILE_NO_SPLIT>(pipe, v);
    });
    EXPECT_EQ(d.code, "RUN_PIPE_DIRECTION");

    // The two sides of one flag disagree on the slots.
    d = run([] {
        MatT m = loaded_tile<MatT>();
        VecT v;
        if (sim::is_cube_core()) {
            TPipe<0, DIR_C2V, 1024, 2> pipe(nullptr, 0x0, 0x0);
            TPUSH<decltype(pipe), MatT, TILE_NO_SPLIT>(pipe, m);
        } else {
            TPipe<0, DIR_C2V, 1024, 4> pipe(nullptr, 0x0, 0x0);
            TPOP<decltype(pipe), VecT, TILE_NO_SPLIT>(pipe, v);
        }
    });
    EXPECT_EQ(d.code, "RUN_PIPE_MISMATCH");

    // A consumer tile larger than its half.
    d = run([] {
        using Down = TPipe<0, DIR_C2V, 1024, 2>;
        Down pipe(nullptr, 0x0, 0x0);
        if (sim::is_cube_core()) {
            MatT m = loaded_tile<MatT>();
            TPUSH<Down, MatT, TILE_UP_DOWN>(pipe, m);
        } else {
            VecT v;  // 8 rows; each half has 4
            TPOP<Down, VecT, TILE_UP_DOWN>(pipe, v);
        }
    });
    EXPECT_EQ(d.code, "RUN_PIPE_SHAPE");
    EXPECT_EQ(d.instruction, "TPOP");

    // TPUSH of a global slot without TALLOC, and TFREE of nothing popped.
    d = run([] {
        using Down = TPipe<0, DIR_C2V, 1024, 2>;
        using Slot = GlobalTensor<float, Shape<1, 1, 1, 8, 32>, Stride<1, 1, 1, 32, 1>>;
        Down pipe(nullptr, 0x0, 0x0);
        Slot slot;
        pipe.prod.tileIndex = 1;
        if (sim::is_cube_core()) TPUSH<Down, Slot, TILE_NO_SPLIT>(pipe, slot);
    });
    EXPECT_EQ(d.code, "RUN_PIPE_PROTOCOL");
    d = run([] {
        using Down = TPipe<0, DIR_C2V, 1024, 2>;
        using Slot = GlobalTensor<float, Shape<1, 1, 1, 8, 32>, Stride<1, 1, 1, 32, 1>>;
        Down pipe(nullptr, 0x0, 0x0);
        Slot slot;
        pipe.cons.tileIndex = 1;
        if (!sim::is_cube_core()) TFREE<Down, Slot, TILE_NO_SPLIT>(pipe, slot);
    });
    EXPECT_EQ(d.code, "RUN_PIPE_PROTOCOL");
}

// --- a harness's own threads, as the public CPU simulation's tests drive them ----------------------

TEST(TilePipeHarness, ThreadsOutsideLaunchesMeetInTheBlocksPipe)
{
    constexpr int R = 16, C = 32, kTiles = 10;
    using CubeTile = Tile<TileType::Mat, float, R, C>;
    using VecTile = Tile<TileType::Vec, float, R, C>;
    using Pipe = TPipe<7, DIR_C2V, sizeof(float) * R * C, 4>;
    // The harness writes its tiles through data(), which checked mode does not see: run as it does, fast.
    const test::ScopedChecked fast(false);
    std::vector<float> storage(size_t(R) * C * 4, 0.0f);
    std::vector<std::vector<float>> received(kTiles);
    Pipe::reset_for_cpu_sim();
    Pipe pipe(storage.data(), 0x0, 0x0);
    std::thread cube([&] {
        for (int i = 0; i < kTiles; ++i) {
            CubeTile t;
            TASSIGN(t, 0);
            for (int e = 0; e < R * C; ++e) t.data()[e] = float(i * 1000 + e);
            TPUSH(t, pipe);
        }
    });
    std::thread vector([&] {
        for (int i = 0; i < kTiles; ++i) {
            VecTile t;
            TASSIGN(t, 0);
            TPOP(t, pipe);
            TFREE(pipe);
            received[i].assign(t.data(), t.data() + R * C);
        }
    });
    cube.join();
    vector.join();
    for (int i = 0; i < kTiles; ++i)
        for (int e = 0; e < R * C; ++e) ASSERT_EQ(received[i][e], float(i * 1000 + e));
}

TEST(TilePipeHarness, OneThreadPushesBothHalvesByNamingItsSubBlock)
{
    constexpr int R = 16, C = 32;
    using Half = Tile<TileType::Vec, float, R / 2, C>;
    using Whole = Tile<TileType::Mat, float, R, C>;
    using Pipe = TPipe<9, DIR_V2C, sizeof(float) * R * C, 2>;
    using Rows = GlobalTensor<float, Shape<1, 1, 1, R / 2, C>, Stride<1, 1, 1, C, 1>>;
    using All = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    std::vector<float> in = random_floats(size_t(R) * C, 12, 4.0f), out(in.size(), -1.0f);
    Pipe::reset_for_cpu_sim();
    Pipe pipe(nullptr, 0x0, 0x0);
    Half top, bottom;
    TASSIGN(top, 0x0);
    TASSIGN(bottom, Half::SizeInBytes);
    Rows top_rows(in.data()), bottom_rows(in.data() + (R / 2) * C);
    TLOAD(top, top_rows);
    TLOAD(bottom, bottom_rows);
    TPUSH<Pipe, Half, TILE_UP_DOWN>(pipe, top, 0);
    EXPECT_EQ(pipe.prod.tileIndex, 1);
    pipe.prod.tileIndex = 0;  // the other sub-block's count: it pushes its half of the same tile
    TPUSH<Pipe, Half, TILE_UP_DOWN>(pipe, bottom, 1);
    Whole whole;
    TASSIGN(whole, 0x0);
    TPOP(whole, pipe);
    All dst(out.data());
    TSTORE(dst, whole);
    EXPECT_EQ(in, out);
}

}  // namespace
