// The reductions through their C++ intrinsics, every public overload: static and DYNAMIC valid regions,
// ND and DN destinations, tmp tiles that are never touched; the run-time rules with their codes.
#include "reduce/support.hpp"

using namespace pto;
using namespace reducetest;

namespace {

constexpr float kUntouched = -12345.0f;

template <typename TileT>
void fill(TileT& t, std::mt19937& rng)
{
    for (int i = 0; i < TileT::Numel; ++i) t.SetValue(i, random_element<float>(rng));
}

template <typename TileT>
void fill_with(TileT& t, float v)
{
    for (int i = 0; i < TileT::Numel; ++i) t.SetValue(i, v);
}

template <typename TileT>
bool all_equal(TileT& t, float v)
{
    for (int i = 0; i < TileT::Numel; ++i)
        if (std::bit_cast<uint32_t>(float(t.GetValue(i))) != std::bit_cast<uint32_t>(v)) return false;
    return true;
}

// Row i (or column j) of src's valid region, for the reference.
template <typename Src>
std::vector<float> row_of(Src& src, int r, int cols)
{
    std::vector<float> xs;
    for (int c = 0; c < cols; ++c) xs.push_back(src.GetValue(r * Src::Cols + c));
    return xs;
}
template <typename Src>
std::vector<float> column_of(Src& src, int c, int rows)
{
    std::vector<float> xs;
    for (int r = 0; r < rows; ++r) xs.push_back(src.GetValue(r * Src::Cols + c));
    return xs;
}

TEST(ReduceIntrinsics, RowReductionsIntoDnAndNdDestinations)
{
    using Src = Tile<TileType::Vec, float, 16, 128, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using DstDn = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, DYNAMIC, 1>;
    using DstNd = Tile<TileType::Vec, float, 16, 8, BLayout::RowMajor, DYNAMIC, 8>;
    using Tmp = Tile<TileType::Vec, float, 16, 128>;
    std::mt19937 rng(1);
    for (int trial = 0; trial < 12; ++trial) {
        const int rows = 1 + int(rng() % 16), cols = 1 + int(rng() % 128);
        Src src(rows, cols);
        DstDn dn(rows);
        DstNd nd(rows);
        Tmp tmp;
        fill(src, rng);
        fill_with(dn, kUntouched);
        fill_with(nd, kUntouched);
        fill_with(tmp, kUntouched);
        TROWSUM(dn, src, tmp);
        TROWMAX(nd, src, tmp);
        for (int r = 0; r < 16; ++r) {
            const bool valid = r < rows;
            const float sum = valid ? expected<float>(ReduceOp::Sum, row_of(src, r, cols), true) : kUntouched;
            const float max = valid ? expected<float>(ReduceOp::Max, row_of(src, r, cols), true) : kUntouched;
            ASSERT_TRUE(same_bits<float>(sum, dn.GetValue(r))) << "row " << r << " of " << rows << "x" << cols;
            ASSERT_TRUE(same_bits<float>(max, nd.GetValue(r * 8))) << "row " << r << " of " << rows << "x" << cols;
            for (int c = 1; c < 8; ++c) ASSERT_EQ(nd.GetValue(r * 8 + c), kUntouched);
        }
        TROWMIN(dn, src, tmp);
        for (int r = 0; r < rows; ++r)
            ASSERT_TRUE(same_bits<float>(expected<float>(ReduceOp::Min, row_of(src, r, cols), true), dn.GetValue(r)));
        ASSERT_TRUE(all_equal(tmp, kUntouched)) << "tmp was written";
    }
}

TEST(ReduceIntrinsics, ColumnReductionsEveryOverload)
{
    using Src = Tile<TileType::Vec, half, 32, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, half, 2, 64, BLayout::RowMajor, 1, DYNAMIC>;
    using Tmp = Tile<TileType::Vec, half, 16, 64>;
    std::mt19937 rng(2);
    for (int trial = 0; trial < 12; ++trial) {
        const int rows = 1 + int(rng() % 32), cols = 1 + int(rng() % 64);
        Src src(rows, cols);
        Dst sum(cols), binary_sum(cols), max(cols), min(cols);
        Tmp tmp;
        for (int i = 0; i < Src::Numel; ++i) src.SetValue(i, half::from_bits(random_element<half>(rng)));
        fill_with(tmp, 3.0f);
        TCOLSUM(sum, src);
        TCOLSUM(binary_sum, src, tmp, true);
        TCOLMAX(max, src);
        TCOLMIN(min, src);
        for (int c = 0; c < cols; ++c) {
            std::vector<uint16_t> xs;
            for (int r = 0; r < rows; ++r) xs.push_back(src.GetValue(r * 64 + c).bits);
            ASSERT_EQ(sum.GetValue(c).bits, expected<half>(ReduceOp::Sum, xs, false)) << c;
            ASSERT_EQ(binary_sum.GetValue(c).bits, sum.GetValue(c).bits) << c;
            ASSERT_EQ(max.GetValue(c).bits, expected<half>(ReduceOp::Max, xs, false)) << c;
            ASSERT_EQ(min.GetValue(c).bits, expected<half>(ReduceOp::Min, xs, false)) << c;
        }
        ASSERT_TRUE(all_equal(tmp, 3.0f)) << "tmp was written";
    }
}

TEST(ReduceIntrinsics, IntegerSumsWrapAndEventsAreWaitedFor)
{
    using Src = Tile<TileType::Vec, int32_t, 8, 64>;
    using Dst = Tile<TileType::Vec, int32_t, 8, 1, BLayout::ColMajor>;
    Src src, tmp;
    Dst dst;
    for (int i = 0; i < Src::Numel; ++i) src.SetValue(i, std::numeric_limits<int32_t>::max() - i);
    Event<Op::TLOAD, Op::TROWSUM> ready;
    TROWSUM(dst, src, tmp, ready);
    for (int r = 0; r < 8; ++r) {
        std::vector<int32_t> xs;
        for (int c = 0; c < 64; ++c) xs.push_back(src.GetValue(r * 64 + c));
        EXPECT_EQ(dst.GetValue(r), wrapped_sum(xs)) << r;
    }
}

TEST(ReduceIntrinsics, ProductsOfRowsAndColumns)
{
    using Src = Tile<TileType::Vec, int16_t, 16, 48, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using RowDst = Tile<TileType::Vec, int16_t, 16, 1, BLayout::ColMajor, DYNAMIC, 1>;
    using ColDst = Tile<TileType::Vec, int16_t, 1, 48, BLayout::RowMajor, 1, DYNAMIC>;
    std::mt19937 rng(3);
    const int rows = 13, cols = 45;
    Src src(rows, cols), tmp(rows, cols);
    RowDst row_products(rows);
    ColDst col_products(cols);
    for (int i = 0; i < Src::Numel; ++i) src.SetValue(i, int16_t(int(rng() % 7) - 3));
    TROWPROD(row_products, src, tmp);
    TCOLPROD(col_products, src);
    for (int r = 0; r < rows; ++r) {
        std::vector<int16_t> xs;
        for (int c = 0; c < cols; ++c) xs.push_back(src.GetValue(r * 48 + c));
        EXPECT_EQ(row_products.GetValue(r), wrapped(ReduceOp::Prod, xs)) << r;
    }
    for (int c = 0; c < cols; ++c) {
        std::vector<int16_t> xs;
        for (int r = 0; r < rows; ++r) xs.push_back(src.GetValue(r * 48 + c));
        EXPECT_EQ(col_products.GetValue(c), wrapped(ReduceOp::Prod, xs)) << c;
    }
}

TEST(ReduceIntrinsics, RowCountsThatDifferAreRunValidShape)
{
    using Src = Tile<TileType::Vec, float, 16, 32, BLayout::RowMajor, DYNAMIC, 32>;
    using Dst = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, DYNAMIC, 1>;
    Src src(8), tmp(16);
    Dst dst(4);
    fill_with(src, 1.0f);
    const Diagnostic d = diagnostic_of([&] { TROWSUM(dst, src, tmp); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "dst");
}

TEST(ReduceIntrinsics, AnEmptyRowSourceIsRunValidShapeAnEmptyColumnSourceWritesNothing)
{
    using Src = Tile<TileType::Vec, float, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using RowDst = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, DYNAMIC, 1>;
    using ColDst = Tile<TileType::Vec, float, 1, 32, BLayout::RowMajor, 1, DYNAMIC>;
    Src empty(0, 32), tmp(16, 32);
    RowDst row_dst(0);
    EXPECT_EQ(diagnostic_of([&] { TROWMAX(row_dst, empty, tmp); }).code, "RUN_VALID_SHAPE");
    ColDst col_dst(32);
    fill_with(col_dst, kUntouched);
    EXPECT_EQ(diagnostic_of([&] { TCOLMAX(col_dst, empty); }).code, "no error");
    EXPECT_TRUE(all_equal(col_dst, kUntouched));
}

TEST(ReduceIntrinsics, BinaryColumnSumWithANarrowTmpIsRunValidShape)
{
    using Src = Tile<TileType::Vec, float, 8, 64>;
    using Dst = Tile<TileType::Vec, float, 1, 64>;
    using Tmp = Tile<TileType::Vec, float, 8, 32>;
    Src src;
    Dst dst;
    Tmp tmp;
    fill_with(src, 1.0f);
    const Diagnostic d = diagnostic_of([&] { TCOLSUM(dst, src, tmp, true); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "tmp");
    EXPECT_EQ(diagnostic_of([&] { TCOLSUM(dst, src, tmp, false); }).code, "no error");
}

// The engine checks the active profile at run time: int64 row sums exist on a5, not on a2a3.
TEST(ReduceIntrinsics, TheRunTimeProfileDecidesTheElementTypes)
{
    using Src = Tile<TileType::Vec, int64_t, 4, 16>;
    using Dst = Tile<TileType::Vec, int64_t, 4, 1, BLayout::ColMajor>;
    Src src, tmp;
    Dst dst;
    for (int i = 0; i < Src::Numel; ++i) src.SetValue(i, int64_t(i));
    {
        ScopedTarget a5(profile::Target::A5);
        EXPECT_EQ(diagnostic_of([&] { TROWSUM(dst, src, tmp); }).code, "no error");
    }
    ScopedTarget a2a3(profile::Target::A2A3);
    const Diagnostic d = diagnostic_of([&] { TROWSUM(dst, src, tmp); });
    EXPECT_EQ(d.code, "LEGAL_TROWSUM_DTYPE");
    EXPECT_EQ(d.operand, "src");
}

}  // namespace
