// The layout instructions: TTRANS, ... (pto/engine/ops/layout.hpp has the semantics).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/profile/target.hpp>

namespace pto {

// TTRANS(dst, src, tmp): dst(i, j) = src(j, i). tmp is required by the signature and not used.
template <typename TileDataDst, typename TileDataSrc, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TTRANS(TileDataDst& dst, TileDataSrc& src, TileDataTmp& tmp, WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc> && is_tile_data_v<TileDataTmp>,
                  "TTRANS takes Tiles");
    static_assert(rules::ttrans_location_ok(TileDataDst::Loc) && rules::ttrans_location_ok(TileDataSrc::Loc) &&
                      rules::ttrans_location_ok(TileDataTmp::Loc),
                  "LEGAL_TTRANS_LOCATION: TTRANS takes Vec tiles");
    static_assert(rules::ttrans_dtype_ok(engine::dtype_of<typename TileDataDst::DType>,
                                         engine::dtype_of<typename TileDataSrc::DType>),
                  "LEGAL_TTRANS_DTYPE: 1-, 2- or 4-byte elements, the same size in src and dst");
    static_assert(rules::ttrans_layout_ok(profile::kProfile, TileDataSrc::BFractal),
                  "LEGAL_TTRANS_LAYOUT: on a2a3 src is row-major");
    WaitAllEvents(events...);
    const engine::TileDesc tmp_desc = tmp.desc();
    engine::ttrans(dst.desc(), src.desc(), &tmp_desc);
    return {};
}

}  // namespace pto
