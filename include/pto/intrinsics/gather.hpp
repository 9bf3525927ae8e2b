// TGATHER: gather by an index tile, select by a mask pattern, or gather the positions that pass a
// per-row comparison; its inverse TSCATTER (index and mask-pattern forms); TGATHERB (32-byte blocks). The rules the tile types decide are checked here for PTO_TARGET; the engine
// checks all of them again at run time (valid shapes may be DYNAMIC).
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/gather.hpp>
#include <pto/profile/rules_gather.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail::tgather {

template <typename... Ts>
inline constexpr bool no_tiles_v = (!is_tile_data_v<Ts> && ...);

template <typename TileT>
inline constexpr engine::DType tile_dtype_v = engine::dtype_of<typename TileT::DType>;

template <typename TileT>
inline constexpr bool static_valid_col_v = TileT::ValidCol != DYNAMIC;

template <typename TileT>
inline constexpr bool static_valid_shape_v = TileT::ValidRow != DYNAMIC && TileT::ValidCol != DYNAMIC;

template <typename Dst, typename Src, typename Indices>
constexpr void check_index_form()
{
    constexpr const profile::Profile& p = profile::kProfile;
    static_assert(rules::tgather_location_ok(Dst::Loc) && rules::tgather_location_ok(Src::Loc) &&
                      rules::tgather_location_ok(Indices::Loc),
                  "LEGAL_TGATHER_LOCATION: every TGATHER operand must be a Vec tile");
    static_assert(rules::tgather_data_dtype_ok(p, tile_dtype_v<Src>),
                  "LEGAL_TGATHER_DATA_DTYPE: the index form does not gather this element type on PTO_TARGET");
    static_assert(rules::tgather_same_dtype_ok(tile_dtype_v<Dst>, tile_dtype_v<Src>),
                  "LEGAL_TGATHER_SAME_DTYPE: dst and src0 must have the same element type");
    static_assert(rules::tgather_indices_dtype_ok(p, tile_dtype_v<Indices>),
                  "LEGAL_TGATHER_INDICES_DTYPE: index type not accepted on PTO_TARGET (int32/uint32; A5 also 16-bit)");
    static_assert(!static_valid_col_v<Dst> || rules::tgather_dst_contiguous_ok(p, Dst::ValidCol, Dst::Cols),
                  "LEGAL_TGATHER_DST_CONTIGUOUS: dst's valid columns must equal its Cols");
    static_assert(
        !static_valid_col_v<Indices> || rules::tgather_indices_contiguous_ok(p, Indices::ValidCol, Indices::Cols),
        "LEGAL_TGATHER_INDICES_CONTIGUOUS: on A5 the indices' valid columns must equal their Cols");
    static_assert(!static_valid_shape_v<Dst> || !static_valid_shape_v<Indices> ||
                      rules::tgather_index_shape_ok(Dst::ValidRow, Dst::ValidCol, Indices::ValidRow, Indices::ValidCol),
                  "LEGAL_TGATHER_SHAPE: the indices' valid region must cover dst's valid region");
}

}  // namespace detail::tgather

// Index form with a tmp tile (required on A2/A3, ignored elsewhere).
template <typename TileDataD, typename TileDataS0, typename TileDataS1, typename TileDataTmp, typename... WaitEvents>
    requires(is_tile_data_v<TileDataTmp> && detail::tgather::no_tiles_v<WaitEvents...>)
PTO_INST RecordEvent TGATHER(TileDataD& dst, TileDataS0& src0, TileDataS1& src1, TileDataTmp& tmp,
                             WaitEvents&... events)
{
    detail::tgather::check_index_form<TileDataD, TileDataS0, TileDataS1>();
    constexpr const profile::Profile& p = profile::kProfile;
    static_assert(rules::tgather_location_ok(TileDataTmp::Loc), "LEGAL_TGATHER_LOCATION: tmp must be a Vec tile");
    static_assert(rules::tgather_tmp_dtype_ok(p, detail::tgather::tile_dtype_v<TileDataTmp>,
                                              detail::tgather::tile_dtype_v<TileDataS1>),
                  "LEGAL_TGATHER_TMP_DTYPE: on A2/A3 tmp must have the indices' element type");
    static_assert(!detail::tgather::static_valid_shape_v<TileDataS1> ||
                      rules::tgather_tmp_shape_ok(p, TileDataTmp::Rows, TileDataTmp::Cols, TileDataS1::ValidRow,
                                                  TileDataS1::ValidCol),
                  "LEGAL_TGATHER_TMP_SHAPE: on A2/A3 tmp's Rows x Cols must be the indices' valid shape");
    WaitAllEvents(events...);
    const engine::TileDesc tmp_desc = tmp.desc();
    engine::tgather_index(dst.desc(), src0.desc(), src1.desc(), &tmp_desc);
    return {};
}

// Index form without a tmp tile (not on A2/A3).
template <typename TileDataD, typename TileDataS0, typename TileDataS1, typename... WaitEvents>
    requires(is_tile_data_v<TileDataS1> && detail::tgather::no_tiles_v<WaitEvents...>)
PTO_INST RecordEvent TGATHER(TileDataD& dst, TileDataS0& src0, TileDataS1& src1, WaitEvents&... events)
{
    detail::tgather::check_index_form<TileDataD, TileDataS0, TileDataS1>();
    // Dependent on the template arguments, so that only a call (not the mere definition) is checked.
    static_assert(rules::tgather_tmp_present_ok(profile::kProfile, false) || sizeof(TileDataD) == 0,
                  "LEGAL_TGATHER_TMP_REQUIRED: on A2/A3 the index form needs a tmp tile");
    WaitAllEvents(events...);
    engine::tgather_index(dst.desc(), src0.desc(), src1.desc(), nullptr);
    return {};
}

// Mask-pattern form.
template <typename DstTileData, typename SrcTileData, MaskPattern maskPattern, auto gatherType = GatherAxis::GATHER_ROW,
          typename... WaitEvents>
PTO_INST RecordEvent TGATHER(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    static_assert(std::is_same_v<decltype(gatherType), GatherAxis>, "TGATHER: gatherType must be a GatherAxis");
    constexpr const profile::Profile& p = profile::kProfile;
    static_assert(rules::tgather_location_ok(DstTileData::Loc) && rules::tgather_location_ok(SrcTileData::Loc),
                  "LEGAL_TGATHER_LOCATION: every TGATHER operand must be a Vec tile");
    static_assert(rules::tgather_layout_ok(DstTileData::BFractal, DstTileData::SFractal) &&
                      rules::tgather_layout_ok(SrcTileData::BFractal, SrcTileData::SFractal),
                  "LEGAL_TGATHER_LAYOUT: the mask form takes plain row-major tiles");
    static_assert(rules::tgather_mask_dtype_ok(p, detail::tgather::tile_dtype_v<SrcTileData>) &&
                      rules::tgather_mask_dtype_ok(p, detail::tgather::tile_dtype_v<DstTileData>),
                  "LEGAL_TGATHER_MASK_DTYPE: the mask form does not select this element type on PTO_TARGET");
    static_assert(rules::tgather_same_size_ok(detail::tgather::tile_dtype_v<DstTileData>,
                                              detail::tgather::tile_dtype_v<SrcTileData>),
                  "LEGAL_TGATHER_SAME_SIZE: dst and src elements must have the same size");
    static_assert(gatherType != GatherAxis::GATHER_ROW || !detail::tgather::static_valid_col_v<DstTileData> ||
                      rules::tgather_dst_contiguous_ok(p, DstTileData::ValidCol, DstTileData::Cols),
                  "LEGAL_TGATHER_DST_CONTIGUOUS: along GATHER_ROW dst's valid columns must equal its Cols");
    static_assert(!detail::tgather::static_valid_col_v<DstTileData> ||
                      !detail::tgather::static_valid_col_v<SrcTileData> ||
                      rules::tgather_mask_shape_ok(gatherType, DstTileData::ValidCol, SrcTileData::ValidCol),
                  "LEGAL_TGATHER_SHAPE: along GATHER_COL dst may not have more valid columns than src");
    WaitAllEvents(events...);
    engine::tgather_mask(dst.desc(), src.desc(), maskPattern, gatherType);
    return {};
}

// Comparison form: dst row r receives offset + r * Cols + c for each valid column c of src row r whose
// value compares (cmpMode) with k_value's element r; cdst's element r receives their number.
template <typename TileDataD, typename TileDataS, typename TileDataS1, typename TileDataC, typename TileDataTmp,
          CmpMode cmpMode, typename... WaitEvents>
PTO_INST RecordEvent TGATHER(TileDataD& dst, TileDataS& src0, TileDataS1& k_value, TileDataC& cdst, TileDataTmp& tmp,
                             uint32_t offset, WaitEvents&... events)
{
    constexpr const profile::Profile& p = profile::kProfile;
    static_assert(rules::tgather_location_ok(TileDataD::Loc) && rules::tgather_location_ok(TileDataS::Loc) &&
                      rules::tgather_location_ok(TileDataS1::Loc) && rules::tgather_location_ok(TileDataC::Loc) &&
                      rules::tgather_location_ok(TileDataTmp::Loc),
                  "LEGAL_TGATHER_LOCATION: every TGATHER operand must be a Vec tile");
    static_assert(rules::tgather_layout_ok(TileDataD::BFractal, TileDataD::SFractal) &&
                      rules::tgather_layout_ok(TileDataS::BFractal, TileDataS::SFractal),
                  "LEGAL_TGATHER_LAYOUT: the comparison form's dst and src0 are plain row-major tiles");
    static_assert(rules::tgather_cmp_mode_ok(cmpMode), "LEGAL_TGATHER_CMP_MODE: the comparison form takes GT or EQ");
    static_assert(rules::tgather_cmp_src_dtype_ok(p, detail::tgather::tile_dtype_v<TileDataS>, cmpMode),
                  "LEGAL_TGATHER_CMP_SRC_DTYPE: src0's element type is not compared (with this mode) on PTO_TARGET");
    static_assert(rules::tgather_cmp_dst_dtype_ok(detail::tgather::tile_dtype_v<TileDataD>) &&
                      rules::tgather_cmp_dst_dtype_ok(detail::tgather::tile_dtype_v<TileDataC>),
                  "LEGAL_TGATHER_CMP_DST_DTYPE: dst and cdst must hold int32 or uint32");
    static_assert(rules::tgather_cmp_k_dtype_ok(p, detail::tgather::tile_dtype_v<TileDataS1>),
                  "LEGAL_TGATHER_CMP_K_DTYPE: k_value's element type is not accepted on PTO_TARGET");
    static_assert(
        rules::tgather_cmp_tmp_size_ok(p, int64_t(TileDataTmp::SizeInBytes), TileDataTmp::Rows, TileDataTmp::Cols,
                                       TileDataS::Rows, TileDataS::Cols, TileDataS::ElementBits),
        "LEGAL_TGATHER_TMP_SIZE: on A2/A3 tmp must hold the comparison bitmap, the indices and the thresholds");
    WaitAllEvents(events...);
    const engine::TileDesc tmp_desc = tmp.desc();
    engine::tgather_compare(dst.desc(), src0.desc(), k_value.desc(), cdst.desc(), &tmp_desc, cmpMode, offset);
    return {};
}

// TSCATTER(dst, src, indexes): dst cleared, then dst's element indexes(i, j) = src(i, j).
template <typename TileDataD, typename TileDataS, typename TileDataI, typename... WaitEvents>
    requires(is_tile_data_v<TileDataI> && detail::tgather::no_tiles_v<WaitEvents...>)
PTO_INST RecordEvent TSCATTER(TileDataD& dst, TileDataS& src, TileDataI& indexes, WaitEvents&... events)
{
    constexpr const profile::Profile& p = profile::kProfile;
    static_assert(rules::tscatter_tile_ok(TileDataD::Loc, TileDataD::BFractal, TileDataD::SFractal) &&
                      rules::tscatter_tile_ok(TileDataS::Loc, TileDataS::BFractal, TileDataS::SFractal) &&
                      rules::tscatter_tile_ok(TileDataI::Loc, TileDataI::BFractal, TileDataI::SFractal),
                  "LEGAL_TSCATTER_LAYOUT: TSCATTER takes row-major Vec tiles");
    static_assert(rules::tscatter_dtype_ok(p, detail::tgather::tile_dtype_v<TileDataD>) &&
                      std::is_same_v<typename TileDataD::DType, typename TileDataS::DType>,
                  "LEGAL_TSCATTER_DTYPE: dst and src have one element type the target scatters");
    static_assert(rules::tscatter_indices_dtype_ok(p, detail::tgather::tile_dtype_v<TileDataD>, detail::tgather::tile_dtype_v<TileDataI>),
                  "LEGAL_TSCATTER_INDICES_DTYPE: 32-bit indices for 4- and 8-byte data, 16-bit ones for 1- and 2-byte data");
    WaitAllEvents(events...);
    engine::tscatter_index(dst.desc(), src.desc(), indexes.desc());
    return {};
}

// TSCATTER<maskPattern, ScatterType>(dst, src): dst cleared, src's elements spread to the positions the
// pattern keeps, along the rows (SCATTER_ROW) or the columns (SCATTER_COL).
template <MaskPattern maskPattern = MaskPattern::P1111, auto ScatterType = ScatterAxis::SCATTER_ROW, typename DstTileData,
          typename SrcTileData, typename... WaitEvents>
    requires(detail::tgather::no_tiles_v<WaitEvents...>)
PTO_INST RecordEvent TSCATTER(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    static_assert(std::is_same_v<decltype(ScatterType), ScatterAxis>, "TSCATTER: ScatterType must be a ScatterAxis");
    static_assert(rules::tscatter_tile_ok(DstTileData::Loc, DstTileData::BFractal, DstTileData::SFractal) &&
                      rules::tscatter_tile_ok(SrcTileData::Loc, SrcTileData::BFractal, SrcTileData::SFractal),
                  "LEGAL_TSCATTER_LAYOUT: TSCATTER takes row-major Vec tiles");
    static_assert(rules::tscatter_dtype_ok(profile::kProfile, detail::tgather::tile_dtype_v<DstTileData>) &&
                      std::is_same_v<typename DstTileData::DType, typename SrcTileData::DType>,
                  "LEGAL_TSCATTER_DTYPE: dst and src have one element type the target scatters");
    WaitAllEvents(events...);
    engine::tscatter_mask(dst.desc(), src.desc(), maskPattern, ScatterType);
    return {};
}

// TGATHERB(dst, src, offset): dst's 32-byte blocks copied from src at the byte offsets.
template <typename TileDataDst, typename TileDataSrc, typename TileDataOffset, typename... WaitEvents>
PTO_INST RecordEvent TGATHERB(TileDataDst& dst, TileDataSrc& src, TileDataOffset& offset, WaitEvents&... events)
{
    static_assert(TileDataDst::Loc == TileType::Vec && TileDataSrc::Loc == TileType::Vec && TileDataOffset::Loc == TileType::Vec,
                  "LEGAL_TGATHERB_LOCATION: TGATHERB takes Vec tiles");
    static_assert(rules::tgather_layout_ok(TileDataDst::BFractal, TileDataDst::SFractal) &&
                      rules::tgather_layout_ok(TileDataOffset::BFractal, TileDataOffset::SFractal),
                  "LEGAL_TGATHERB_LAYOUT: dst and the offsets are row-major");
    static_assert(rules::tgatherb_dtype_ok(detail::tgather::tile_dtype_v<TileDataDst>, detail::tgather::tile_dtype_v<TileDataSrc>),
                  "LEGAL_TGATHERB_DTYPE: 8-, 16-, 32-bit integers, f16, bf16 or f32, one size in dst and src");
    static_assert(rules::tgatherb_offset_dtype_ok(detail::tgather::tile_dtype_v<TileDataOffset>),
                  "LEGAL_TGATHERB_OFFSET_DTYPE: the offsets are 32-bit byte offsets");
    WaitAllEvents(events...);
    engine::tgatherb(dst.desc(), src.desc(), offset.desc());
    return {};
}

}  // namespace pto
