// TDEQUANT: integer tiles back to float with a scale and an offset per row (pto/engine/ops/quant.hpp).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/quant.hpp>
#include <pto/profile/rules_quant.hpp>

namespace pto {

// TDEQUANT(dst, src, scale, offset): dst = (src - offset[row]) * scale[row].
template <typename TileDataDst, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST RecordEvent TDEQUANT(TileDataDst& dst, TileDataSrc& src, TileDataPara& scale, TileDataPara& offset,
                              WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc> && is_tile_data_v<TileDataPara>,
                  "TDEQUANT takes Tiles");
    static_assert(rules::tdequant_dtype_ok(engine::dtype_of<typename TileDataDst::DType>,
                                           engine::dtype_of<typename TileDataSrc::DType>,
                                           engine::dtype_of<typename TileDataPara::DType>),
                  "LEGAL_TDEQUANT_DTYPE: TDEQUANT turns int8_t or int16_t tiles into float, with float scale and offset");
    static_assert(rules::tdequant_location_ok(TileDataDst::Loc) && rules::tdequant_location_ok(TileDataSrc::Loc) &&
                      rules::tdequant_location_ok(TileDataPara::Loc),
                  "LEGAL_TDEQUANT_LOCATION: TDEQUANT takes Vec tiles (UB) only");
    static_assert(rules::tdequant_layout_ok(TileDataDst::BFractal, TileDataDst::SFractal) &&
                      rules::tdequant_layout_ok(TileDataSrc::BFractal, TileDataSrc::SFractal),
                  "LEGAL_TDEQUANT_LAYOUT: dst and src are row-major, unboxed tiles");
    WaitAllEvents(events...);
    engine::tdequant(dst.desc(), src.desc(), scale.desc(), offset.desc());
    return {};
}

}  // namespace pto
