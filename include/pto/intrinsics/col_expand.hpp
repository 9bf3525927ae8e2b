// TCOLEXPAND: broadcast src's first row down every row of dst's valid region. The rules the tile types
// decide are checked here for PTO_TARGET; the engine checks all of them again at run time (valid shapes
// may be DYNAMIC).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/col_expand.hpp>
#include <pto/profile/rules_col_expand.hpp>
#include <pto/profile/target.hpp>

namespace pto {

template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TCOLEXPAND(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events)
{
    using engine::dtype_of;
    static_assert(rules::tcolexpand_location_ok(TileDataDst::Loc) && rules::tcolexpand_location_ok(TileDataSrc::Loc),
                  "LEGAL_TCOLEXPAND_LOCATION: dst and src must be Vec tiles");
    static_assert(rules::tcolexpand_layout_ok(TileDataDst::BFractal, TileDataDst::SFractal) &&
                      rules::tcolexpand_layout_ok(TileDataSrc::BFractal, TileDataSrc::SFractal),
                  "LEGAL_TCOLEXPAND_LAYOUT: dst and src must be plain row-major tiles");
    static_assert(rules::tcolexpand_dtype_ok(profile::kProfile, dtype_of<typename TileDataSrc::DType>),
                  "LEGAL_TCOLEXPAND_DTYPE: TCOLEXPAND does not broadcast this element type on PTO_TARGET");
    static_assert(
        rules::tcolexpand_same_dtype_ok(dtype_of<typename TileDataDst::DType>, dtype_of<typename TileDataSrc::DType>),
        "LEGAL_TCOLEXPAND_SAME_DTYPE: dst and src must have the same element type");
    static_assert(TileDataDst::ValidRow == DYNAMIC || TileDataDst::ValidCol == DYNAMIC ||
                      TileDataSrc::ValidRow == DYNAMIC || TileDataSrc::ValidCol == DYNAMIC ||
                      rules::tcolexpand_shape_ok(TileDataDst::ValidRow, TileDataDst::ValidCol, TileDataSrc::ValidRow,
                                                 TileDataSrc::ValidCol),
                  "LEGAL_TCOLEXPAND_SHAPE: src must have dst's valid columns and at least one valid row");
    WaitAllEvents(events...);
    engine::tcolexpand(dst.desc(), src.desc());
    return {};
}

}  // namespace pto
