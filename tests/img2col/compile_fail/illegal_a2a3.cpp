// Compiled (not linked) by static_rules_test.cpp with PTO_TARGET=a2a3: each function breaks one TIMG2COL
// rule of that target, and the compiler must stop it at the static_assert naming the rule. The last
// function is legal and must compile.
#include <pto/pto-inst.hpp>

using namespace pto;

using Map = ConvTile<TileType::Mat, half, 2 * 4 * 4 * 16 * 2, Layout::NC1HWC0, ConvTileShape<1, 2, 4, 4, 16>>;

void nz_left_is_a5s()
{
    Map src;
    Tile<TileType::Left, half, 16, 32, BLayout::ColMajor, 16, 32, SLayout::RowMajor> dst;
    TIMG2COL(dst, src);
}

// (a Vec tile is not a fractal layout either)
void into_a_vec_tile()
{
    Map src;
    Tile<TileType::Vec, half, 16, 32> dst;
    TIMG2COL(dst, src);
}

void sixteen_bit_integers_are_a5s()
{
    ConvTile<TileType::Mat, uint16_t, 2 * 4 * 4 * 16 * 2, Layout::NC1HWC0, ConvTileShape<1, 2, 4, 4, 16>> src;
    Tile<TileType::Left, uint16_t, 16, 32, BLayout::RowMajor, 16, 32, SLayout::RowMajor> dst;
    TIMG2COL(dst, src);
}

void legal_call()
{
    Map src;
    Tile<TileType::Left, half, 16, 32, BLayout::RowMajor, 16, 32, SLayout::RowMajor> dst;
    SETFMATRIX(src);
    SET_IMG2COL_PADDING(src);
    SET_IMG2COL_RPT(src);
    TIMG2COL<decltype(dst), Map, SetFmatrixMode::FMATRIX_A_MANUAL>(dst, src, 0, 16);
}
