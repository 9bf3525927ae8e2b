// TSORT32: sort each 32-element block of every row, with its indices, into (value, index) pairs; TMRGSORT:
// merge sorted lists of such pairs.
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

#include <cstdint>
#include <tuple>
#include <type_traits>

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

namespace detail::tmrgsort {

template <typename... Tiles>
constexpr void check_tiles()
{
    static_assert((is_tile_data_v<Tiles> && ...), "TMRGSORT takes Tiles");
    static_assert((rules::tmrgsort_tile_ok(Tiles::Loc, Tiles::BFractal, Tiles::SFractal, Tiles::Rows) && ...),
                  "LEGAL_TMRGSORT_LAYOUT: TMRGSORT takes one-row, row-major Vec tiles");
    using First = std::tuple_element_t<0, std::tuple<Tiles...>>;
    static_assert(rules::tmrgsort_dtype_ok(engine::dtype_of<typename First::DType>) &&
                      (std::is_same_v<typename First::DType, typename Tiles::DType> && ...),
                  "LEGAL_TMRGSORT_DTYPE: pairs of half or float values, one type in every tile");
}

template <typename Tmp, typename... Lists>
constexpr void check_lists()
{
    static_assert(((Lists::ValidCol == DYNAMIC) || ...) || rules::tmrgsort_tmp_ok(Tmp::Cols, (int64_t(Lists::ValidCol) + ...)),
                  "LEGAL_TMRGSORT_TMP: tmp holds every source's valid columns");
    static_assert(rules::tmrgsort_ub_ok(profile::kProfile, int64_t(Tmp::SizeInBytes) + (int64_t(Lists::SizeInBytes) + ...)),
                  "LEGAL_TMRGSORT_UB: the sources and tmp fit in UB together");
}

template <typename Dst, typename Tmp, typename... Lists>
RecordEvent merge_lists(Dst& dst, MrgSortExecutedNumList& executed, Tmp& tmp, bool exhausted, Lists&... lists)
{
    check_tiles<Dst, Tmp, Lists...>();
    check_lists<Tmp, Lists...>();
    const engine::TileDesc descs[] = {lists.desc()...};
    const engine::TileDesc* pointers[sizeof...(Lists)];
    for (std::size_t i = 0; i < sizeof...(Lists); ++i) pointers[i] = &descs[i];
    const engine::TileDesc tmp_desc = tmp.desc();
    uint16_t counts[4];
    engine::tmrgsort(dst.desc(), &tmp_desc, pointers, exhausted, counts);
    executed = {counts[0], counts[1], counts[2], counts[3]};
    return {};
}

}  // namespace detail::tmrgsort

// The tmp columns a TMRGSORT of these lists needs: the sum of their Cols.
template <typename Src0TileData, typename Src1TileData>
constexpr uint32_t GETMRGSORTTMPSIZE()
{
    return uint32_t(Src0TileData::Cols + Src1TileData::Cols);
}
template <typename Src0TileData, typename Src1TileData, typename Src2TileData>
constexpr uint32_t GETMRGSORTTMPSIZE()
{
    return uint32_t(Src0TileData::Cols + Src1TileData::Cols + Src2TileData::Cols);
}
template <typename Src0TileData, typename Src1TileData, typename Src2TileData, typename Src3TileData>
constexpr uint32_t GETMRGSORTTMPSIZE()
{
    return uint32_t(Src0TileData::Cols + Src1TileData::Cols + Src2TileData::Cols + Src3TileData::Cols);
}

// TMRGSORT<..., exhausted>(dst, executedNumList, tmp, src0, src1[, src2[, src3]]): merges 2 to 4 sorted
// lists of (value, index) pairs, largest first (engine::tmrgsort); executedNumList receives the pairs
// taken from each list.
template <typename DstTileData, typename TmpTileData, typename Src0TileData, typename Src1TileData, typename Src2TileData,
          typename Src3TileData, bool exhausted, typename... WaitEvents>
PTO_INST RecordEvent TMRGSORT(DstTileData& dst, MrgSortExecutedNumList& executedNumList, TmpTileData& tmp, Src0TileData& src0,
                              Src1TileData& src1, Src2TileData& src2, Src3TileData& src3, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::tmrgsort::merge_lists(dst, executedNumList, tmp, exhausted, src0, src1, src2, src3);
}

template <typename DstTileData, typename TmpTileData, typename Src0TileData, typename Src1TileData, typename Src2TileData,
          bool exhausted, typename... WaitEvents>
PTO_INST RecordEvent TMRGSORT(DstTileData& dst, MrgSortExecutedNumList& executedNumList, TmpTileData& tmp, Src0TileData& src0,
                              Src1TileData& src1, Src2TileData& src2, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::tmrgsort::merge_lists(dst, executedNumList, tmp, exhausted, src0, src1, src2);
}

template <typename DstTileData, typename TmpTileData, typename Src0TileData, typename Src1TileData, bool exhausted,
          typename... WaitEvents>
PTO_INST RecordEvent TMRGSORT(DstTileData& dst, MrgSortExecutedNumList& executedNumList, TmpTileData& tmp, Src0TileData& src0,
                              Src1TileData& src1, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::tmrgsort::merge_lists(dst, executedNumList, tmp, exhausted, src0, src1);
}

// TMRGSORT(dst, src, blockLen): src's row is groups of four sorted blocks of blockLen elements, each group
// merged into the same columns of dst.
template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TMRGSORT(DstTileData& dst, SrcTileData& src, uint32_t blockLen, WaitEvents&... events)
{
    detail::tmrgsort::check_tiles<DstTileData, SrcTileData>();
    static_assert(rules::tmrgsort_ub_ok(profile::kProfile, int64_t(DstTileData::SizeInBytes) + int64_t(SrcTileData::SizeInBytes)),
                  "LEGAL_TMRGSORT_UB: src and dst fit in UB together");
    WaitAllEvents(events...);
    engine::tmrgsort_blocks(dst.desc(), src.desc(), blockLen);
    return {};
}

}  // namespace pto
