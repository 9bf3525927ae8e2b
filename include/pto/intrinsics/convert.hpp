// TCVT: element-type conversion of a tile. Each overload checks at compile time the rules its template
// arguments decide for PTO_TARGET, then hands the operands' descriptors to the engine, which checks the
// run-time facts and converts (see pto/engine/ops/convert.hpp for the exact semantics).
//
// NeedSetCtrl says whether the device sets the vector unit's control register (the saturation bit) for
// this call; the simulator has no such register, so it changes nothing. A tmp tile is scratch storage
// some device conversion paths use; it is accepted and never touched.
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/convert.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_convert.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail::tcvt {

template <typename TileData>
inline constexpr engine::DType dtype_v = engine::dtype_of<typename TileData::DType>;

template <typename Dst, typename Src>
constexpr void static_check()
{
    static_assert(is_tile_data_v<Dst> && is_tile_data_v<Src>, "TCVT converts a Tile into a Tile");
    constexpr const profile::Profile& p = profile::kProfile;
    static_assert(rules::tcvt_pair_ok(p, dtype_v<Dst>, dtype_v<Src>),
                  "LEGAL_TCVT_PAIR: PTO_TARGET does not convert src's element type into dst's "
                  "(the TCVT page's table of conversions per target)");
    static_assert(rules::tcvt_location_ok(Dst::Loc) && rules::tcvt_location_ok(Src::Loc),
                  "LEGAL_TCVT_LOCATION: TCVT takes Vec tiles (UB) only");
    static_assert(rules::tcvt_layout_ok(p, Dst::BFractal, Dst::SFractal) &&
                      rules::tcvt_layout_ok(p, Src::BFractal, Src::SFractal),
                  "LEGAL_TCVT_LAYOUT: on a2a3 and a5 TCVT takes unboxed row-major tiles only");
    static_assert(rules::tcvt_valid_shape_ok(Dst::ValidRow, Dst::ValidCol, Src::ValidRow, Src::ValidCol),
                  "RUN_VALID_SHAPE: src must have dst's valid shape");
}

}  // namespace detail::tcvt

// TCVT(dst, src, tmp, mode, satMode): dst = src converted, rounding by `mode`, saturating as `satMode` says.
template <bool NeedSetCtrl = true, typename TileDataD, typename TileDataS, typename TmpTileData, typename... WaitEvents>
    requires is_tile_data_v<TmpTileData>
PTO_INST RecordEvent TCVT(TileDataD& dst, TileDataS& src, TmpTileData& /*tmp*/, RoundMode mode, SaturationMode satMode,
                          WaitEvents&... events)
{
    detail::tcvt::static_check<TileDataD, TileDataS>();
    WaitAllEvents(events...);
    engine::tcvt(dst.desc(), src.desc(), mode, satMode);
    return {};
}

// TCVT(dst, src, tmp, mode): with the pair's default saturation (numeric::default_saturation).
template <bool NeedSetCtrl = true, typename TileDataD, typename TileDataS, typename TmpTileData, typename... WaitEvents>
    requires is_tile_data_v<TmpTileData>
PTO_INST RecordEvent TCVT(TileDataD& dst, TileDataS& src, TmpTileData& /*tmp*/, RoundMode mode, WaitEvents&... events)
{
    detail::tcvt::static_check<TileDataD, TileDataS>();
    WaitAllEvents(events...);
    engine::tcvt(dst.desc(), src.desc(), mode,
                 numeric::default_saturation(detail::tcvt::dtype_v<TileDataD>, detail::tcvt::dtype_v<TileDataS>));
    return {};
}

// TCVT(dst, src, mode, satMode): dst = src converted, rounding by `mode`, saturating as `satMode` says.
template <bool NeedSetCtrl = true, typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(TileDataD& dst, TileDataS& src, RoundMode mode, SaturationMode satMode, WaitEvents&... events)
{
    detail::tcvt::static_check<TileDataD, TileDataS>();
    WaitAllEvents(events...);
    engine::tcvt(dst.desc(), src.desc(), mode, satMode);
    return {};
}

// TCVT(dst, src, mode): with the pair's default saturation (numeric::default_saturation).
template <bool NeedSetCtrl = true, typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(TileDataD& dst, TileDataS& src, RoundMode mode, WaitEvents&... events)
{
    detail::tcvt::static_check<TileDataD, TileDataS>();
    WaitAllEvents(events...);
    engine::tcvt(dst.desc(), src.desc(), mode,
                 numeric::default_saturation(detail::tcvt::dtype_v<TileDataD>, detail::tcvt::dtype_v<TileDataS>));
    return {};
}

}  // namespace pto
