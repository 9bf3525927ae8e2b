// TGATHER, mask-pattern form: every pattern along both axes, against a plain reference loop, through
// the C++ intrinsic and directly through the engine entry.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/gather.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;
using engine::DType;
using engine::TileDesc;

namespace {

// A row-major tile in host memory, elements as raw bit patterns.
struct HostTile {
    TileDesc desc;
    std::vector<uint32_t> storage;

    HostTile(DType t, int rows, int cols, int valid_rows, int valid_cols)
        : storage(static_cast<std::size_t>(rows * cols), 0)
    {
        desc.data = reinterpret_cast<std::byte*>(storage.data());
        desc.dtype = t;
        desc.rows = rows;
        desc.cols = cols;
        desc.valid_rows = valid_rows;
        desc.valid_cols = valid_cols;
    }
    int bytes() const { return engine::dtype_bits(desc.dtype) / 8; }
    uint32_t get(int r, int c) const
    {
        uint32_t v = 0;
        std::memcpy(&v, desc.data + (int64_t(r) * desc.cols + c) * bytes(), static_cast<std::size_t>(bytes()));
        return v;
    }
    void set(int r, int c, uint32_t v)
    {
        std::memcpy(desc.data + (int64_t(r) * desc.cols + c) * bytes(), &v, static_cast<std::size_t>(bytes()));
    }
};

constexpr MaskPattern kPatterns[] = {MaskPattern::P0101, MaskPattern::P1010, MaskPattern::P0001, MaskPattern::P0010,
                                     MaskPattern::P0100, MaskPattern::P1000, MaskPattern::P1111};

// The pattern's digits, read right to left, say which position of each group of 2 or 4 it keeps.
bool keeps(MaskPattern p, int position)
{
    switch (p) {
        case MaskPattern::P0101: return position % 2 == 0;
        case MaskPattern::P1010: return position % 2 == 1;
        case MaskPattern::P0001: return position % 4 == 0;
        case MaskPattern::P0010: return position % 4 == 1;
        case MaskPattern::P0100: return position % 4 == 2;
        case MaskPattern::P1000: return position % 4 == 3;
        case MaskPattern::P1111: return true;
    }
    return false;
}

constexpr uint32_t kUntouched = 0xA5A5A5A5u;

// Reference, GATHER_ROW: the kept elements of src's valid rows, in order, into dst's valid region.
void expect_row_gather(const HostTile& dst, const HostTile& src, MaskPattern p, const std::string& what)
{
    std::vector<uint32_t> stream;
    for (int r = 0; r < src.desc.valid_rows; ++r) {
        for (int c = 0; c < src.desc.valid_cols; ++c) {
            if (keeps(p, c)) stream.push_back(src.get(r, c));
        }
    }
    const uint32_t untouched = kUntouched & (dst.bytes() == 4 ? 0xFFFFFFFFu : (1u << (8 * dst.bytes())) - 1);
    std::size_t n = 0;
    for (int r = 0; r < dst.desc.rows; ++r) {
        for (int c = 0; c < dst.desc.cols; ++c) {
            const bool valid = r < dst.desc.valid_rows && c < dst.desc.valid_cols;
            const uint32_t expected = valid && n < stream.size() ? stream[n] : untouched;
            if (valid) ++n;
            ASSERT_EQ(dst.get(r, c), expected) << what << " at (" << r << ", " << c << ")";
        }
    }
}

// Reference, GATHER_COL: the kept rows of src's valid rows become dst's rows.
void expect_col_gather(const HostTile& dst, const HostTile& src, MaskPattern p, const std::string& what)
{
    std::vector<int> kept;
    for (int r = 0; r < src.desc.valid_rows; ++r) {
        if (keeps(p, r)) kept.push_back(r);
    }
    const uint32_t untouched = kUntouched & (dst.bytes() == 4 ? 0xFFFFFFFFu : (1u << (8 * dst.bytes())) - 1);
    for (int r = 0; r < dst.desc.rows; ++r) {
        for (int c = 0; c < dst.desc.cols; ++c) {
            const bool written = r < dst.desc.valid_rows && c < dst.desc.valid_cols && r < int(kept.size());
            ASSERT_EQ(dst.get(r, c), written ? src.get(kept[static_cast<std::size_t>(r)], c) : untouched)
                << what << " at (" << r << ", " << c << ")";
        }
    }
}

void fill_random(HostTile& t, std::mt19937& rng)
{
    for (int r = 0; r < t.desc.rows; ++r) {
        for (int c = 0; c < t.desc.cols; ++c) t.set(r, c, rng() | 1u);
    }
}

void fill_untouched(HostTile& t)
{
    for (int r = 0; r < t.desc.rows; ++r) {
        for (int c = 0; c < t.desc.cols; ++c) t.set(r, c, kUntouched);
    }
}

}  // namespace

TEST(TGatherMaskEngine, EveryPatternAlongRowsMatchesTheReference)
{
    std::mt19937 rng(99);
    for (const DType t : {DType::I8, DType::U16, DType::F16, DType::BF16, DType::F32, DType::I32, DType::F8E4M3}) {
        for (const MaskPattern p : kPatterns) {
            for (int trial = 0; trial < 6; ++trial) {
                const int per_block = 32 / (engine::dtype_bits(t) / 8);
                HostTile src(t, 1 + int(rng() % 12), per_block * (1 + int(rng() % 4)), 0, 0);
                src.desc.valid_rows = 1 + int(rng() % src.desc.rows);
                src.desc.valid_cols = 1 + int(rng() % src.desc.cols);
                const int dst_cols = per_block * (1 + int(rng() % 3));
                HostTile dst(t, 1 + int(rng() % 12), dst_cols, 0, dst_cols);
                dst.desc.valid_rows = 1 + int(rng() % dst.desc.rows);
                fill_random(src, rng);
                fill_untouched(dst);
                engine::tgather_mask(dst.desc, src.desc, p, GatherAxis::GATHER_ROW);
                expect_row_gather(dst, src, p,
                                  std::string(engine::dtype_name(t)) + " pattern " + std::to_string(int(p)));
            }
        }
    }
}

TEST(TGatherMaskEngine, EveryPatternAlongColumnsMatchesTheReference)
{
    std::mt19937 rng(7);
    for (const DType t : {DType::U8, DType::I16, DType::F16, DType::F32, DType::U32, DType::HiF8}) {
        for (const MaskPattern p : kPatterns) {
            for (int trial = 0; trial < 6; ++trial) {
                const int per_block = 32 / (engine::dtype_bits(t) / 8);
                HostTile src(t, 1 + int(rng() % 20), per_block * (1 + int(rng() % 3)), 0, 0);
                src.desc.valid_rows = 1 + int(rng() % src.desc.rows);
                src.desc.valid_cols = 1 + int(rng() % src.desc.cols);
                HostTile dst(t, 1 + int(rng() % 10), per_block * (1 + int(rng() % 3)), 0, 0);
                dst.desc.valid_rows = 1 + int(rng() % dst.desc.rows);
                dst.desc.valid_cols = 1 + int(rng() % std::min(dst.desc.cols, src.desc.valid_cols));
                fill_random(src, rng);
                fill_untouched(dst);
                engine::tgather_mask(dst.desc, src.desc, p, GatherAxis::GATHER_COL);
                expect_col_gather(dst, src, p,
                                  std::string(engine::dtype_name(t)) + " pattern " + std::to_string(int(p)));
            }
        }
    }
}

TEST(TGatherMaskEngine, DstMayBeAnotherTypeOfTheSameSize)
{
    HostTile src(DType::F32, 1, 8, 1, 8), dst(DType::I32, 1, 8, 1, 4);
    dst.desc.cols = 4;
    for (int c = 0; c < 8; ++c) src.set(0, c, 0x3F800000u + uint32_t(c));
    engine::tgather_mask(dst.desc, src.desc, MaskPattern::P1010, GatherAxis::GATHER_ROW);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(dst.get(0, c), 0x3F800000u + uint32_t(2 * c + 1));
}

// Decision: the kept elements fill dst's valid region and stop there; the page's own example selects
// 128 elements of a 16 x 16 tile into a 1 x 16 dst.
TEST(TGather, MaskSelectionStopsWhenDstsValidRegionIsFull)
{
    HostTile src(DType::F32, 16, 16, 16, 16), dst(DType::F32, 2, 16, 1, 16);
    for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 16; ++c) src.set(r, c, uint32_t(r * 16 + c));
    }
    fill_untouched(dst);
    engine::tgather_mask(dst.desc, src.desc, MaskPattern::P0101, GatherAxis::GATHER_ROW);
    for (int c = 0; c < 16; ++c) EXPECT_EQ(dst.get(0, c), uint32_t(2 * c)) << "rows 0 and 1 of src, even columns";
    for (int c = 0; c < 16; ++c) EXPECT_EQ(dst.get(1, c), kUntouched) << "beyond the valid region";
}

// Decision: a selection shorter than dst's valid region leaves the rest of it untouched (and, in checked
// mode, unwritten).
TEST(TGather, MaskSelectionShorterThanDstLeavesTheRestUnwritten)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, float, 2, 8>;
    using DstT = Tile<TileType::Vec, float, 2, 8>;
    SrcT src;
    DstT dst;
    for (int i = 0; i < 16; ++i) src.SetValue(i, float(i));
    TGATHER<DstT, SrcT, MaskPattern::P0001>(dst, src);  // keeps 4 of 16: columns 0 and 4 of both rows
    EXPECT_EQ(dst.GetValue(0), 0.0f);
    EXPECT_EQ(dst.GetValue(1), 4.0f);
    EXPECT_EQ(dst.GetValue(2), 8.0f);
    EXPECT_EQ(dst.GetValue(3), 12.0f);
    // A later instruction reading all of dst finds element (0, 4) never written.
    DstT again;
    const Diagnostic d = diagnostic_of([&] { TGATHER<DstT, DstT, MaskPattern::P1111>(again, dst); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_NE(d.message.find("(0, 4)"), std::string::npos) << d.message;
}

TEST(TGatherMaskIntrinsic, BothAxesWithStaticAndDynamicValidShapesAndEvents)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, half, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using RowDstT = Tile<TileType::Vec, half, 8, 32>;
    using ColDstT = Tile<TileType::Vec, half, 8, 32, BLayout::RowMajor, DYNAMIC, 32>;
    std::mt19937 rng(5);
    SrcT src(12, 32);
    std::vector<float> values(16 * 32);
    for (int i = 0; i < 16 * 32; ++i) {
        values[static_cast<std::size_t>(i)] = float(int(rng() % 2000) - 1000) / 8.0f;
        src.SetValue(i, half(values[static_cast<std::size_t>(i)]));
    }
    RowDstT row_dst;
    Event<Op::TLOAD, Op::TGATHER> loaded;
    loaded = RecordEvent{};
    TGATHER<RowDstT, SrcT, MaskPattern::P0100>(row_dst, src, loaded);  // columns 2, 6, 10, ...: 8 per row
    for (int i = 0; i < 12 * 8; ++i) {
        const int r = i / 8, c = 4 * (i % 8) + 2;
        ASSERT_EQ(float(row_dst.GetValue(i)), values[static_cast<std::size_t>(r * 32 + c)]) << i;
    }
    ColDstT col_dst(6);
    TGATHER<ColDstT, SrcT, MaskPattern::P1010, GatherAxis::GATHER_COL>(col_dst, src);  // rows 1, 3, .., 11
    for (int r = 0; r < 6; ++r) {
        for (int c = 0; c < 32; ++c) {
            ASSERT_EQ(float(col_dst.GetValue(r * 32 + c)), values[static_cast<std::size_t>((2 * r + 1) * 32 + c)]);
        }
    }
}

TEST(TGatherMaskIntrinsic, SeedPageExampleManualRunsUnchanged)
{
    // The page's example reads a never-written tile, which only fast mode allows.
    ScopedChecked fast(false);
    struct Example {
        static void example_manual()
        {
            using SrcT = Tile<TileType::Vec, float, 16, 16>;
            using DstT = Tile<TileType::Vec, float, 1, 16>;
            SrcT src;
            DstT dst;
            TASSIGN(src, 0x1000);
            TASSIGN(dst, 0x2000);
            TGATHER<DstT, SrcT, MaskPattern::P0101>(dst, src);
        }
    };
    EXPECT_NO_THROW(Example::example_manual());
}

TEST(TGatherMaskIllegal, EachRuleReportsItsCode)
{
    const auto run = [](HostTile& dst, HostTile& src, GatherAxis axis) {
        return diagnostic_of([&] { engine::tgather_mask(dst.desc, src.desc, MaskPattern::P0101, axis); });
    };
    {
        HostTile dst(DType::F32, 4, 8, 4, 8), src(DType::F32, 4, 8, 4, 8);
        src.desc.blayout = BLayout::ColMajor;
        const Diagnostic d = run(dst, src, GatherAxis::GATHER_ROW);
        EXPECT_EQ(d.code, "LEGAL_TGATHER_LAYOUT");
        EXPECT_EQ(d.operand, "src");
    }
    {
        HostTile dst(DType::F32, 4, 8, 4, 8), src(DType::F32, 4, 8, 4, 8);
        dst.desc.loc = TileType::Acc;
        EXPECT_EQ(run(dst, src, GatherAxis::GATHER_ROW).code, "LEGAL_TGATHER_LOCATION");
    }
    {
        HostTile dst(DType::F32, 4, 8, 4, 8), src(DType::F16, 4, 16, 4, 16);
        const Diagnostic d = run(dst, src, GatherAxis::GATHER_ROW);
        EXPECT_EQ(d.code, "LEGAL_TGATHER_SAME_SIZE");
        EXPECT_NE(d.expected.find("16"), std::string::npos);
    }
    {
        HostTile dst(DType::I64, 4, 8, 4, 8), src(DType::I64, 4, 8, 4, 8);
        EXPECT_EQ(run(dst, src, GatherAxis::GATHER_ROW).code, "LEGAL_TGATHER_MASK_DTYPE");
    }
    {
        HostTile dst(DType::F32, 4, 8, 4, 6), src(DType::F32, 4, 8, 4, 8);
        EXPECT_EQ(run(dst, src, GatherAxis::GATHER_ROW).code, "LEGAL_TGATHER_DST_CONTIGUOUS");
        EXPECT_EQ(run(dst, src, GatherAxis::GATHER_COL).code, "no error") << "only the row axis writes one run";
    }
    {
        HostTile dst(DType::F32, 4, 16, 2, 16), src(DType::F32, 4, 16, 4, 9);
        const Diagnostic d = run(dst, src, GatherAxis::GATHER_COL);
        EXPECT_EQ(d.code, "LEGAL_TGATHER_SHAPE");
        EXPECT_NE(d.expected.find("9"), std::string::npos);
    }
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        HostTile dst(DType::I8, 4, 32, 4, 32), src(DType::I8, 4, 32, 4, 32);
        const Diagnostic d = run(dst, src, GatherAxis::GATHER_ROW);
        EXPECT_EQ(d.code, "LEGAL_TGATHER_MASK_DTYPE") << "8-bit selection is A5 only";
        EXPECT_NE(d.message.find("a2a3"), std::string::npos);
    }
    {
        ScopedTarget a5(profile::Target::A5);
        HostTile dst(DType::I8, 4, 32, 4, 32), src(DType::I8, 4, 32, 4, 32);
        EXPECT_EQ(run(dst, src, GatherAxis::GATHER_ROW).code, "no error");
    }
}
