// TCMP, TCMPS, TSEL, TSELS: comparisons into a packed predicate mask and selections by one (the mask
// layout and the semantics are in pto/engine/ops/compare_select.hpp).
#pragma once

#include <type_traits>

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/compare_select.hpp>
#include <pto/profile/rules_compare_select.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail {

template <typename... Tiles>
constexpr void static_check_vec_row_major()
{
    static_assert((is_tile_data_v<Tiles> && ...), "comparison and selection take Tiles");
    static_assert((rules::elementwise_location_ok(Tiles::Loc) && ...),
                  "LEGAL_ELEMWISE_LOCATION: comparison and selection take Vec tiles (UB) only");
    static_assert((rules::elementwise_layout_ok(profile::kProfile, Tiles::BFractal, Tiles::SFractal) && ...),
                  "LEGAL_ELEMWISE_LAYOUT: on a2a3 and a5 comparison and selection take unboxed row-major tiles only");
}

template <typename Mask>
constexpr void static_check_comparison_mask()
{
    static_assert(rules::predicate_mask_dtype_ok(profile::kProfile, engine::dtype_of<typename Mask::DType>),
                  "LEGAL_PREDICATE_MASK_DTYPE: a comparison writes a uint8_t mask on a2a3 and a uint32_t mask on a5");
}

}  // namespace detail

// TCMP(dst, src0, src1, cmpMode): the packed predicate mask of src0 cmpMode src1.
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
PTO_INST RecordEvent TCMP(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, CmpMode cmpMode, WaitEvents&... events)
{
    detail::static_check_vec_row_major<TileDataDst, TileDataSrc0, TileDataSrc1>();
    detail::static_check_comparison_mask<TileDataDst>();
    static_assert(rules::tcmp_dtype_ok(profile::kProfile, engine::dtype_of<typename TileDataSrc0::DType>),
                  "LEGAL_TCMP_DTYPE: TCMP compares i32, f16, f32 on a2a3; u32, i32, u16, i16, u8, i8, f32, f16, bf16 on a5");
    WaitAllEvents(events...);
    engine::tcmp(dst.desc(), src0.desc(), src1.desc(), cmpMode);
    return {};
}

// TCMPS(dst, src0, scalar, mode): against a scalar.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents,
          std::enable_if_t<all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TCMPS(TileDataDst& dst, TileDataSrc& src0, typename TileDataSrc::DType src1, CmpMode mode,
                           WaitEvents&... events)
{
    detail::static_check_vec_row_major<TileDataDst, TileDataSrc>();
    detail::static_check_comparison_mask<TileDataDst>();
    static_assert(rules::tcmps_dtype_ok(profile::kProfile, engine::dtype_of<typename TileDataSrc::DType>),
                  "LEGAL_TCMPS_DTYPE: TCMPS compares i32, f32, f16, u16, i16 on a2a3; also u32, u8, i8, bf16 on a5");
    WaitAllEvents(events...);
    engine::tcmps(dst.desc(), src0.desc(), engine::scalar_bits(src1), mode);
    return {};
}

// TCMPS(dst, src0, src1, mode): against src1's element (0, 0).
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<TileDataSrc1> && all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TCMPS(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, CmpMode mode, WaitEvents&... events)
{
    detail::static_check_vec_row_major<TileDataDst, TileDataSrc0, TileDataSrc1>();
    detail::static_check_comparison_mask<TileDataDst>();
    static_assert(rules::tcmps_dtype_ok(profile::kProfile, engine::dtype_of<typename TileDataSrc0::DType>),
                  "LEGAL_TCMPS_DTYPE: TCMPS compares i32, f32, f16, u16, i16 on a2a3; also u32, u8, i8, bf16 on a5");
    WaitAllEvents(events...);
    engine::tcmps(dst.desc(), src0.desc(), src1.desc(), mode);
    return {};
}

// TSEL(dst, selMask, src0, src1, tmp): src0 where the mask's bit is set, src1 elsewhere. tmp is not used.
template <typename TileData, typename MaskTile, typename TmpTile, typename... WaitEvents>
PTO_INST RecordEvent TSEL(TileData& dst, MaskTile& selMask, TileData& src0, TileData& src1, TmpTile& /*tmp*/,
                          WaitEvents&... events)
{
    detail::static_check_vec_row_major<TileData, MaskTile>();
    static_assert(rules::selection_mask_dtype_ok(engine::dtype_of<typename MaskTile::DType>),
                  "LEGAL_PREDICATE_MASK_DTYPE: a selection mask is a uint8_t, uint16_t or uint32_t tile");
    static_assert(rules::tsel_dtype_ok(profile::kProfile, engine::dtype_of<typename TileData::DType>),
                  "LEGAL_TSEL_DTYPE: TSEL selects 16- and 32-bit types on a2a3; 8- to 64-bit types on a5");
    WaitAllEvents(events...);
    engine::tsel(dst.desc(), selMask.desc(), src0.desc(), src1.desc());
    return {};
}

// TSELS(dst, mask, src, tmp, scalar): src where the mask's bit is set, the scalar elsewhere.
template <typename TileDataDst, typename TileDataMask, typename TileDataSrc, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TSELS(TileDataDst& dst, TileDataMask& mask, TileDataSrc& src, TileDataTmp& /*tmp*/,
                           typename TileDataSrc::DType scalar, WaitEvents&... events)
{
    detail::static_check_vec_row_major<TileDataDst, TileDataMask, TileDataSrc>();
    static_assert(rules::selection_mask_dtype_ok(engine::dtype_of<typename TileDataMask::DType>),
                  "LEGAL_PREDICATE_MASK_DTYPE: a selection mask is a uint8_t, uint16_t or uint32_t tile");
    static_assert(rules::tsels_dtype_ok(profile::kProfile, engine::dtype_of<typename TileDataDst::DType>),
                  "LEGAL_TSELS_DTYPE: TSELS selects 16- and 32-bit types on a2a3; 8- to 64-bit types but bf16 on a5");
    WaitAllEvents(events...);
    engine::tsels(dst.desc(), mask.desc(), src.desc(), engine::scalar_bits(scalar));
    return {};
}

}  // namespace pto
