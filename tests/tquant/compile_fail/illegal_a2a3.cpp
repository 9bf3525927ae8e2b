// Compiled (not linked) by static_rules_test.cpp with PTO_TARGET=a2a3: each function breaks one TQUANT
// rule of that target, and the compiler must stop it at the static_assert naming the rule. The last
// function is legal and must compile.
#include <pto/pto-inst.hpp>

using namespace pto;

void mx_is_an_a5_instruction()
{
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, uint8_t, 16, 32> exp;
    Tile<TileType::Vec, float, 1, 32> max, scaling;
    TQUANT<1, MxQuantAlg::OcpMxFp8E4M3>(dst, src, &exp, &max, &scaling);
}

void int8_without_tmp()
{
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> scale;
    TQUANT<QuantType::INT8_SYM>(dst, src, scale);
}

void tmp_smaller_than_src()
{
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, uint8_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> scale, offset;
    Tile<TileType::Vec, float, 16, 8> tmp;
    TQUANT<QuantType::INT8_ASYM>(dst, src, scale, tmp, &offset);
}

void legal_call()
{
    Tile<TileType::Vec, float, 16, 64> src, tmp;
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> scale;
    TQUANT<QuantType::INT8_SYM>(dst, src, scale, tmp);
}
