// The layout instructions: TTRANS, TRESHAPE, TFILLPAD with TFILLPAD_INPLACE and TFILLPAD_EXPAND
// (pto/engine/ops/layout.hpp has the semantics).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/profile/target.hpp>

#include <cstdint>
#include <type_traits>

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

// TRESHAPE(dst, src): dst becomes a view of src's bytes, read as its own type and shape (afterwards
// dst.data() is src.data(), as in the public CPU simulation).
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST RecordEvent TRESHAPE(TileDataOut& dst, TileDataIn& src, WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataOut> && is_tile_data_v<TileDataIn>, "TRESHAPE takes Tiles");
    static_assert(rules::treshape_ok_location(TileDataOut::Loc, TileDataIn::Loc), "LEGAL_TRESHAPE_LOCATION: a reshape stays in its memory");
    static_assert(rules::treshape_size_ok(int64_t(TileDataOut::SizeInBytes), int64_t(TileDataIn::SizeInBytes)),
                  "LEGAL_TRESHAPE_SIZE: a reshape keeps the tile's bytes");
    static_assert(rules::treshape_layout_ok(TileDataOut::SFractal, TileDataIn::SFractal),
                  "LEGAL_TRESHAPE_LAYOUT: a reshape does not box or unbox a tile");
    WaitAllEvents(events...);
    dst.view_bytes(reinterpret_cast<std::byte*>(src.data()), src.storage_owner());
    engine::treshape(dst.desc(), src.desc());
    return {};
}

namespace detail::layout {

template <TFillPadMode Mode, PadValue Pad, typename Dst, typename Src>
constexpr void static_check_fillpad()
{
    static_assert(is_tile_data_v<Dst> && is_tile_data_v<Src>, "TFILLPAD takes Tiles");
    static_assert(rules::tfillpad_location_ok(Dst::Loc, Dst::BFractal, Dst::SFractal, Pad) &&
                      rules::tfillpad_location_ok(Src::Loc, Src::BFractal, Src::SFractal, Pad),
                  "LEGAL_TFILLPAD_LOCATION: Vec tiles, or Nz Mat tiles padded with zeros");
    static_assert(rules::tfillpad_dtype_ok(engine::dtype_of<typename Dst::DType>, engine::dtype_of<typename Src::DType>),
                  "LEGAL_TFILLPAD_DTYPE: 1-, 2- or 4-byte elements of one size");
    static_assert(rules::tfillpad_pad_ok(Pad), "LEGAL_TFILLPAD_PAD: dst's pad value is not PadValue::Null");
    static_assert(rules::tfillpad_shape_ok(Mode, Dst::Rows, Dst::Cols, Src::Rows, Src::Cols),
                  "LEGAL_TFILLPAD_SHAPE: one capacity (TFILLPAD_EXPAND: dst's holds src's)");
}

}  // namespace detail::layout

// TFILLPAD<TileData, PadVal>(dst, src): a Mat tile (Nz) copied with its padding set to PadVal (Zero).
template <typename TileData, PadValue PadVal = PadValue::Zero, std::enable_if_t<(TileData::Loc == TileType::Mat), int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TFILLPAD(TileData& dst, TileData& src, WaitEvents&... events)
{
    detail::layout::static_check_fillpad<TFillPadMode::Normal, PadVal, TileData, TileData>();
    WaitAllEvents(events...);
    engine::tfillpad(dst.desc(), src.desc(), TFillPadMode::Normal, PadVal);
    return {};
}

// TFILLPAD<mode>(dst, src): Vec tiles, the padding set to dst's pad value.
template <TFillPadMode mode = TFillPadMode::Normal, typename DstTileData, typename SrcTileData,
          std::enable_if_t<(DstTileData::Loc == TileType::Vec) && (SrcTileData::Loc == TileType::Vec), int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TFILLPAD(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    static_assert(mode == TFillPadMode::Normal || mode == TFillPadMode::InPlace || mode == TFillPadMode::Expand,
                  "TFILLPAD's mode is Normal, InPlace or Expand");
    detail::layout::static_check_fillpad<mode, DstTileData::PadVal, DstTileData, SrcTileData>();
    WaitAllEvents(events...);
    engine::tfillpad(dst.desc(), src.desc(), mode, DstTileData::PadVal);
    return {};
}

template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TFILLPAD_INPLACE(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    return TFILLPAD<TFillPadMode::InPlace>(dst, src, events...);
}

template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TFILLPAD_EXPAND(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    return TFILLPAD<TFillPadMode::Expand>(dst, src, events...);
}

}  // namespace pto
