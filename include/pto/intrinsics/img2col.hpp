// TIMG2COL: a convolution feature map (a ConvTile in L1) into the cube's left operand, im2col order; and
// SETFMATRIX, SET_IMG2COL_PADDING, SET_IMG2COL_RPT, which load the registers it reads
// (pto/engine/ops/img2col.hpp has the semantics).
#pragma once

#include <pto/common/conv_tile.hpp>
#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/img2col.hpp>
#include <pto/profile/rules_img2col.hpp>
#include <pto/profile/target.hpp>

#include <cstdint>

namespace pto {

template <typename TileData, typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL,
          typename... WaitEvents>
PTO_INST RecordEvent TIMG2COL(TileData& dst, ConvTileData& src, uint16_t posM = 0, uint16_t posK = 0,
                              WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileData> && is_conv_tile_v<ConvTileData>, "TIMG2COL reads a ConvTile into a Tile");
    static_assert(rules::timg2col_location_ok(ConvTileData::Loc, TileData::Loc),
                  "LEGAL_TIMG2COL_LOCATION: TIMG2COL reads a Mat feature map into a Left tile");
    static_assert(rules::timg2col_layout_ok(profile::kProfile, ConvTileData::layout, TileData::BFractal, TileData::SFractal),
                  "LEGAL_TIMG2COL_LAYOUT: an NC1HWC0/NDC1HWC0 map into Zz (a2a3) or Nz (a5) left-operand fractals");
    static_assert(rules::timg2col_dtype_ok(profile::kProfile, engine::dtype_of<typename ConvTileData::DType>,
                                           engine::dtype_of<typename TileData::DType>),
                  "LEGAL_TIMG2COL_DTYPE: one element type: int8_t, half, bfloat16_t or float (a5 also uint8_t and the "
                  "16- and 32-bit integers)");
    WaitAllEvents(events...);
    engine::timg2col(dst.desc(), src.desc(), src.img2col_config(), FmatrixMode, posM, posK);
    return {};
}

template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SETFMATRIX(ConvTileData& src, WaitEvents&... events)
{
    static_assert(is_conv_tile_v<ConvTileData>, "SETFMATRIX reads a ConvTile's configuration");
    WaitAllEvents(events...);
    engine::set_fmatrix(src.img2col_config(), FmatrixMode);
    return {};
}

template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SET_IMG2COL_PADDING(ConvTileData& src, WaitEvents&... events)
{
    static_assert(is_conv_tile_v<ConvTileData>, "SET_IMG2COL_PADDING reads a ConvTile's pad value");
    WaitAllEvents(events...);
    engine::set_img2col_padding(src.img2col_config(), FmatrixMode);
    return {};
}

template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SET_IMG2COL_RPT(ConvTileData& src, WaitEvents&... events)
{
    static_assert(is_conv_tile_v<ConvTileData>, "SET_IMG2COL_RPT reads a ConvTile's repeat parameters");
    WaitAllEvents(events...);
    engine::set_img2col_repeat(src.img2col_config(), FmatrixMode);
    return {};
}

}  // namespace pto
