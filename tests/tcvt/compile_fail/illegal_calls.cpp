// Compiled (not linked) by static_rules_test.cpp with PTO_TARGET=a2a3: each function breaks one TCVT
// rule, and the compiler must stop each at the intrinsic's static_assert of that rule. The last
// function is legal and must compile.
#include <pto/pto-inst.hpp>

using namespace pto;

void pair_the_target_lacks()  // bf16 -> f16 is an A5 conversion
{
    Tile<TileType::Vec, half, 16, 64> dst;
    Tile<TileType::Vec, bfloat16_t, 16, 64> src;
    TCVT(dst, src, RoundMode::CAST_RINT);
}

void tile_outside_ub()
{
    Tile<TileType::Vec, half, 16, 64> dst;
    Tile<TileType::Mat, float, 16, 64> src;
    TCVT(dst, src, RoundMode::CAST_RINT, SaturationMode::ON);
}

void column_major_tile()
{
    Tile<TileType::Vec, half, 16, 64, BLayout::ColMajor> dst;
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, int32_t, 16, 64> tmp;
    TCVT(dst, src, tmp, RoundMode::CAST_RINT);
}

void valid_shapes_that_differ()
{
    Tile<TileType::Vec, half, 16, 64, BLayout::RowMajor, 16, 32> dst;
    Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 31> src;
    Tile<TileType::Vec, int32_t, 16, 64> tmp;
    TCVT(dst, src, tmp, RoundMode::CAST_RINT, SaturationMode::OFF);
}

void legal_call()
{
    Tile<TileType::Vec, half, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 64> src;
    TCVT<false>(dst, src, RoundMode::CAST_RINT, SaturationMode::ON);
}
