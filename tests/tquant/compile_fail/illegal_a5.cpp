// Compiled (not linked) by static_rules_test.cpp with PTO_TARGET=a5: each function breaks one TQUANT
// rule of that target, and the compiler must stop it at the static_assert naming the rule. The last
// function is legal and must compile.
#include <pto/pto-inst.hpp>

using namespace pto;

void mxfp4_from_float()
{
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, float4_e2m1x2_t, 16, 64> dst;
    Tile<TileType::Vec, uint8_t, 16, 32> exp;
    Tile<TileType::Vec, float, 1, 32> max, scaling;
    TQUANT<1, MxQuantAlg::NvMxFp4E2M1>(dst, src, &exp, &max, &scaling);
}

void dn_groups_past_the_rows()
{
    Tile<TileType::Vec, half, 16, 64> src;
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, uint8_t, 1, 64> exp;
    Tile<TileType::Vec, half, 1, 64> max, scaling;
    TQUANT<0, MxQuantAlg::OcpMxFp8E4M3>(dst, src, &exp, &max, &scaling);
}

void interleaved_rows_not_in_pairs_of_groups()
{
    Tile<TileType::Vec, half, 32, 64> src;
    Tile<TileType::Vec, int8_t, 32, 64> dst;
    Tile<TileType::Vec, uint8_t, 1, 128> exp;
    Tile<TileType::Vec, half, 1, 64> max, scaling;
    TQUANT<0, MxQuantAlg::NvMxFp8E4M3, true>(dst, src, &exp, &max, &scaling);
}

void interleaved_along_rows()
{
    Tile<TileType::Vec, half, 64, 64> src;
    Tile<TileType::Vec, int8_t, 64, 64> dst;
    Tile<TileType::Vec, uint8_t, 1, 128> exp;  // flat: 64 rows x 2 groups
    Tile<TileType::Vec, half, 1, 128> max, scaling;
    TQUANT<1, MxQuantAlg::NvMxFp8E4M3, true>(dst, src, &exp, &max, &scaling);
}

void zz_form_is_the_simulators()
{
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, uint8_t, 1, 32> exp, exp_zz;
    Tile<TileType::Vec, float, 1, 32> max, scaling;
    TQUANT<QuantType::MXFP8, VecStoreMode::NZ>(dst, src, &exp, &max, &scaling, &exp_zz);
}

void legal_call()
{
    Tile<TileType::Vec, bfloat16_t, 32, 64> src;
    Tile<TileType::Vec, float4_e2m1x2_t, 32, 64> dst;
    Tile<TileType::Vec, uint8_t, 1, 64> exp;
    Tile<TileType::Vec, bfloat16_t, 1, 64> max, scaling;
    TQUANT<0, MxQuantAlg::OcpMxFp4E2M1>(dst, src, &exp, &max, &scaling);
    TQUANT<QuantType::MXFP4_E2M1>(dst, src, &exp, &max, &scaling);
    Tile<TileType::Vec, bfloat16_t, 64, 64> src64;
    Tile<TileType::Vec, float4_e2m1x2_t, 64, 64> dst64;
    Tile<TileType::Vec, uint8_t, 1, 128> exp_pairs;
    Tile<TileType::Vec, float, 2, 64> max64, scaling64;
    TQUANT<0, MxQuantAlg::NvMxFp4E2M1, true>(dst64, src64, &exp_pairs, &max64, &scaling64);
    TQUANT<0, MxQuantAlg::NvMxFp4E2M1, false>(dst64, src64, &exp, &max64, &scaling64);
}
