// TSORT32: sort each 32-element block of every row, with its indices, into (value, index) pairs.
// The rules the tile types decide are checked here for PTO_TARGET; the engine checks all of them again
// at run time (valid shapes may be DYNAMIC).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/sort.hpp>
#include <pto/profile/rules_sort.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail::tsort32 {

template <typename TileT>
constexpr void check_placement()
{
    static_assert(rules::tsort32_location_ok(TileT::Loc),
                  "LEGAL_TSORT32_LOCATION: every TSORT32 operand must be a Vec tile");
    static_assert(rules::tsort32_layout_ok(TileT::BFractal, TileT::SFractal),
                  "LEGAL_TSORT32_LAYOUT: every TSORT32 operand must be a plain row-major tile");
}

template <typename Dst, typename Src, typename Idx>
constexpr void check_operands()
{
    using engine::dtype_of;
    check_placement<Dst>();
    check_placement<Src>();
    check_placement<Idx>();
    static_assert(rules::tsort32_dtype_ok(profile::kProfile, dtype_of<typename Src::DType>),
                  "LEGAL_TSORT32_DTYPE: TSORT32 sorts half or float values");
    static_assert(rules::tsort32_same_dtype_ok(dtype_of<typename Dst::DType>, dtype_of<typename Src::DType>),
                  "LEGAL_TSORT32_SAME_DTYPE: dst must have src's element type");
    static_assert(rules::tsort32_index_dtype_ok(dtype_of<typename Idx::DType>),
                  "LEGAL_TSORT32_INDEX_DTYPE: idx must hold uint32_t");
    static_assert(Dst::ValidCol == DYNAMIC || Src::ValidCol == DYNAMIC ||
                      rules::tsort32_dst_cols_ok(Dst::ValidCol, Src::ValidCol, dtype_of<typename Src::DType>),
                  "LEGAL_TSORT32_DST_SHAPE: dst needs 2 (float) or 4 (half) columns per sorted element");
}

}  // namespace detail::tsort32

// Whole 32-element blocks: src's valid columns are a multiple of 32.
template <typename DstTileData, typename SrcTileData, typename IdxTileData, typename... WaitEvents>
    requires((!is_tile_data_v<WaitEvents> && ...))
PTO_INST RecordEvent TSORT32(DstTileData& dst, SrcTileData& src, IdxTileData& idx, WaitEvents&... events)
{
    detail::tsort32::check_operands<DstTileData, SrcTileData, IdxTileData>();
    static_assert(SrcTileData::ValidCol == DYNAMIC || rules::tsort32_cols_ok(SrcTileData::ValidCol),
                  "LEGAL_TSORT32_COLS: without tmp, src's valid columns must be a multiple of 32");
    WaitAllEvents(events...);
    engine::tsort32(dst.desc(), src.desc(), idx.desc(), nullptr);
    return {};
}

// Any column count: the last block of a row may be shorter than 32.
template <typename DstTileData, typename SrcTileData, typename IdxTileData, typename TmpTileData,
          typename... WaitEvents>
    requires(is_tile_data_v<TmpTileData> && (!is_tile_data_v<WaitEvents> && ...))
PTO_INST RecordEvent TSORT32(DstTileData& dst, SrcTileData& src, IdxTileData& idx, TmpTileData& tmp,
                             WaitEvents&... events)
{
    detail::tsort32::check_operands<DstTileData, SrcTileData, IdxTileData>();
    detail::tsort32::check_placement<TmpTileData>();
    static_assert(rules::tsort32_same_dtype_ok(engine::dtype_of<typename TmpTileData::DType>,
                                               engine::dtype_of<typename SrcTileData::DType>),
                  "LEGAL_TSORT32_SAME_DTYPE: tmp must have src's element type");
    static_assert(
        SrcTileData::ValidCol == DYNAMIC || rules::tsort32_tmp_size_ok(TmpTileData::Cols, SrcTileData::ValidCol),
        "LEGAL_TSORT32_TMP_SIZE: tmp needs src's valid columns rounded up to a multiple of 32");
    WaitAllEvents(events...);
    const engine::TileDesc tmp_desc = tmp.desc();
    engine::tsort32(dst.desc(), src.desc(), idx.desc(), &tmp_desc);
    return {};
}

}  // namespace pto
