// TGATHER, index form: dst(i, j) = src0's flat element indices(i, j), against a plain reference loop,
// through the C++ intrinsic and directly through the engine entry with hand-built descriptors.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/gather.hpp>

#include <gtest/gtest.h>
#include <hwy/targets.h>
#include <sys/mman.h>
#include <unistd.h>

#include "support/test_support.hpp"

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;
using engine::DType;
using engine::TileDesc;

namespace {

template <typename T>
uint64_t bits_of(T v)
{
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
}

template <typename T>
T from_bits(uint64_t b)
{
    T v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

// A tile in host memory: a descriptor over owned storage, filled and read in logical coordinates.
struct HostTile {
    TileDesc desc;
    std::vector<uint64_t> storage;

    HostTile(DType t, int rows, int cols, int valid_rows, int valid_cols, BLayout b = BLayout::RowMajor,
             SLayout s = SLayout::NoneBox)
        : storage(static_cast<std::size_t>(int64_t(rows) * cols * engine::dtype_bits(t) / 64 + 1), 0)
    {
        desc.data = reinterpret_cast<std::byte*>(storage.data());
        desc.dtype = t;
        desc.rows = rows;
        desc.cols = cols;
        desc.valid_rows = valid_rows;
        desc.valid_cols = valid_cols;
        desc.blayout = b;
        desc.slayout = s;
    }
    int bytes() const { return engine::dtype_bits(desc.dtype) / 8; }
    uint64_t get(int r, int c) const
    {
        uint64_t v = 0;
        std::memcpy(&v, desc.data + desc.offset(r, c) * bytes(), static_cast<std::size_t>(bytes()));
        return v;
    }
    void set(int r, int c, uint64_t v)
    {
        std::memcpy(desc.data + desc.offset(r, c) * bytes(), &v, static_cast<std::size_t>(bytes()));
    }
};

// Random bit patterns, never all zero.
uint64_t random_bits(std::mt19937& rng, int bits)
{
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    uint64_t v = 0;
    while (v == 0) v = (uint64_t{rng()} << 32 | rng()) & mask;
    return v;
}

// The reference: every dst element of the valid region from its index, clamped to the capacity.
void expect_gathered(const HostTile& dst, const HostTile& src, const HostTile& idx, const std::string& what)
{
    const int64_t extent = int64_t(src.desc.rows) * src.desc.cols;
    for (int i = 0; i < dst.desc.valid_rows; ++i) {
        for (int j = 0; j < dst.desc.valid_cols; ++j) {
            int64_t k = static_cast<int64_t>(idx.get(i, j));
            if (k >= extent) k = extent - 1;
            ASSERT_EQ(dst.get(i, j), src.get(static_cast<int>(k / src.desc.cols), static_cast<int>(k % src.desc.cols)))
                << what << " at (" << i << ", " << j << ")";
        }
    }
}

struct Layout2 {
    BLayout b;
    SLayout s;
    const char* name;
};

constexpr Layout2 kLayouts[] = {{BLayout::RowMajor, SLayout::NoneBox, "row-major"},
                                {BLayout::ColMajor, SLayout::NoneBox, "col-major"},
                                {BLayout::ColMajor, SLayout::RowMajor, "Nz boxed"},
                                {BLayout::RowMajor, SLayout::ColMajor, "Zn boxed"}};

constexpr DType kDataTypes[] = {DType::F32, DType::F16, DType::BF16, DType::I16, DType::U16, DType::I32, DType::U32};
constexpr DType kIndexTypes[] = {DType::I16, DType::U16, DType::I32, DType::U32};

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Through the engine: every data type, index type and layout, random shapes and valid regions.

TEST(TGatherIndexEngine, EveryDTypeIndexTypeAndLayoutMatchesTheReference)
{
    std::mt19937 rng(1234);
    for (const DType data : kDataTypes) {
        for (const DType index : kIndexTypes) {
            for (const Layout2& layout : kLayouts) {
                for (int trial = 0; trial < 3; ++trial) {
                    // 16-row multiples satisfy every layout's box and alignment rule for 16/32-bit types.
                    const int rows = 16 * (1 + int(rng() % 2)), cols = 16 * (1 + int(rng() % 3));
                    const int valid_rows = 1 + int(rng() % rows);
                    HostTile src(data, 16 * (1 + int(rng() % 2)), 16 * (1 + int(rng() % 2)), 0, 0, layout.b, layout.s);
                    src.desc.valid_rows = 1 + int(rng() % src.desc.rows);
                    src.desc.valid_cols = 1 + int(rng() % src.desc.cols);
                    HostTile dst(data, rows, cols, valid_rows, cols, layout.b, layout.s);
                    HostTile idx(index, rows, cols, rows, cols, layout.b, layout.s);
                    const int64_t extent = int64_t(src.desc.rows) * src.desc.cols;
                    const int index_bits = engine::dtype_bits(index);
                    const int64_t max_index = index_bits == 16 && index == DType::I16 ? 32767 : extent - 1;
                    for (int r = 0; r < src.desc.rows; ++r) {
                        for (int c = 0; c < src.desc.cols; ++c) src.set(r, c, random_bits(rng, src.bytes() * 8));
                    }
                    for (int r = 0; r < rows; ++r) {
                        for (int c = 0; c < cols; ++c)
                            idx.set(r, c, uint64_t(rng() % uint64_t(std::min(extent, max_index + 1))));
                    }
                    engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr);
                    expect_gathered(dst, src, idx,
                                    std::string(engine::dtype_name(data)) + " by " +
                                        std::string(engine::dtype_name(index)) + ", " + layout.name);
                }
            }
        }
    }
}

TEST(TGatherIndexEngine, RowsOutsideDstsValidRegionAreLeftUntouched)
{
    HostTile src(DType::F32, 8, 8, 8, 8), idx(DType::I32, 8, 8, 8, 8), dst(DType::F32, 8, 8, 3, 8);
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 8; ++c) {
            src.set(r, c, bits_of(float(r * 8 + c) + 0.5f));
            idx.set(r, c, uint64_t(63 - (r * 8 + c)));
            dst.set(r, c, bits_of(-7.0f));
        }
    }
    engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr);
    EXPECT_EQ(from_bits<float>(dst.get(0, 0)), 63.5f);
    EXPECT_EQ(from_bits<float>(dst.get(2, 7)), float(63 - 23) + 0.5f);
    EXPECT_EQ(from_bits<float>(dst.get(3, 0)), -7.0f);
    EXPECT_EQ(from_bits<float>(dst.get(7, 7)), -7.0f);
}

// The row loop checks all indices on vectors first and clamps only when one is out of range: an
// out-of-range index at any position of rows whose length is no multiple of a vector (so also in a row's
// scalar tail), with the index tile's padding holding huge values, is clamped in fast mode and reported in
// checked mode; without one, every element comes from its own index.
TEST(TGatherIndexEngine, AnOutOfRangeIndexAnywhereInRaggedRowsIsClampedOrReported)
{
    std::mt19937 rng(99);
    const std::pair<DType, DType> kPairs[] = {{DType::F32, DType::U32}, {DType::F32, DType::U16},
                                              {DType::F16, DType::I16}, {DType::U8, DType::I32}};
    for (const auto& [data, index] : kPairs) {
        for (const int cols : {1, 3, 9, 13, 31, 37}) {
            const int rows = 3, index_cols = cols + 5;
            HostTile src(data, 4, 16, 4, 16), dst(data, rows, cols, rows, cols);
            HostTile idx(index, rows, index_cols, rows, cols);
            const int64_t extent = 4 * 16;
            const uint64_t huge = engine::dtype_bits(index) == 32 ? 0xffffffffu : 0xffffu;
            for (int r = 0; r < 4; ++r) {
                for (int c = 0; c < 16; ++c) src.set(r, c, random_bits(rng, src.bytes() * 8));
            }
            const auto fill_indices = [&] {
                for (int r = 0; r < rows; ++r) {
                    for (int c = 0; c < index_cols; ++c) idx.set(r, c, c < cols ? rng() % extent : huge);
                }
            };
            const std::string what = std::string(engine::dtype_name(data)) + " by " +
                                     std::string(engine::dtype_name(index)) + ", " + std::to_string(cols) + " columns";
            {
                ScopedChecked fast(false);
                fill_indices();
                engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr);
                expect_gathered(dst, src, idx, what + ", all in range");
            }
            for (int position = 0; position < rows * cols; ++position) {
                fill_indices();
                idx.set(position / cols, position % cols, position % 2 ? huge : uint64_t(extent));
                {
                    ScopedChecked fast(false);
                    engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr);
                    expect_gathered(dst, src, idx, what + ", out of range at " + std::to_string(position));
                }
                ScopedChecked checked(true);
                EXPECT_EQ(diagnostic_of([&] { engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr); }).code,
                          "RUN_GATHER_INDEX")
                    << what << ", out of range at " << position;
            }
        }
    }
}

namespace {

// Gathers random tiles of every element size (8-bit on the cpu profile only) and index type through the
// row loop and compares them with the reference: rows whose length is no multiple of a vector (tails),
// dst with fewer valid rows than storage, index rows longer than dst's (padding holding huge values), and
// indices that stress the vector path's edges: src's last elements (a narrow element there is read from
// the 32-bit word ending at it), just past the extent, and with the top bit set (negative as a signed
// gather offset), anywhere in a row. Sources of fewer than 4 bytes are included.
void gather_every_element_size_and_edge(uint32_t seed)
{
    ScopedChecked fast(false);
    std::mt19937 rng(seed);
    const DType kData[] = {DType::U8, DType::I8, DType::I16, DType::F16, DType::F32, DType::U32};
    const DType kIndex[] = {DType::U16, DType::I16, DType::U32, DType::I32};
    for (const DType data : kData) {
        for (const DType index : kIndex) {
            for (int trial = 0; trial < 60; ++trial) {
                const int src_rows = 1 + int(rng() % 4), src_cols = 1 + int(rng() % 40);
                const int rows = 1 + int(rng() % 5), cols = 1 + int(rng() % 70), padding = int(rng() % 3) * 3;
                HostTile src(data, src_rows, src_cols, src_rows, src_cols);
                HostTile dst(data, rows, cols, 1 + int(rng() % rows), cols);
                HostTile idx(index, rows, cols + padding, rows, cols);
                const uint64_t extent = uint64_t(src_rows) * src_cols;
                const uint64_t top_bit = engine::dtype_bits(index) == 32 ? 0x80000000u : 0x8000u;
                for (int r = 0; r < src_rows; ++r) {
                    for (int c = 0; c < src_cols; ++c) src.set(r, c, random_bits(rng, src.bytes() * 8));
                }
                for (int r = 0; r < rows; ++r) {
                    for (int c = 0; c < cols + padding; ++c) {
                        const uint32_t pick = rng() % 10;
                        uint64_t k = rng() % extent;                                            // in range
                        if (pick == 0) k = extent - 1 - rng() % std::min<uint64_t>(extent, 4);  // at src's end
                        if (pick == 1) k = extent;                                              // just past it
                        if (pick == 2 || c >= cols) k = top_bit | (rng() % top_bit);            // top bit set
                        idx.set(r, c, k);
                    }
                }
                engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr);
                expect_gathered(dst, src, idx,
                                std::string(engine::dtype_name(data)) + " by " + std::string(engine::dtype_name(index)) +
                                    ", src " + std::to_string(src_rows) + "x" + std::to_string(src_cols) + ", dst " +
                                    std::to_string(rows) + "x" + std::to_string(cols) + " + " +
                                    std::to_string(padding));
            }
        }
    }
}

}  // namespace

// The best target the CPU supports: the vector gathers on x86 with AVX2 or AVX-512 (not on AMD).
TEST(TGatherIndexEngine, EveryElementSizeAndEdgeMatchesTheReferenceOnTheBestTarget)
{
    gather_every_element_size_and_edge(2024);
}

// The baseline target only, as on CPUs without a gather instruction: the scalar loop.
TEST(TGatherIndexEngine, EveryElementSizeAndEdgeMatchesTheReferenceOnTheBaselineTarget)
{
    hwy::SetSupportedTargetsForTest(HWY_STATIC_TARGET);
    gather_every_element_size_and_edge(2025);
    hwy::SetSupportedTargetsForTest(0);
}

// A source that ends where an unreadable page begins: a gather reading past src's last element faults.
TEST(TGatherIndexEngine, NoReadLeavesTheSourceWhenItEndsAtAnUnreadablePage)
{
    ScopedChecked fast(false);
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* pages = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(pages, MAP_FAILED);
    ASSERT_EQ(mprotect(static_cast<std::byte*>(pages) + page, page, PROT_NONE), 0);
    std::mt19937 rng(7);
    for (const DType data : {DType::U8, DType::F16, DType::F32}) {
        for (const int src_cols : {1, 2, 3, 4, 5, 7, 33}) {
            const int bytes = engine::dtype_bits(data) / 8;
            TileDesc src;
            src.data = static_cast<std::byte*>(pages) + page - std::size_t(src_cols) * bytes;
            src.dtype = data;
            src.rows = src.valid_rows = 1;
            src.cols = src.valid_cols = src_cols;
            for (int c = 0; c < src_cols * bytes; ++c) src.data[c] = std::byte(rng());
            HostTile dst(data, 2, 40, 2, 40), idx(DType::U32, 2, 40, 2, 40);
            for (int i = 0; i < 80; ++i) {
                const int from_end = int(rng() % 4);  // mostly src's last elements, some past its end
                idx.set(i / 40, i % 40, uint64_t(std::max(0, src_cols - 1 - from_end) + (i % 7 == 0 ? 5 : 0)));
            }
            engine::tgather_index(dst.desc, src, idx.desc, nullptr);
            for (int i = 0; i < 80; ++i) {
                const auto k = std::min<uint64_t>(idx.get(i / 40, i % 40), uint64_t(src_cols - 1));
                uint64_t expected = 0;
                std::memcpy(&expected, src.data + k * bytes, std::size_t(bytes));
                ASSERT_EQ(dst.get(i / 40, i % 40), expected) << engine::dtype_name(data) << ", " << src_cols << " elements";
            }
        }
    }
    munmap(pages, 2 * page);
}

// ---------------------------------------------------------------------------------------------------
// The decisions of DESIGN.md "Semantics where the documents disagree", each in a test of its name.

TEST(TGather, OutOfRangeIndexIsClampedWhenUnchecked)
{
    ScopedChecked fast(false);
    HostTile src(DType::I32, 4, 8, 4, 8), idx(DType::U32, 2, 8, 2, 8), dst(DType::I32, 2, 8, 2, 8);
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 8; ++c) src.set(r, c, uint64_t(100 + r * 8 + c));
    }
    for (int c = 0; c < 8; ++c) {
        idx.set(0, c, uint64_t(c));
        idx.set(1, c, uint64_t(32 + c * 1000));  // 32 is the first index past the 4 x 8 capacity
    }
    engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr);
    for (int c = 0; c < 8; ++c) {
        EXPECT_EQ(dst.get(0, c), uint64_t(100 + c));
        EXPECT_EQ(dst.get(1, c), uint64_t(131)) << "clamped to the last element, column " << c;
    }
}

TEST(TGather, OutOfRangeIndexIsAnErrorNamingPositionIndexAndExtentWhenChecked)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, float, 4, 8>;
    using IdxT = Tile<TileType::Vec, int32_t, 2, 8>;
    using DstT = Tile<TileType::Vec, float, 2, 8>;
    SrcT src;
    IdxT idx;
    DstT dst;
    for (int i = 0; i < 32; ++i) src.SetValue(i, float(i));
    for (int i = 0; i < 16; ++i) idx.SetValue(i, i == 13 ? 40 : i);
    const Diagnostic d = diagnostic_of([&] { TGATHER(dst, src, idx); });
    EXPECT_EQ(d.code, "RUN_GATHER_INDEX");
    EXPECT_EQ(d.instruction, "TGATHER");
    EXPECT_TRUE(mentions(d, "(1, 5)")) << d.message;  // destination position of element 13
    EXPECT_TRUE(mentions(d, "40")) << d.message;      // the index
    EXPECT_TRUE(mentions(d, "32")) << d.message;      // the extent
}

TEST(TGather, ExtentIsTheSourceCapacityNotItsValidRegion)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, float, 4, 8, BLayout::RowMajor, 1, 8>;  // one valid row of four
    using IdxT = Tile<TileType::Vec, int32_t, 1, 8>;
    using DstT = Tile<TileType::Vec, float, 1, 8>;
    SrcT src;
    IdxT idx;
    DstT dst;
    for (int i = 0; i < 32; ++i) src.SetValue(i, float(i) * 2.0f);
    for (int i = 0; i < 8; ++i) idx.SetValue(i, 31 - i);  // rows 2 and 3: outside the valid region, inside the capacity
    EXPECT_EQ(diagnostic_of([&] { TGATHER(dst, src, idx); }).code, "no error");
    for (int i = 0; i < 8; ++i) EXPECT_EQ(dst.GetValue(i), float(31 - i) * 2.0f);
}

TEST(TGather, IndicesAreReadAsUnsigned)
{
    ScopedChecked fast(false);
    HostTile src(DType::F32, 2, 8, 2, 8), idx(DType::I32, 1, 8, 1, 8), dst(DType::F32, 1, 8, 1, 8);
    for (int c = 0; c < 16; ++c) src.set(c / 8, c % 8, bits_of(float(c)));
    for (int c = 0; c < 8; ++c) idx.set(0, c, uint64_t(uint32_t(-1 - c)));  // negative int32: huge unsigned
    engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr);
    for (int c = 0; c < 8; ++c) EXPECT_EQ(from_bits<float>(dst.get(0, c)), 15.0f) << "a negative index clamps high";

    ScopedChecked checked(true);
    const Diagnostic d = diagnostic_of([&] { engine::tgather_index(dst.desc, src.desc, idx.desc, nullptr); });
    EXPECT_EQ(d.code, "RUN_GATHER_INDEX");
    EXPECT_TRUE(mentions(d, "4294967295")) << d.message;
}

TEST(TGather, TmpTileIsNeitherReadNorWritten)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, half, 4, 16>;
    using IdxT = Tile<TileType::Vec, int32_t, 2, 16>;
    using DstT = Tile<TileType::Vec, half, 2, 16>;
    SrcT src;
    IdxT idx, tmp;  // tmp never written: a read of it would be RUN_UNINIT_READ
    DstT dst;
    for (int i = 0; i < 64; ++i) src.SetValue(i, half(float(i) * 0.25f));
    for (int i = 0; i < 32; ++i) idx.SetValue(i, (i * 7) % 64);
    uint32_t before[32];
    std::memcpy(before, tmp.data(), sizeof before);
    EXPECT_EQ(diagnostic_of([&] { TGATHER(dst, src, idx, tmp); }).code, "no error");
    EXPECT_EQ(std::memcmp(before, tmp.data(), sizeof before), 0);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(float(dst.GetValue(i)), float((i * 7) % 64) * 0.25f);
}

TEST(TGather, GatheringANeverWrittenElementIsReportedInCheckedMode)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, float, 4, 8, BLayout::RowMajor, 1, 8>;
    using IdxT = Tile<TileType::Vec, int32_t, 1, 8>;
    using DstT = Tile<TileType::Vec, float, 1, 8>;
    SrcT src;
    IdxT idx;
    DstT dst;
    for (int i = 0; i < 8; ++i) src.SetValue(i, 1.0f);  // only the valid row
    for (int i = 0; i < 8; ++i) idx.SetValue(i, i == 6 ? 20 : i);
    const Diagnostic d = diagnostic_of([&] { TGATHER(dst, src, idx); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_TRUE(mentions(d, "(0, 6)") && mentions(d, "20")) << d.message;
}

// ---------------------------------------------------------------------------------------------------
// Through the intrinsics: static and DYNAMIC valid shapes, with and without tmp, events.

namespace {

template <typename T, typename I>
struct Pair {
    using Data = T;
    using Index = I;
};

template <typename P>
class TGatherIndexIntrinsic : public ::testing::Test {
};

using IntrinsicPairs = ::testing::Types<Pair<float, int32_t>, Pair<float, uint16_t>, Pair<half, int16_t>,
                                        Pair<bfloat16_t, uint32_t>, Pair<int16_t, uint16_t>, Pair<uint16_t, int32_t>,
                                        Pair<int32_t, int16_t>, Pair<uint32_t, uint32_t>>;
TYPED_TEST_SUITE(TGatherIndexIntrinsic, IntrinsicPairs);

template <typename T>
T random_value(std::mt19937& rng)
{
    if constexpr (std::is_same_v<T, float>) {
        return std::uniform_real_distribution<float>(-1000.0f, 1000.0f)(rng);
    } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        return T(std::uniform_real_distribution<float>(-100.0f, 100.0f)(rng));
    } else {
        return static_cast<T>(1 + rng() % 30000);
    }
}

}  // namespace

TYPED_TEST(TGatherIndexIntrinsic, DynamicValidRowsWithAndWithoutTmp)
{
    using T = typename TypeParam::Data;
    using I = typename TypeParam::Index;
    constexpr int kCols = 64;
    using SrcT = Tile<TileType::Vec, T, 8, kCols>;
    using IdxT = Tile<TileType::Vec, I, 16, kCols, BLayout::RowMajor, DYNAMIC, kCols>;
    using DstT = Tile<TileType::Vec, T, 16, kCols, BLayout::RowMajor, DYNAMIC, kCols>;
    std::mt19937 rng(77);
    for (const bool checked : {false, true}) {
        ScopedChecked mode(checked);
        for (int trial = 0; trial < 4; ++trial) {
            const unsigned rows = 1 + rng() % 16;
            SrcT src;
            IdxT idx(rows), tmp(rows);
            DstT dst(rows);
            std::vector<T> source(8 * kCols);
            for (int i = 0; i < 8 * kCols; ++i) {
                source[i] = random_value<T>(rng);
                src.SetValue(i, source[i]);
            }
            std::vector<I> index(rows * kCols);
            for (unsigned i = 0; i < rows * kCols; ++i) {
                index[i] = static_cast<I>(rng() % (8 * kCols));
                idx.SetValue(i, index[i]);
            }
            if (trial % 2 == 0) {
                TGATHER(dst, src, idx);
            } else {
                Event<Op::TLOAD, Op::TGATHER> ready;
                ready = RecordEvent{};
                TGATHER(dst, src, idx, tmp, ready);
            }
            for (unsigned i = 0; i < rows * kCols; ++i) {
                ASSERT_EQ(bits_of(dst.GetValue(i)), bits_of(source[static_cast<std::size_t>(index[i])]))
                    << "element " << i << " of " << rows << " rows, checked " << checked;
            }
        }
    }
}

TEST(TGatherIndexIntrinsic, SeedPageExampleAutoRunsUnchanged)
{
    // The page's example reads never-written tiles, which only fast mode allows.
    ScopedChecked fast(false);
    struct Example {
        static void example_auto()
        {
            using SrcT = Tile<TileType::Vec, float, 16, 16>;
            using IdxT = Tile<TileType::Vec, int32_t, 16, 16>;
            using DstT = Tile<TileType::Vec, float, 16, 16>;
            SrcT src0;
            IdxT idx;
            DstT dst;
            TGATHER(dst, src0, idx);
        }
    };
    EXPECT_NO_THROW(Example::example_auto());
}

// ---------------------------------------------------------------------------------------------------
// Illegal configurations, each with its code, on the profile that forbids it.

namespace {

struct IndexCase {
    HostTile dst{DType::F32, 4, 8, 4, 8};
    HostTile src{DType::F32, 4, 8, 4, 8};
    HostTile idx{DType::I32, 4, 8, 4, 8};
    HostTile tmp{DType::I32, 4, 8, 4, 8};
    bool with_tmp = true;

    Diagnostic run()
    {
        return diagnostic_of(
            [&] { engine::tgather_index(dst.desc, src.desc, idx.desc, with_tmp ? &tmp.desc : nullptr); });
    }
};

}  // namespace

TEST(TGatherIndexIllegal, EachRuleReportsItsCode)
{
    {
        IndexCase c;
        c.src.desc.loc = TileType::Mat;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_LOCATION");
        EXPECT_EQ(d.operand, "src0");
        EXPECT_TRUE(mentions(d, "L1"));
    }
    {
        IndexCase c;
        c.src.desc.dtype = c.dst.desc.dtype = DType::I8;  // 8-bit data: the cpu profile only
        EXPECT_EQ(c.run().code, "no error");
        ScopedTarget a5(profile::Target::A5);
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_DATA_DTYPE");
        EXPECT_TRUE(mentions(d, "i8"));
    }
    {
        IndexCase c;
        c.dst.desc.dtype = DType::I32;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_SAME_DTYPE");
        EXPECT_TRUE(mentions(d, "f32") && mentions(d, "i32"));
    }
    {
        IndexCase c;
        c.idx.desc.dtype = DType::F32;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_INDICES_DTYPE");
    }
    {
        IndexCase c;
        c.dst.desc.valid_cols = 5;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_DST_CONTIGUOUS");
        EXPECT_TRUE(mentions(d, "5"));
    }
    {
        IndexCase c;
        c.idx.desc.valid_rows = 2;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_SHAPE");
        EXPECT_TRUE(mentions(d, "2x8"));
    }
}

TEST(TGatherIndexIllegal, A2A3RequiresAMatchingTmp)
{
    ScopedTarget a2a3(profile::Target::A2A3);
    {
        IndexCase c;
        c.with_tmp = false;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_TMP_REQUIRED");
        EXPECT_TRUE(mentions(d, "a2a3"));
    }
    {
        IndexCase c;
        c.tmp.desc.dtype = DType::U32;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_TMP_DTYPE");
    }
    {
        IndexCase c;
        c.tmp.desc.rows = 2;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_TMP_SHAPE");
        EXPECT_TRUE(mentions(d, "4x8") && mentions(d, "2x8"));
    }
    {
        IndexCase c;
        c.idx.desc.dtype = c.tmp.desc.dtype = DType::I16;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_INDICES_DTYPE") << "16-bit indices are A5 only";
    }
    {
        IndexCase c;
        c.src.desc.dtype = c.dst.desc.dtype = DType::BF16;
        EXPECT_EQ(c.run().code, "no error") << "A2/A3 gathers any 16-bit element";
    }
}

TEST(TGatherIndexIllegal, A5IgnoresTmpButNeedsContiguousIndices)
{
    ScopedTarget a5(profile::Target::A5);
    {
        IndexCase c;
        c.with_tmp = false;
        EXPECT_EQ(c.run().code, "no error");
    }
    {
        IndexCase c;
        c.tmp.desc.dtype = DType::F16;
        c.tmp.desc.rows = 1;
        EXPECT_EQ(c.run().code, "no error") << "A5 ignores tmp";
    }
    {
        IndexCase c;
        c.dst.desc.valid_cols = 6;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_DST_CONTIGUOUS");
    }
    {
        IndexCase c;
        c.idx.desc.cols = 16;  // 8 valid columns of 16: not whole rows (validation stops before any access)
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_INDICES_CONTIGUOUS");
        EXPECT_TRUE(mentions(d, "16"));
    }
    {
        IndexCase c;
        c.src.desc.dtype = c.dst.desc.dtype = DType::BF16;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_DATA_DTYPE") << "A5 lists its 16-bit types";
    }
}
