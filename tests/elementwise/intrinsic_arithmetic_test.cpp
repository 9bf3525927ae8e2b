// TADD / TSUB / TMUL / TDIV as kernels write them: Tile, TASSIGN and the intrinsics, with static and
// run-time valid shapes, both major orders, operands of different tile types, in-place forms, events,
// and every documented TDIV form.
#include "support.hpp"

using namespace pto;
using namespace ewtest;

namespace {

template <typename T>
class IntrinsicArithmetic : public ::testing::Test {};

using ElementTypes =
    ::testing::Types<float, half, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
TYPED_TEST_SUITE(IntrinsicArithmetic, ElementTypes);

// Calls the intrinsic of `op` when the compile-time profile takes T (the others would not compile).
template <Arith op, typename Dst, typename Src0, typename Src1>
bool call_intrinsic(Dst& dst, Src0& src0, Src1& src1)
{
    constexpr DType t = engine::dtype_of<typename Dst::DType>;
    if constexpr (op == Arith::Add && rules::tadd_dtype_ok(profile::kProfile, t)) {
        TADD(dst, src0, src1);
    } else if constexpr (op == Arith::Sub && rules::tsub_dtype_ok(profile::kProfile, t)) {
        TSUB(dst, src0, src1);
    } else if constexpr (op == Arith::Mul && rules::tmul_dtype_ok(profile::kProfile, t)) {
        TMUL(dst, src0, src1);
    } else if constexpr (op == Arith::Div && rules::tdiv_dtype_ok(profile::kProfile, t)) {
        TDIV(dst, src0, src1);
    } else {
        return false;
    }
    return true;
}

template <typename TileT, typename S = typename Elem<typename TileT::DType>::Storage>
std::vector<S> random_contents(std::mt19937& rng, bool nonzero)
{
    std::vector<S> v(TileT::Numel);
    for (S& e : v) e = random_value<typename TileT::DType>(rng, nonzero);
    return v;
}

// Runs `op` through its intrinsic on tiles filled with random values and checks dst element by element
// (results inside its valid region, untouched storage outside).
template <Arith op, typename Dst, typename Src0, typename Src1>
void check_intrinsic(Dst& dst, Src0& src0, Src1& src1, std::mt19937& rng)
{
    using T = typename Dst::DType;
    using S = typename Elem<T>::Storage;
    const auto a = random_contents<Src0>(rng, false);
    const auto b = random_contents<Src1>(rng, op == Arith::Div);
    const auto old = random_contents<Dst>(rng, false);
    fill_tile(src0, a);
    fill_tile(src1, b);
    fill_tile(dst, old);
    if (!call_intrinsic<op>(dst, src0, src1)) return;
    const auto out = read_tile<Dst, S>(dst);
    const TileDesc d = dst.desc(), d0 = src0.desc(), d1 = src1.desc();
    std::vector<bool> in_valid(out.size(), false);
    for (int r = 0; r < d.valid_rows; ++r) {
        for (int c = 0; c < d.valid_cols; ++c) {
            const auto i = std::size_t(d.offset(r, c));
            in_valid[i] = true;
            const S want = reference<T>(op, a[std::size_t(d0.offset(r, c))], b[std::size_t(d1.offset(r, c))]);
            ASSERT_TRUE(same_result<T>(want, out[i])) << op_name(op) << " element (" << r << ", " << c << ") is "
                                                      << +out[i] << ", expected " << +want;
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (!in_valid[i]) {
            ASSERT_EQ(std::memcmp(&old[i], &out[i], sizeof(S)), 0) << op_name(op) << " wrote outside";
        }
    }
}

template <typename Dst, typename Src0, typename Src1>
void check_every_op(Dst& dst, Src0& src0, Src1& src1, std::mt19937& rng)
{
    check_intrinsic<Arith::Add>(dst, src0, src1, rng);
    check_intrinsic<Arith::Sub>(dst, src0, src1, rng);
    check_intrinsic<Arith::Mul>(dst, src0, src1, rng);
    check_intrinsic<Arith::Div>(dst, src0, src1, rng);
}

}  // namespace

TYPED_TEST(IntrinsicArithmetic, StaticValidShape)
{
    using T = TypeParam;
    std::mt19937 rng(11);
    using Full = Tile<TileType::Vec, T, 16, 64>;
    using Partial = Tile<TileType::Vec, T, 16, 64, BLayout::RowMajor, 10, 37>;
    Full a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x2000);
    TASSIGN(c, 0x4000);
    check_every_op(c, a, b, rng);
    Partial pa, pb, pc;
    TASSIGN(pa, 0x6000);
    TASSIGN(pb, 0x8000);
    TASSIGN(pc, 0xA000);
    check_every_op(pc, pa, pb, rng);
}

TYPED_TEST(IntrinsicArithmetic, DynamicValidShapeSetAtRunTime)
{
    using T = TypeParam;
    std::mt19937 rng(12);
    using Dyn = Tile<TileType::Vec, T, 16, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    Dyn a(1, 1), b(1, 1), c(1, 1);  // automatic storage: no TASSIGN
    for (int trial = 0; trial < 6; ++trial) {
        const unsigned rows = 1 + rng() % 16, cols = 1 + rng() % 64;
        a.SetValidShape(rows, cols);
        b.SetValidShape(rows, cols);
        c.SetValidShape(rows, cols);
        check_every_op(c, a, b, rng);
    }
    using RowsOnly = Tile<TileType::Vec, T, 16, 64, BLayout::RowMajor, DYNAMIC, 40>;
    RowsOnly ra(5), rb(5), rc(5);
    check_every_op(rc, ra, rb, rng);
}

TYPED_TEST(IntrinsicArithmetic, ColumnMajorTiles)
{
    using T = TypeParam;
    std::mt19937 rng(13);
    using Col = Tile<TileType::Vec, T, 64, 16, BLayout::ColMajor, DYNAMIC, DYNAMIC>;
    Col a(50, 9), b(50, 9), c(50, 9);
    check_every_op(c, a, b, rng);
}

TYPED_TEST(IntrinsicArithmetic, SourcesOfOtherTileTypesWithTheSameValidShape)
{
    using T = TypeParam;
    std::mt19937 rng(14);
    Tile<TileType::Vec, T, 16, 64, BLayout::RowMajor, 12, 40> c;
    Tile<TileType::Vec, T, 32, 128, BLayout::RowMajor, 12, 40> a;
    Tile<TileType::Vec, T, 12, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> b(12, 40);
    check_every_op(c, a, b, rng);
}

TYPED_TEST(IntrinsicArithmetic, InPlaceOnEitherSource)
{
    using T = TypeParam;
    using S = typename Elem<T>::Storage;
    std::mt19937 rng(15);
    using TileT = Tile<TileType::Vec, T, 8, 64>;
    TileT a, b;
    const auto x = random_contents<TileT>(rng, false), y = random_contents<TileT>(rng, true);
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

TEST(IntrinsicArithmetic, WaitsForEventsAndRecordsOne)
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

TEST(IntrinsicArithmetic, EveryDocumentedTdivFormComputesTheQuotient)
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
        for (int i = 0; i < TileT::Numel; ++i) ASSERT_EQ(tile.GetValue(i), float(double(x[i]) / y[i])) << form << " " << i;
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
