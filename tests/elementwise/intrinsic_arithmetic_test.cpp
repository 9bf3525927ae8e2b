// TADD / TSUB / TMUL / TDIV as kernels write them, for every element type: Tile, TASSIGN and the
// intrinsics, with static and run-time valid shapes.
#include "support.hpp"

using namespace pto;
using namespace ewtest;

namespace {

template <typename T>
class IntrinsicArithmetic : public ::testing::Test {};
using ElementTypes =
    ::testing::Types<float, half, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
TYPED_TEST_SUITE(IntrinsicArithmetic, ElementTypes);

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
