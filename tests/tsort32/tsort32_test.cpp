// TSORT32: each 32-element block of a row sorted with its indices into (value, index) pairs, against a
// plain reference (std::sort of each block with the documented order), through the C++ intrinsic and
// directly through the engine entry with hand-built descriptors.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/sort.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;
using engine::DType;
using engine::TileDesc;

namespace {

constexpr uint16_t kSentinel16 = 0x5A5A;

// A row-major tile in host memory.
struct HostTile {
    TileDesc desc;
    std::vector<uint16_t> storage;

    HostTile(DType t, int rows, int cols, int valid_rows, int valid_cols)
        : storage(static_cast<std::size_t>(int64_t(rows) * cols * engine::dtype_bits(t) / 16), kSentinel16)
    {
        desc.data = reinterpret_cast<std::byte*>(storage.data());
        desc.dtype = t;
        desc.rows = rows;
        desc.cols = cols;
        desc.valid_rows = valid_rows;
        desc.valid_cols = valid_cols;
    }
    std::byte* row(int r) const { return desc.data + int64_t(r) * desc.cols * engine::dtype_bits(desc.dtype) / 8; }
};

// A value as stored bits: float bits, or half bits in the low 16.
struct Value {
    uint32_t bits;
    double number;
};

Value make_value(DType t, double x)
{
    if (t == DType::F32) {
        const float f = float(x);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        return {b, double(f)};
    }
    const half h{static_cast<float>(x)};
    return {h.bits, double(float(h))};
}

void store_value(HostTile& t, int r, int c, const Value& v)
{
    std::memcpy(t.row(r) + c * engine::dtype_bits(t.desc.dtype) / 8, &v.bits, engine::dtype_bits(t.desc.dtype) / 8);
}

void store_index(HostTile& t, int r, int c, uint32_t i) { std::memcpy(t.row(r) + c * 4, &i, 4); }

struct Pair {
    uint32_t value_bits;
    uint32_t padding;  // half: the 16 bits after the value
    uint32_t index;
};

Pair load_pair(const HostTile& dst, DType t, int r, int p)
{
    const std::byte* at = dst.row(r) + int64_t(p) * 8;
    Pair out{0, 0, 0};
    if (t == DType::F32) {
        std::memcpy(&out.value_bits, at, 4);
    } else {
        std::memcpy(&out.value_bits, at, 2);
        std::memcpy(&out.padding, at + 2, 2);
    }
    std::memcpy(&out.index, at + 4, 4);
    return out;
}

struct Element {
    Value value;
    uint32_t index;
    int position;
};

// The documented order for non-NaN values: value descending, then index ascending, then source order.
bool sorts_before(const Element& a, const Element& b)
{
    if (a.value.number != b.value.number) return a.value.number > b.value.number;
    if (a.index != b.index) return a.index < b.index;
    return a.position < b.position;
}

struct SortCase {
    DType type;
    int rows, cols;       // dst's valid rows, src's valid columns
    bool shared_indices;  // a 1 x C index row for every row
    bool with_tmp;
};

// Runs one case through the engine on random data (many ties, both zeros) and checks every pair.
void run_and_check(const SortCase& sc, std::mt19937& rng)
{
    const int coef = sc.type == DType::F32 ? 2 : 4;
    const int padded = (sc.cols + 31) / 32 * 32;
    HostTile src(sc.type, sc.rows + 1, padded, sc.rows, sc.cols);
    HostTile idx(DType::U32, sc.shared_indices ? 1 : sc.rows, padded, sc.shared_indices ? 1 : sc.rows, sc.cols);
    HostTile dst(sc.type, sc.rows, padded * coef, sc.rows, sc.cols * coef);
    HostTile tmp(sc.type, 1, padded, 1, padded);
    std::vector<std::vector<Element>> rows(static_cast<std::size_t>(sc.rows));
    for (int r = 0; r < idx.desc.rows; ++r) {
        for (int c = 0; c < sc.cols; ++c) store_index(idx, r, c, rng() % 3 == 0 ? rng() % 8 : rng());
    }
    for (int r = 0; r < sc.rows; ++r) {
        for (int c = 0; c < sc.cols; ++c) {
            const int pick = int(rng() % 10);
            const double x = pick == 0 ? -0.0 : pick == 1 ? 0.0 : double(int(rng() % 64) - 32) / 4.0;
            const Value v = make_value(sc.type, x);
            store_value(src, r, c, v);
            uint32_t index;
            std::memcpy(&index, idx.row(sc.shared_indices ? 0 : r) + c * 4, 4);
            rows[static_cast<std::size_t>(r)].push_back({v, index, c});
        }
    }
    engine::tsort32(dst.desc, src.desc, idx.desc, sc.with_tmp ? &tmp.desc : nullptr);
    const std::string what = std::string(engine::dtype_name(sc.type)) + " " + std::to_string(sc.rows) + "x" +
                             std::to_string(sc.cols) + (sc.shared_indices ? " shared idx" : "");
    for (int r = 0; r < sc.rows; ++r) {
        auto& elements = rows[static_cast<std::size_t>(r)];
        for (int start = 0; start < sc.cols; start += 32) {
            const auto first = elements.begin() + start;
            const auto last = elements.begin() + std::min(start + 32, sc.cols);
            std::sort(first, last, sorts_before);
        }
        for (int p = 0; p < sc.cols; ++p) {
            const Pair got = load_pair(dst, sc.type, r, p);
            const Element& want = elements[static_cast<std::size_t>(p)];
            ASSERT_EQ(got.value_bits, want.value.bits) << what << " row " << r << " pair " << p;
            ASSERT_EQ(got.index, want.index) << what << " row " << r << " pair " << p;
            ASSERT_EQ(got.padding, 0u) << what;
        }
        // Nothing past the row's pairs is written.
        const auto* tail = reinterpret_cast<const uint16_t*>(dst.row(r) + int64_t(sc.cols) * 8);
        const auto* row_end = reinterpret_cast<const uint16_t*>(dst.row(r + 1));
        for (const uint16_t* p = tail; p < row_end; ++p) ASSERT_EQ(*p, kSentinel16) << what << " row " << r;
    }
}

}  // namespace

TEST(TSort32Engine, WholeBlocksMatchTheReference)
{
    std::mt19937 rng(11);
    for (const DType t : {DType::F32, DType::F16}) {
        for (int trial = 0; trial < 12; ++trial) {
            run_and_check({t, 1 + int(rng() % 9), 32 * (1 + int(rng() % 6)), trial % 3 == 0, trial % 2 == 0}, rng);
        }
    }
}

TEST(TSort32Engine, AnyColumnCountWithTmpMatchesTheReference)
{
    std::mt19937 rng(12);
    for (const DType t : {DType::F32, DType::F16}) {
        for (int cols = 1; cols <= 100; cols += 1 + int(rng() % 9)) {
            run_and_check({t, 1 + int(rng() % 5), cols, cols % 2 == 0, true}, rng);
        }
    }
}

TEST(TSort32Engine, ManyRowsAndMoreThan255BlocksPerRow)
{
    std::mt19937 rng(13);
    run_and_check({DType::F32, 64, 96, false, false}, rng);
    run_and_check({DType::F32, 2, 32 * 300 + 17, false, true}, rng);
    run_and_check({DType::F16, 1, 32 * 256, true, false}, rng);
}

// Each block is sorted on its own: a row of 300 blocks gives the blocks one-block rows would give.
TEST(TSort32, ResultsAreIdenticalWhateverTheBlockCount)
{
    std::mt19937 rng(14);
    constexpr int kBlocks = 300;
    HostTile src(DType::F32, 1, 32 * kBlocks, 1, 32 * kBlocks), idx(DType::U32, 1, 32 * kBlocks, 1, 32 * kBlocks);
    HostTile long_dst(DType::F32, 1, 64 * kBlocks, 1, 64 * kBlocks);
    HostTile blocks_src(DType::F32, kBlocks, 32, kBlocks, 32), blocks_idx(DType::U32, kBlocks, 32, kBlocks, 32);
    HostTile blocks_dst(DType::F32, kBlocks, 64, kBlocks, 64);
    for (int c = 0; c < 32 * kBlocks; ++c) {
        const Value v = make_value(DType::F32, double(int(rng() % 1000)) - 500.0);
        const uint32_t i = rng();
        store_value(src, 0, c, v);
        store_value(blocks_src, c / 32, c % 32, v);
        store_index(idx, 0, c, i);
        store_index(blocks_idx, c / 32, c % 32, i);
    }
    engine::tsort32(long_dst.desc, src.desc, idx.desc, nullptr);
    engine::tsort32(blocks_dst.desc, blocks_src.desc, blocks_idx.desc, nullptr);
    EXPECT_EQ(std::memcmp(long_dst.desc.data, blocks_dst.desc.data, 64 * kBlocks * 4), 0);
}

TEST(TSort32, EqualValuesOrderBySmallerIndexValueFirst)
{
    HostTile src(DType::F32, 1, 32, 1, 32), idx(DType::U32, 1, 32, 1, 32), dst(DType::F32, 1, 64, 1, 64);
    for (int c = 0; c < 32; ++c) {
        store_value(src, 0, c, make_value(DType::F32, c < 16 ? 1.0 : 2.0));
        store_index(idx, 0, c, uint32_t(100 - c));  // index values fall as positions rise
    }
    engine::tsort32(dst.desc, src.desc, idx.desc, nullptr);
    for (int p = 0; p < 16; ++p) EXPECT_EQ(load_pair(dst, DType::F32, 0, p).index, uint32_t(100 - 31 + p));
    for (int p = 16; p < 32; ++p) EXPECT_EQ(load_pair(dst, DType::F32, 0, p).index, uint32_t(100 - 15 + (p - 16)));
}

TEST(TSort32, EqualValueAndIndexKeepSourceOrderAndNegativeZeroEqualsZero)
{
    HostTile src(DType::F32, 1, 32, 1, 32), idx(DType::U32, 1, 32, 1, 32), dst(DType::F32, 1, 64, 1, 64);
    for (int c = 0; c < 32; ++c) {
        store_value(src, 0, c, make_value(DType::F32, c % 2 ? -0.0 : 0.0));
        store_index(idx, 0, c, uint32_t(c / 4));
    }
    engine::tsort32(dst.desc, src.desc, idx.desc, nullptr);
    for (int p = 0; p < 32; ++p) {
        const Pair got = load_pair(dst, DType::F32, 0, p);
        EXPECT_EQ(got.index, uint32_t(p / 4)) << "zeros of both signs are one value: index order";
        EXPECT_EQ(got.value_bits, p % 2 ? 0x80000000u : 0u) << "ties keep their source order";
    }
}

TEST(TSort32, NaNOrdersBySignAboveOrBelowTheInfinities)
{
    HostTile src(DType::F32, 1, 32, 1, 5), idx(DType::U32, 1, 32, 1, 5), dst(DType::F32, 1, 64, 1, 10);
    const uint32_t bits[5] = {0x7FC00000u /* +NaN */, 0x7F800000u /* +inf */, 0xFFC00000u /* -NaN */,
                              0xFF800000u /* -inf */, 0x3F800000u /* 1 */};
    for (int c = 0; c < 5; ++c) {
        store_value(src, 0, c, {bits[c], 0.0});
        store_index(idx, 0, c, uint32_t(c));
    }
    HostTile tmp(DType::F32, 1, 32, 1, 32);
    engine::tsort32(dst.desc, src.desc, idx.desc, &tmp.desc);
    const uint32_t expected[5] = {0, 1, 4, 3, 2};
    for (int p = 0; p < 5; ++p) EXPECT_EQ(load_pair(dst, DType::F32, 0, p).index, expected[p]) << p;
}

TEST(TSort32, FloatPairIsValueThenIndex)
{
    HostTile src(DType::F32, 1, 32, 1, 32), idx(DType::U32, 1, 32, 1, 32), dst(DType::F32, 1, 64, 1, 64);
    for (int c = 0; c < 32; ++c) {
        store_value(src, 0, c, make_value(DType::F32, double(c)));
        store_index(idx, 0, c, 0xABC00000u + uint32_t(c));
    }
    engine::tsort32(dst.desc, src.desc, idx.desc, nullptr);
    float value;
    uint32_t index;
    std::memcpy(&value, dst.row(0), 4);
    std::memcpy(&index, dst.row(0) + 4, 4);
    EXPECT_EQ(value, 31.0f);
    EXPECT_EQ(index, 0xABC0001Fu);
}

TEST(TSort32, HalfPairIsValueZeroThenIndex)
{
    HostTile src(DType::F16, 1, 32, 1, 32), idx(DType::U32, 1, 32, 1, 32), dst(DType::F16, 1, 128, 1, 128);
    for (int c = 0; c < 32; ++c) {
        store_value(src, 0, c, make_value(DType::F16, double(c) / 2.0));
        store_index(idx, 0, c, 0x12340000u + uint32_t(c));
    }
    engine::tsort32(dst.desc, src.desc, idx.desc, nullptr);
    uint16_t words[4];
    std::memcpy(words, dst.row(0), 8);
    EXPECT_EQ(float(half::from_bits(words[0])), 15.5f);
    EXPECT_EQ(words[1], 0u);
    EXPECT_EQ(words[2], 0x001Fu);
    EXPECT_EQ(words[3], 0x1234u);
}

TEST(TSort32, PartialLastBlockWritesOnlyItsValidPairs)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, DYNAMIC>;
    using IdxT = Tile<TileType::Vec, uint32_t, 1, 64, BLayout::RowMajor, 1, DYNAMIC>;
    using DstT = Tile<TileType::Vec, float, 1, 128, BLayout::RowMajor, 1, DYNAMIC>;
    using TmpT = Tile<TileType::Vec, float, 1, 64>;
    SrcT src(40);
    IdxT idx(40);
    DstT dst(80);
    TmpT tmp;
    for (int c = 0; c < 40; ++c) {
        src.SetValue(c, float(c % 7));
        idx.SetValue(c, uint32_t(c));
    }
    TSORT32(dst, src, idx, tmp);
    // Block 1 holds 8 values: 8 pairs (16 floats) from column 64; columns 80.. are never written.
    float value;
    std::memcpy(&value, dst.data() + 64, 4);
    EXPECT_EQ(value, 6.0f);
    EXPECT_EQ(runtime::first_unwritten(dst.data(), 128 * sizeof(float)), int64_t(80 * sizeof(float)));
}

TEST(TSort32, OneByCIndexTileIsBroadcastToEveryRow)
{
    std::mt19937 rng(15);
    run_and_check({DType::F32, 7, 64, true, false}, rng);
    run_and_check({DType::F16, 5, 45, true, true}, rng);
}

TEST(TSort32Intrinsic, StaticAndDynamicShapesBothForms)
{
    ScopedChecked checked(true);
    std::mt19937 rng(16);
    using SrcT = Tile<TileType::Vec, half, 8, 96, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using IdxT = Tile<TileType::Vec, uint32_t, 8, 96, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using DstT = Tile<TileType::Vec, half, 8, 384, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using TmpT = Tile<TileType::Vec, half, 1, 96>;
    for (int trial = 0; trial < 6; ++trial) {
        const unsigned rows = 1 + rng() % 8, cols = trial % 2 ? 32 * (1 + rng() % 3) : 1 + rng() % 96;
        SrcT src(rows, cols);
        IdxT idx(rows, cols);
        DstT dst(rows, cols * 4);
        TmpT tmp;
        std::vector<std::vector<Element>> expected(rows);
        for (unsigned r = 0; r < rows; ++r) {
            for (unsigned c = 0; c < cols; ++c) {
                const Value v = make_value(DType::F16, double(int(rng() % 40) - 20) / 8.0);
                const uint32_t i = rng() % 50;
                src.SetValue(r * 96 + c, half::from_bits(uint16_t(v.bits)));
                idx.SetValue(r * 96 + c, i);
                expected[r].push_back({v, i, int(c)});
            }
        }
        if (trial % 2) {
            Event<Op::TLOAD, Op::TSORT32> ready;
            ready = RecordEvent{};
            TSORT32(dst, src, idx, ready);
        } else {
            TSORT32(dst, src, idx, tmp);
        }
        for (unsigned r = 0; r < rows; ++r) {
            for (unsigned start = 0; start < cols; start += 32) {
                std::sort(expected[r].begin() + start, expected[r].begin() + std::min(start + 32, cols), sorts_before);
            }
            for (unsigned p = 0; p < cols; ++p) {
                uint32_t index;
                std::memcpy(&index, reinterpret_cast<const std::byte*>(dst.data() + r * 384 + 4 * p + 2), 4);
                ASSERT_EQ(dst.GetValue(r * 384 + 4 * p).bits, expected[r][p].value.bits) << r << ", " << p;
                ASSERT_EQ(index, expected[r][p].index) << r << ", " << p;
            }
        }
    }
}

TEST(TSort32Intrinsic, SeedPageAlignedExampleRunsUnchanged)
{
    // The page's example sorts never-written tiles, which only fast mode allows.
    ScopedChecked fast(false);
    struct Example {
        static void run()
        {
            // 32-aligned: single block per row
            using SrcT = Tile<TileType::Vec, float, 1, 32>;
            using IdxT = Tile<TileType::Vec, uint32_t, 1, 32>;
            using DstT = Tile<TileType::Vec, float, 1, 64>;   // 2× src cols (float)
            SrcT src; IdxT idx; DstT dst;
            TSORT32(dst, src, idx);
        }
    };
    EXPECT_NO_THROW(Example::run());
}

// The page's tail example declares Tile<Vec, half, 1, 100> and Tile<Vec, uint32_t, 1, 100>, whose rows
// (200 and 400 bytes) are not whole 32-byte blocks: LEGAL_TILE_ALIGN rejects them at compile time, as
// the device library does. The same sort with aligned capacities and 100 valid columns:
TEST(TSort32Intrinsic, SeedPageTailExampleRunsWithAlignedCapacities)
{
    static_assert(!rules::unboxed_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 1, 100, 16));
    static_assert(!rules::unboxed_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 1, 100, 32));
    ScopedChecked checked(true);
    using SrcT2 = Tile<TileType::Vec, half, 1, 112, BLayout::RowMajor, 1, 100>;
    using IdxT2 = Tile<TileType::Vec, uint32_t, 1, 104, BLayout::RowMajor, 1, 100>;
    using DstT2 = Tile<TileType::Vec, half, 1, 400>;  // 4× src cols (half)
    using TmpT  = Tile<TileType::Vec, half, 1, 128>;  // ≥ ceil32(100)=128
    SrcT2 src2; IdxT2 idx2; DstT2 dst2; TmpT tmp;
    for (int c = 0; c < 100; ++c) {
        src2.SetValue(c, half(float(c % 9)));
        idx2.SetValue(c, uint32_t(c));
    }
    TSORT32(dst2, src2, idx2, tmp);
    EXPECT_EQ(float(dst2.GetValue(0)), 8.0f);       // block 0: largest value first
    EXPECT_EQ(float(dst2.GetValue(4 * 96)), 8.0f);  // block 3 holds columns 96..99: 6, 7, 8, 0
    EXPECT_EQ(float(dst2.GetValue(4 * 97)), 7.0f);
    EXPECT_EQ(float(dst2.GetValue(4 * 99)), 0.0f);
}

TEST(TSort32Illegal, EachRuleReportsItsCode)
{
    const auto run = [](HostTile& dst, HostTile& src, HostTile& idx, HostTile* tmp) {
        return diagnostic_of([&] { engine::tsort32(dst.desc, src.desc, idx.desc, tmp ? &tmp->desc : nullptr); });
    };
    const auto fresh = [] {
        struct Tiles {
            HostTile dst{DType::F32, 2, 128, 2, 128}, src{DType::F32, 2, 64, 2, 64}, idx{DType::U32, 2, 64, 2, 64},
                tmp{DType::F32, 1, 64, 1, 64};
        };
        return Tiles{};
    };
    {
        auto t = fresh();
        EXPECT_EQ(run(t.dst, t.src, t.idx, nullptr).code, "no error");
    }
    {
        auto t = fresh();
        t.src.desc.dtype = t.dst.desc.dtype = DType::I32;
        const Diagnostic d = run(t.dst, t.src, t.idx, nullptr);
        EXPECT_EQ(d.code, "LEGAL_TSORT32_DTYPE");
        EXPECT_NE(d.actual.find("i32"), std::string::npos);
    }
    {
        auto t = fresh();
        t.dst.desc.dtype = DType::F16;
        EXPECT_EQ(run(t.dst, t.src, t.idx, nullptr).code, "LEGAL_TSORT32_SAME_DTYPE");
        t.dst.desc.dtype = DType::F32;
        t.tmp.desc.dtype = DType::F16;
        EXPECT_EQ(run(t.dst, t.src, t.idx, &t.tmp).code, "LEGAL_TSORT32_SAME_DTYPE");
    }
    {
        auto t = fresh();
        t.idx.desc.dtype = DType::I32;
        EXPECT_EQ(run(t.dst, t.src, t.idx, nullptr).code, "LEGAL_TSORT32_INDEX_DTYPE");
    }
    {
        auto t = fresh();
        t.idx.desc.loc = TileType::Mat;
        EXPECT_EQ(run(t.dst, t.src, t.idx, nullptr).code, "LEGAL_TSORT32_LOCATION");
        t.idx.desc.loc = TileType::Vec;
        t.src.desc.slayout = SLayout::RowMajor;
        EXPECT_EQ(run(t.dst, t.src, t.idx, nullptr).code, "LEGAL_TSORT32_LAYOUT");
    }
    {
        auto t = fresh();
        t.src.desc.valid_cols = 40;
        const Diagnostic d = run(t.dst, t.src, t.idx, nullptr);
        EXPECT_EQ(d.code, "LEGAL_TSORT32_COLS");
        EXPECT_EQ(d.actual, "40");
        EXPECT_EQ(run(t.dst, t.src, t.idx, &t.tmp).code, "no error");
        t.tmp.desc.cols = 32;
        EXPECT_EQ(run(t.dst, t.src, t.idx, &t.tmp).code, "LEGAL_TSORT32_TMP_SIZE");
    }
    {
        auto t = fresh();
        t.dst.desc.valid_cols = 100;
        const Diagnostic d = run(t.dst, t.src, t.idx, nullptr);
        EXPECT_EQ(d.code, "LEGAL_TSORT32_DST_SHAPE");
        EXPECT_NE(d.expected.find("128"), std::string::npos);
    }
    {
        auto t = fresh();
        t.src.desc.valid_rows = 1;
        EXPECT_EQ(run(t.dst, t.src, t.idx, nullptr).code, "LEGAL_TSORT32_SHAPE");
        t.src.desc.valid_rows = 2;
        t.idx.desc.valid_cols = 32;
        const Diagnostic d = run(t.dst, t.src, t.idx, nullptr);
        EXPECT_EQ(d.code, "LEGAL_TSORT32_SHAPE");
        EXPECT_EQ(d.operand, "idx");
    }
}
