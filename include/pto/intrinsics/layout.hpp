// The layout instructions: TTRANS, TRESHAPE, TFILLPAD with TFILLPAD_INPLACE and TFILLPAD_EXPAND, TCONCAT,
// TINTERLEAVE, TDEINTERLEAVE, TPACK, and the views TSUBVIEW (SUBVIEW) and TALIAS
// (pto/engine/ops/layout.hpp has the semantics).
#pragma once

#include <pto/common/conv_tile.hpp>
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

// TTRANS(dst, src, tmp) of convolution tiles: a format change (engine::ttrans_conv); tmp is not used.
template <typename DstConvTile, typename SrcConvTile, typename TileDataTmp, typename... WaitEvents>
    requires(is_conv_tile_v<DstConvTile> && is_conv_tile_v<SrcConvTile>)
PTO_INST RecordEvent TTRANS(DstConvTile& dst, SrcConvTile& src, TileDataTmp& tmp, WaitEvents&... events)
{
    static_assert(DstConvTile::Loc == TileType::Vec && SrcConvTile::Loc == TileType::Vec, "LEGAL_TTRANS_LOCATION: TTRANS takes Vec tiles");
    static_assert(std::is_same_v<typename DstConvTile::DType, typename SrcConvTile::DType> &&
                      (sizeof(typename SrcConvTile::DType) == 1 || sizeof(typename SrcConvTile::DType) == 2 ||
                       sizeof(typename SrcConvTile::DType) == 4),
                  "LEGAL_TTRANS_DTYPE: 1-, 2- or 4-byte elements, one type in src and dst");
    (void)tmp;
    WaitAllEvents(events...);
    engine::ttrans_conv(dst.desc(), src.desc());
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

namespace detail::layout {

template <typename... Tiles>
constexpr bool rearrange_tiles_ok = (rules::rearrange_tile_ok(Tiles::Loc, Tiles::BFractal, Tiles::SFractal) && ...);

template <typename First, typename... Tiles>
constexpr bool rearrange_dtypes_ok = rules::rearrange_dtype_ok(engine::dtype_of<typename First::DType>) &&
                                     (std::is_same_v<typename First::DType, typename Tiles::DType> && ...);

}  // namespace detail::layout

// TCONCAT(dst, src0, src1): each row of dst is src0's valid row followed by src1's.
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents,
          std::enable_if_t<all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TCONCAT(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events)
{
    static_assert(detail::layout::rearrange_tiles_ok<TileDataDst, TileDataSrc0, TileDataSrc1>,
                  "LEGAL_TCONCAT_LAYOUT: TCONCAT takes row-major Vec tiles");
    static_assert(detail::layout::rearrange_dtypes_ok<TileDataDst, TileDataSrc0, TileDataSrc1>,
                  "LEGAL_TCONCAT_DTYPE: one element type: 8-, 16-, 32-bit integers, f16, bf16 or f32");
    WaitAllEvents(events...);
    engine::tconcat(dst.desc(), src0.desc(), src1.desc(), nullptr);
    return {};
}

// TCONCAT(dst, src0, src1, src0Idx, src1Idx): row r takes src0Idx(r, 0) bytes of src0's row and
// src1Idx(r, 0) bytes of src1's.
template <typename DstTile, typename Src0Tile, typename Src1Tile, typename Src0IdxTile, typename Src1IdxTile, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<Src0IdxTile> && is_tile_data_v<Src1IdxTile> && all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TCONCAT(DstTile& dst, Src0Tile& src0, Src1Tile& src1, Src0IdxTile& src0Idx, Src1IdxTile& src1Idx,
                             WaitEvents&... events)
{
    static_assert(detail::layout::rearrange_tiles_ok<DstTile, Src0Tile, Src1Tile>, "LEGAL_TCONCAT_LAYOUT: TCONCAT takes row-major Vec tiles");
    static_assert(detail::layout::rearrange_dtypes_ok<DstTile, Src0Tile, Src1Tile>,
                  "LEGAL_TCONCAT_DTYPE: one element type: 8-, 16-, 32-bit integers, f16, bf16 or f32");
    static_assert(rules::concat_index_dtype_ok(engine::dtype_of<typename Src0IdxTile::DType>) &&
                      std::is_same_v<typename Src0IdxTile::DType, typename Src1IdxTile::DType>,
                  "LEGAL_TCONCAT_INDEX_DTYPE: the length tiles hold one 8-, 16- or 32-bit integer type");
    WaitAllEvents(events...);
    const engine::TileDesc a = src0Idx.desc(), b = src1Idx.desc();
    const engine::ConcatLengths lengths{nullptr, &a, &b};
    engine::tconcat(dst.desc(), src0.desc(), src1.desc(), &lengths);
    return {};
}

// TCONCAT(dst, src0, src1, dstIdx, src0Idx, src1Idx): as above, dstIdx(r, 0) receiving row r's bytes.
template <typename DstTile, typename Src0Tile, typename Src1Tile, typename DstIdxTile, typename Src0IdxTile, typename Src1IdxTile,
          typename... WaitEvents, std::enable_if_t<is_tile_data_v<Src1IdxTile> && all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TCONCAT(DstTile& dst, Src0Tile& src0, Src1Tile& src1, DstIdxTile& dstIdx, Src0IdxTile& src0Idx,
                             Src1IdxTile& src1Idx, WaitEvents&... events)
{
    static_assert(detail::layout::rearrange_tiles_ok<DstTile, Src0Tile, Src1Tile>, "LEGAL_TCONCAT_LAYOUT: TCONCAT takes row-major Vec tiles");
    static_assert(detail::layout::rearrange_dtypes_ok<DstTile, Src0Tile, Src1Tile>,
                  "LEGAL_TCONCAT_DTYPE: one element type: 8-, 16-, 32-bit integers, f16, bf16 or f32");
    static_assert(rules::concat_index_dtype_ok(engine::dtype_of<typename Src0IdxTile::DType>) &&
                      std::is_same_v<typename Src0IdxTile::DType, typename Src1IdxTile::DType> &&
                      std::is_same_v<typename Src0IdxTile::DType, typename DstIdxTile::DType>,
                  "LEGAL_TCONCAT_INDEX_DTYPE: the length tiles hold one 8-, 16- or 32-bit integer type");
    WaitAllEvents(events...);
    const engine::TileDesc out = dstIdx.desc(), a = src0Idx.desc(), b = src1Idx.desc();
    const engine::ConcatLengths lengths{&out, &a, &b};
    engine::tconcat(dst.desc(), src0.desc(), src1.desc(), &lengths);
    return {};
}

// TCONCAT_IMPL: the implementation's name, which the public CPU test program of TCONCAT calls directly.
template <typename... Tiles>
    requires(is_tile_data_v<Tiles> && ...)
PTO_INST void TCONCAT_IMPL(Tiles&... tiles)
{
    TCONCAT(tiles...);
}

// TINTERLEAVE(dst1, dst0, src1, src0): note the order, second halves first.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TINTERLEAVE(TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src1, TileDataSrc& src0, WaitEvents&... events)
{
    static_assert(detail::layout::rearrange_tiles_ok<TileDataDst, TileDataSrc>, "LEGAL_TINTERLEAVE_LAYOUT: row-major Vec tiles");
    static_assert(detail::layout::rearrange_dtypes_ok<TileDataDst, TileDataSrc>,
                  "LEGAL_TINTERLEAVE_DTYPE: one element type: 8-, 16-, 32-bit integers, f16, bf16 or f32");
    WaitAllEvents(events...);
    engine::tinterleave(dst0.desc(), dst1.desc(), src0.desc(), src1.desc());
    return {};
}

// TDEINTERLEAVE(dst1, dst0, src1, src0): the two halves of an interleaved stream.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents, std::enable_if_t<all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TDEINTERLEAVE(TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src1, TileDataSrc& src0, WaitEvents&... events)
{
    static_assert(detail::layout::rearrange_tiles_ok<TileDataDst, TileDataSrc>, "LEGAL_TDEINTERLEAVE_LAYOUT: row-major Vec tiles");
    static_assert(detail::layout::rearrange_dtypes_ok<TileDataDst, TileDataSrc>,
                  "LEGAL_TDEINTERLEAVE_DTYPE: one element type: 8-, 16-, 32-bit integers, f16, bf16 or f32");
    WaitAllEvents(events...);
    const engine::TileDesc second = src1.desc();
    engine::tdeinterleave(dst0.desc(), dst1.desc(), src0.desc(), &second);
    return {};
}

// TDEINTERLEAVE(dst1, dst0, src): one interleaved source.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents, std::enable_if_t<all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TDEINTERLEAVE(TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src, WaitEvents&... events)
{
    static_assert(detail::layout::rearrange_tiles_ok<TileDataDst, TileDataSrc>, "LEGAL_TDEINTERLEAVE_LAYOUT: row-major Vec tiles");
    static_assert(detail::layout::rearrange_dtypes_ok<TileDataDst, TileDataSrc>,
                  "LEGAL_TDEINTERLEAVE_DTYPE: one element type: 8-, 16-, 32-bit integers, f16, bf16 or f32");
    WaitAllEvents(events...);
    engine::tdeinterleave(dst0.desc(), dst1.desc(), src.desc(), nullptr);
    return {};
}

// TPACK(dst, src): the valid region in dst's element type (integers keep their low bytes).
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TPACK(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events)
{
    static_assert(detail::layout::rearrange_tiles_ok<TileDataDst, TileDataSrc>, "LEGAL_TPACK_LAYOUT: TPACK takes row-major Vec tiles");
    static_assert(rules::tpack_dtype_ok(engine::dtype_of<typename TileDataDst::DType>, engine::dtype_of<typename TileDataSrc::DType>),
                  "LEGAL_TPACK_DTYPE: integers into integers or floats into floats");
    WaitAllEvents(events...);
    engine::tpack(dst.desc(), src.desc());
    return {};
}

// TSUBVIEW(dst, src, rowIdx, colIdx): dst becomes a view of src from (rowIdx, colIdx) on, with src's
// capacity and pitch; dst's own valid region is what it views.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TSUBVIEW(TileDataDst& dst, TileDataSrc& src, uint16_t rowIdx, uint16_t colIdx, WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc>, "TSUBVIEW takes Tiles");
    static_assert(rules::subview_tiles_ok(TileDataDst::Loc, TileDataSrc::Loc, TileDataDst::Rows, TileDataDst::Cols, TileDataSrc::Rows,
                                          TileDataSrc::Cols, TileDataDst::BFractal, TileDataSrc::BFractal, TileDataDst::SFractal,
                                          TileDataSrc::SFractal),
                  "LEGAL_TSUBVIEW_TILE: a subview has its source's memory, capacity and layout");
    WaitAllEvents(events...);
    const int64_t offset = engine::subview_byte_offset(dst.desc(), src.desc(), rowIdx, colIdx);
    dst.view_bytes(reinterpret_cast<std::byte*>(src.data()) + offset, src.storage_owner());
    return {};
}

// SUBVIEW: TSUBVIEW's other public name.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent SUBVIEW(TileDataDst& dst, TileDataSrc& src, uint16_t rowIdx, uint16_t colIdx, WaitEvents&... events)
{
    return TSUBVIEW(dst, src, rowIdx, colIdx, events...);
}

// TALIAS(dst, src): dst becomes a second view of src's bytes, as its own type and shape.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TALIAS(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc>, "TALIAS takes Tiles");
    static_assert(TileDataDst::Loc == TileDataSrc::Loc, "LEGAL_TALIAS_LOCATION: an alias stays in its source's memory");
    static_assert(rules::talias_size_ok(int64_t(TileDataDst::SizeInBytes), int64_t(TileDataSrc::SizeInBytes)),
                  "LEGAL_TALIAS_SIZE: an alias fits in its source's bytes");
    WaitAllEvents(events...);
    engine::require_talias(dst.desc(), src.desc());
    dst.view_bytes(reinterpret_cast<std::byte*>(src.data()), src.storage_owner());
    return {};
}

}  // namespace pto
