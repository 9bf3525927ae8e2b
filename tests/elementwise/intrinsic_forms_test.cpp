// The forms of the intrinsics beyond the plain call: column-major tiles, sources of other tile types,
// in-place operands, wait events, and every documented TDIV form. One element type of each width and
// kind (the engine tests cover every type in every layout).
#include "support.hpp"

using namespace pto;
using namespace ewtest;

namespace {

template <typename T>
class IntrinsicForms : public ::testing::Test {};
using RepresentativeTypes = ::testing::Types<float, half, bfloat16_t, int8_t, uint32_t, int64_t>;
TYPED_TEST_SUITE(IntrinsicForms, RepresentativeTypes);

}  // namespace

TYPED_TEST(IntrinsicForms, ColumnMajorTiles)
{
    using T = TypeParam;
    std::mt19937 rng(13);
    using Col = Tile<TileType::Vec, T, 64, 16, BLayout::ColMajor, DYNAMIC, DYNAMIC>;
    Col a(50, 9), b(50, 9), c(50, 9);
    check_every_op(c, a, b, rng);
}

TYPED_TEST(IntrinsicForms, SourcesOfOtherTileTypesWithTheSameValidShape)
{
    using T = TypeParam;
    std::mt19937 rng(14);
    Tile<TileType::Vec, T, 16, 64, BLayout::RowMajor, 12, 40> c;
    Tile<TileType::Vec, T, 32, 128, BLayout::RowMajor, 12, 40> a;
    Tile<TileType::Vec, T, 12, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> b(12, 40);
    check_every_op(c, a, b, rng);
}

TYPED_TEST(IntrinsicForms, InPlaceOnEitherSource)
{
    using T = TypeParam;
    using S = typename Elem<T>::Storage;
    std::mt19937 rng(15);
    using TileT = Tile<TileType::Vec, T, 8, 64>;
    TileT a, b;
    const auto x = random_contents<T>(rng, TileT::Numel, false), y = random_contents<T>(rng, TileT::Numel, true);
    fill_tile(a, x);
    fill_tile(b, y);
    TADD(a, a, b);  // a = x + y
    const auto sum = read_tile<TileT, S>(a);
    if constexpr (rules::tmul_dtype_ok(profile::kProfile, Elem<T>::dtype)) {
        TMUL(b, a, b);  // b = (x + y) * y
        const auto product = read_tile<TileT, S>(b);
        for (int i = 0; i < TileT::Numel; ++i) {
            ASSERT_TRUE(same_result<T>(reference<T>(Arith::Add, x[i], y[i]), sum[i])) << i;
            ASSERT_TRUE(same_result<T>(reference<T>(Arith::Mul, sum[i], y[i]), product[i])) << i;
        }
    }
}

TEST(IntrinsicForms, WaitsForEventsAndRecordsOne)
{
    using TileT = Tile<TileType::Vec, float, 4, 64>;
    TileT a, b, c;
    fill_tile(a, std::vector<float>(TileT::Numel, 1.5f));
    fill_tile(b, std::vector<float>(TileT::Numel, 2.0f));
    runtime::clear_sync_log();
    Event<Op::TLOAD, Op::TADD> loaded;
    Event<Op::TADD, Op::TMUL> added = TADD(c, a, b, loaded);
    Event<Op::TMUL, Op::TSUB> multiplied = TMUL(c, c, b, added);
    Event<Op::TSUB, Op::TDIV> subtracted = TSUB(c, c, a, multiplied);
    TDIV(c, c, b, subtracted, loaded);
    EXPECT_EQ(c.GetValue(17), ((1.5f + 2.0f) * 2.0f - 1.5f) / 2.0f);
    int waits = 0;
    for (const auto& r : runtime::sync_log()) waits += r.kind == runtime::SyncKind::EventWait;
    EXPECT_EQ(waits, 5);
}

TEST(IntrinsicForms, EveryDocumentedTdivFormComputesTheQuotient)
{
    using TileT = Tile<TileType::Vec, float, 4, 64>;
    using Other = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, 4, 64>;
    TileT a, b, c;
    Other d;
    std::mt19937 rng(16);
    std::vector<float> x(TileT::Numel), y(TileT::Numel);
    for (int i = 0; i < TileT::Numel; ++i) {
        x[i] = random_value<float>(rng);
        y[i] = random_value<float>(rng);
    }
    fill_tile(a, x);
    fill_tile(b, y);
    const auto check = [&](const auto& tile, const char* form) {
        for (int i = 0; i < TileT::Numel; ++i) {
            ASSERT_EQ(tile.GetValue(i), float(double(x[i]) / y[i])) << form << " " << i;
        }
    };
    TDIV(c, a, b);
    check(c, "TDIV(dst, src0, src1)");
    TDIV<DivAlgorithm::HIGH_PRECISION>(c, a, b);
    check(c, "TDIV<HIGH_PRECISION>");
    TDIV<DivAlgorithm::DEFAULT>(c, a, b);
    check(c, "TDIV<DEFAULT>");
    TDIV<TileT>(c, a, b);
    check(c, "TDIV<TileData>");
    TDIV<DivAlgorithm::HIGH_PRECISION>(d, a, b);  // a destination of another tile type
    check(d, "TDIV<HIGH_PRECISION> into another tile type");
}
