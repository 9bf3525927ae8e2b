// The written-byte shadow state behind checked mode, against a plain one-flag-per-byte reference:
// marks and queries of arbitrary byte ranges, tiles of every layout (their valid regions, the element
// reported first in row order), and marks of neighbouring bytes from two threads.
#include <pto/engine/access.hpp>
#include <pto/runtime/memory.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace pto;
using namespace pto::test;
using engine::DType;
using engine::TileDesc;

namespace {

// Checked mode with fresh (never-written) memories for every call of fresh().
class ShadowState : public ::testing::Test {
protected:
    void SetUp() override { runtime::set_checked(true); }
    void TearDown() override { runtime::set_checked(false); }
    static void fresh()
    {
        runtime::set_checked(false);
        runtime::set_checked(true);
    }
};

// One flag per byte of [base, base + size), and the first-unwritten query over it.
struct ReferenceShadow {
    std::vector<bool> written;
    explicit ReferenceShadow(std::size_t size) : written(size, false) {}
    void mark(std::size_t at, std::size_t n) { std::fill_n(written.begin() + at, n, true); }
    int64_t first_unwritten(std::size_t at, std::size_t n) const
    {
        for (std::size_t i = 0; i < n; ++i)
            if (!written[at + i]) return int64_t(i);
        return -1;
    }
    // Over `lines` ranges of n bytes, `pitch` apart.
    void mark(std::size_t at, std::size_t n, std::size_t pitch, std::size_t lines)
    {
        for (std::size_t i = 0; i < lines; ++i) mark(at + i * pitch, n);
    }
    int64_t first_unwritten(std::size_t at, std::size_t n, std::size_t pitch, std::size_t lines) const
    {
        for (std::size_t i = 0; i < lines; ++i)
            if (const int64_t bad = first_unwritten(at + i * pitch, n); bad >= 0) return int64_t(i * pitch) + bad;
        return -1;
    }
};

// Byte range [first, end) of storage element `element` of `t` (two I4 elements share a byte).
std::pair<int64_t, int64_t> element_bytes(const TileDesc& t, int64_t element)
{
    const int bits = t.element_bits();
    return {element * bits / 8, ((element + 1) * bits + 7) / 8};
}

struct Arrangement {
    BLayout blayout;
    SLayout slayout;
    int fractal_bytes;
};

constexpr Arrangement kArrangements[] = {
    {BLayout::RowMajor, SLayout::NoneBox, 512},   // row-major
    {BLayout::ColMajor, SLayout::NoneBox, 512},   // column-major
    {BLayout::ColMajor, SLayout::RowMajor, 512},  // Nz
    {BLayout::RowMajor, SLayout::ColMajor, 512},  // Zn
    {BLayout::RowMajor, SLayout::RowMajor, 512},  // Zz
    {BLayout::ColMajor, SLayout::RowMajor, 1024}, // accumulator fractals
};
constexpr DType kDTypes[] = {DType::F32, DType::F16, DType::U8, DType::I64, DType::I4};

// A tile of random arrangement, element type, capacity (whole boxes) and valid region at the start of UB.
TileDesc random_tile(std::mt19937& rng)
{
    TileDesc t;
    const Arrangement& a = kArrangements[rng() % std::size(kArrangements)];
    t.blayout = a.blayout;
    t.slayout = a.slayout;
    t.fractal_bytes = a.fractal_bytes;
    t.dtype = kDTypes[rng() % std::size(kDTypes)];
    if (t.boxed()) {
        t.rows = t.box_rows() * int(1 + rng() % 3);
        t.cols = t.box_cols() * int(1 + rng() % 3);
    } else {
        t.rows = int(1 + rng() % 40);
        t.cols = int(1 + rng() % 40);
    }
    t.valid_rows = int(1 + rng() % t.rows);
    t.valid_cols = int(1 + rng() % t.cols);
    t.data = runtime::tile_address(TileType::Vec, 0, uint64_t(t.bytes()));
    return t;
}

// "(r, c)": the first element of rows x cols of `t`, in row order, with a byte the reference has not
// seen written; empty when there is none.
std::string first_unwritten_element(const TileDesc& t, int rows, int cols, const ReferenceShadow& reference)
{
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const auto [first, end] = element_bytes(t, t.offset(r, c));
            if (reference.first_unwritten(std::size_t(first), std::size_t(end - first)) >= 0)
                return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
        }
    return "";
}

// require_written(t, rows x cols) raises RUN_UNINIT_READ at the element the reference names, or nothing.
void expect_require_written_agrees(const TileDesc& t, int rows, int cols, const ReferenceShadow& reference,
                                   const std::string& context)
{
    const std::string expected = first_unwritten_element(t, rows, cols, reference);
    const Diagnostic d = diagnostic_of([&] { engine::require_written(t, rows, cols, "src"); });
    if (expected.empty()) {
        EXPECT_EQ(d.code, "no error") << context << ": " << d.message;
        return;
    }
    EXPECT_EQ(d.code, "RUN_UNINIT_READ") << context;
    EXPECT_EQ(d.operand, "src") << context;
    EXPECT_TRUE(mentions(d, "element " + expected + " ")) << context << ": expected " << expected << ", " << d.message;
}

std::string describe(const TileDesc& t)
{
    return std::string(engine::dtype_name(t.dtype)) + " " + std::to_string(t.rows) + "x" + std::to_string(t.cols) +
           " valid " + std::to_string(t.valid_rows) + "x" + std::to_string(t.valid_cols) + " blayout " +
           std::to_string(int(t.blayout)) + " slayout " + std::to_string(int(t.slayout)) + " fractal " +
           std::to_string(t.fractal_bytes);
}

}  // namespace

TEST_F(ShadowState, RangesMarkedAndQueriedMatchAByteReference)
{
    std::mt19937 rng(7);
    constexpr std::size_t kSpan = 4096;
    for (int trial = 0; trial < 20; ++trial) {
        fresh();
        std::byte* base = runtime::tile_address(TileType::Vec, 0x1000, kSpan);
        // A view of the span's memory, and one of another memory (whose ranges there look their memory up).
        const std::shared_ptr<std::byte> other = runtime::allocate_auto(TileType::Vec, 64);
        const runtime::ShadowView views[] = {{base, kSpan}, {other.get(), 64}};
        ReferenceShadow reference(kSpan);
        // Single ranges of up to 700 bytes, or up to 9 lines of up to 100 bytes, within the span.
        struct Lines {
            std::size_t at, n, pitch, lines;
        };
        auto random_lines = [&] {
            const bool single = rng() % 2;
            const std::size_t n = 1 + rng() % (single ? 700 : 100);
            const std::size_t pitch = single ? n : n + rng() % 100;
            const std::size_t lines = single ? 1 : 1 + rng() % 9;
            const std::size_t extent = (lines - 1) * pitch + n;
            return Lines{std::size_t(rng() % (kSpan - extent + 1)), n, pitch, lines};
        };
        for (int step = 0; step < 300; ++step) {
            if (rng() % 3 == 0) {
                const auto [at, n, pitch, lines] = random_lines();
                const runtime::ShadowView& view = views[rng() % 2];
                switch (rng() % 3) {
                    case 0: runtime::mark_written(base + at, n); reference.mark(at, n); break;
                    case 1: view.mark_written(base + at, n); reference.mark(at, n); break;
                    default: view.mark_written(base + at, n, pitch, lines); reference.mark(at, n, pitch, lines);
                }
            }
            const auto [at, n, pitch, lines] = random_lines();
            const std::string where = "trial " + std::to_string(trial) + " at " + std::to_string(at) + ": " +
                                      std::to_string(lines) + " x " + std::to_string(n) + " bytes, pitch " +
                                      std::to_string(pitch);
            ASSERT_EQ(runtime::first_unwritten(base + at, n), reference.first_unwritten(at, n)) << where;
            for (const runtime::ShadowView& view : views) {
                ASSERT_EQ(view.first_unwritten(base + at, n), reference.first_unwritten(at, n)) << where;
                ASSERT_EQ(view.first_unwritten(base + at, n, pitch, lines),
                          reference.first_unwritten(at, n, pitch, lines))
                    << where;
            }
        }
    }
}

TEST_F(ShadowState, EmptyRangesAndForeignMemoryReadAsWritten)
{
    std::byte* base = runtime::tile_address(TileType::Vec, 0, 64);
    EXPECT_EQ(runtime::first_unwritten(base, 0), -1);
    EXPECT_EQ(runtime::first_unwritten(base, 1), 0);
    std::vector<std::byte> host(256);
    const runtime::ShadowView view(host.data(), host.size());
    view.mark_written(host.data(), host.size());  // no-op
    EXPECT_EQ(view.first_unwritten(host.data(), host.size()), -1);
    EXPECT_EQ(view.first_unwritten(base + 3, 10), 0);  // runtime memory outside the view is still tracked
    view.mark_written(base + 3, 10);
    EXPECT_EQ(runtime::first_unwritten(base, 64), 0);
    EXPECT_EQ(runtime::first_unwritten(base + 3, 64), 10);
}

TEST_F(ShadowState, UnwrittenElementOfAnyLayoutIsReportedFirstInRowOrder)
{
    std::mt19937 rng(11);
    for (int trial = 0; trial < 300; ++trial) {
        fresh();
        const TileDesc t = random_tile(rng);
        ReferenceShadow reference(std::size_t(t.bytes()));
        // Write every valid element but a few (none in a third of the trials).
        const int gaps = rng() % 3 == 0 ? 0 : int(1 + rng() % 3);
        std::vector<std::pair<int, int>> skipped;
        for (int g = 0; g < gaps; ++g) skipped.emplace_back(int(rng() % t.valid_rows), int(rng() % t.valid_cols));
        for (int r = 0; r < t.valid_rows; ++r)
            for (int c = 0; c < t.valid_cols; ++c) {
                if (std::find(skipped.begin(), skipped.end(), std::pair{r, c}) != skipped.end()) continue;
                const auto [first, end] = element_bytes(t, t.offset(r, c));
                runtime::mark_written(t.data + first, std::size_t(end - first));
                reference.mark(std::size_t(first), std::size_t(end - first));
            }
        expect_require_written_agrees(t, t.valid_rows, t.valid_cols, reference, describe(t));
    }
}

TEST_F(ShadowState, MarkingATileRegionMarksExactlyItsBytes)
{
    std::mt19937 rng(13);
    for (int trial = 0; trial < 300; ++trial) {
        fresh();
        const TileDesc t = random_tile(rng);
        engine::mark_written(t);
        ReferenceShadow reference(std::size_t(t.bytes()));
        for (int r = 0; r < t.valid_rows; ++r)
            for (int c = 0; c < t.valid_cols; ++c) {
                const auto [first, end] = element_bytes(t, t.offset(r, c));
                reference.mark(std::size_t(first), std::size_t(end - first));
            }
        for (int64_t b = 0; b < t.bytes(); ++b) {
            ASSERT_EQ(runtime::first_unwritten(t.data + b, 1), reference.first_unwritten(std::size_t(b), 1))
                << describe(t) << ", byte " << b;
        }
        expect_require_written_agrees(t, t.valid_rows, t.valid_cols, reference, describe(t));
        expect_require_written_agrees(t, t.rows, t.cols, reference, describe(t) + ", whole tile");
    }
}

TEST_F(ShadowState, NeighbouringBytesMarkedFromTwoThreadsAreAllKept)
{
    // Many small fresh memories; in each, two threads in step mark every other byte, one at a time, so
    // that both keep setting bits of the same shadow words at once (when two cores are free to run them).
    constexpr int kRounds = 2000;
    constexpr std::size_t kSpan = 256;
    std::vector<std::shared_ptr<std::byte>> memories;
    for (int round = 0; round < kRounds; ++round) memories.push_back(runtime::allocate_auto(TileType::Vec, kSpan));
    std::atomic<int> arrivals{0};
    auto mark_every_other = [&](std::size_t from) {
        for (int round = 0; round < kRounds; ++round) {
            std::byte* memory = memories[round].get();
            const runtime::ShadowView view(memory, kSpan);
            // Spin (a sleeping barrier wakes the two far apart), yielding if the other thread is not running.
            arrivals.fetch_add(1);
            for (int spins = 0; arrivals.load() < 2 * (round + 1); ++spins)
                if (spins > 100000) std::this_thread::yield();
            for (std::size_t i = from; i < kSpan; i += 2) view.mark_written(memory + i, 1);
        }
    };
    std::thread even(mark_every_other, 0), odd(mark_every_other, 1);
    even.join();
    odd.join();
    for (int round = 0; round < kRounds; ++round)
        ASSERT_EQ(runtime::first_unwritten(memories[round].get(), kSpan), -1) << "round " << round;
}
