// TEXTRACT, TEXTRACT_FP, TINSERT and TINSERT_FP: the documented intrinsics, TMOV between a tile and a
// window of a larger one. Each checks at compile time the rules its template arguments decide for
// PTO_TARGET; the engine checks the window (its range and alignment) and moves the data.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include <pto/common/conv_tile.hpp>
#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail {

// `Insert`: TINSERT (else TEXTRACT); `Quantized`: the pre-quant scalar and table forms.
template <bool Insert, typename DstTileData, typename SrcTileData, ReluPreMode reluMode, AccToVecMode mode,
          bool Quantized>
constexpr void static_check_window()
{
    static_assert(is_tile_data_v<DstTileData> && is_tile_data_v<SrcTileData>, "TEXTRACT and TINSERT move a Tile into a Tile");
    constexpr auto& target = profile::kProfile;
    constexpr auto src_type = engine::dtype_of<typename SrcTileData::DType>;
    constexpr auto dst_type = engine::dtype_of<typename DstTileData::DType>;
    if constexpr (Insert) {
        static_assert(rules::tinsert_location_ok(target, SrcTileData::Loc, DstTileData::Loc),
                      "LEGAL_TINSERT_LOCATION: TINSERT has no path between these tile locations on PTO_TARGET");
        static_assert(rules::tinsert_layout_ok(target, SrcTileData::Loc, DstTileData::Loc, SrcTileData::BFractal,
                                               SrcTileData::SFractal, DstTileData::BFractal, DstTileData::SFractal),
                      "LEGAL_TINSERT_LAYOUT: Vec -> Vec keeps its arrangement, Vec -> Mat writes an Nz tile");
    } else {
        static_assert(rules::textract_location_ok(target, SrcTileData::Loc, DstTileData::Loc),
                      "LEGAL_TEXTRACT_LOCATION: TEXTRACT has no path between these tile locations on PTO_TARGET");
        static_assert(rules::textract_layout_ok(target, SrcTileData::Loc, DstTileData::Loc, SrcTileData::BFractal,
                                                SrcTileData::SFractal, DstTileData::BFractal, DstTileData::SFractal),
                      "LEGAL_TEXTRACT_LAYOUT: Left/Right windows come from Nz or Zn tiles, ScaleLeft from Zz, "
                      "ScaleRight from Nn, Vec -> Vec keeps its arrangement");
    }
    if constexpr (Quantized && !rules::window_quant_ignored(target, SrcTileData::Loc, src_type, dst_type)) {
        static_assert(rules::window_quantizes(target, SrcTileData::Loc, src_type, dst_type),
                      "LEGAL_TMOV_LOCATION: a quantizing move leaves an accumulator (cpu: or an f32/i32 tile)");
        static_assert(rules::acc_quant_output_dtype_ok(target, src_type, dst_type),
                      "LEGAL_TMOV_QUANT_DTYPE: a quantizing move makes f32 -> i8/u8 (a5: also f16/bf16/hif8/e4m3/f32) "
                      "and i32 -> i8/u8/f16 (a5: also bf16)");
    } else {
        static_assert(rules::window_dtype_ok(target, SrcTileData::Loc, DstTileData::Loc, src_type, dst_type),
                      "LEGAL_TMOV_DTYPE: this element-type pair does not move on this path on PTO_TARGET");
    }
    static_assert(rules::window_mode_ok(target, SrcTileData::Loc, DstTileData::Loc, reluMode, mode),
                  "LEGAL_TMOV_MODE: ReLU applies to moves out of an accumulator (cpu: any tile), split modes to "
                  "Acc -> Vec");
}

template <bool Insert, typename DstTileData, typename SrcTileData, ReluPreMode reluMode, AccToVecMode mode,
          bool Quantized>
RecordEvent move_window(DstTileData& dst, SrcTileData& src, uint16_t row, uint16_t col,
                        const engine::AccQuantization* quant = nullptr,
                        std::optional<TInsertMode> insert_mode = std::nullopt)
{
    static_check_window<Insert, DstTileData, SrcTileData, reluMode, mode, Quantized>();
    const engine::WindowStart start{row, col};
    if constexpr (Insert) {
        engine::tinsert(dst.desc(), src.desc(), start, reluMode, mode, quant, insert_mode);
    } else {
        engine::textract(dst.desc(), src.desc(), start, reluMode, mode, quant);
    }
    return {};
}

template <bool Insert, typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode,
          AccToVecMode mode>
RecordEvent move_window_fp(DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t row, uint16_t col)
{
    static_assert(is_tile_data_v<FpTileData>, "the quantization table is a Tile");
    // The CPU simulation's contract: a window of a pair that does not quantize, out of another tile than an
    // accumulator, ignores its table (the cpu profile only; checked mode warns).
    if constexpr (rules::window_quant_ignored(profile::kProfile, SrcTileData::Loc,
                                              engine::dtype_of<typename SrcTileData::DType>,
                                              engine::dtype_of<typename DstTileData::DType>)) {
        return move_window<Insert, DstTileData, SrcTileData, reluMode, mode, false>(dst, src, row, col);
    } else {
        static_assert(
            rules::fp_table_ok(profile::kProfile, FpTileData::Loc, engine::dtype_of<typename FpTileData::DType>),
            "LEGAL_FP_TABLE: the quantization table is a Scaling tile of uint64_t (cpu: a uint64_t tile)");
        const engine::TileDesc table = fp.desc();
        const engine::AccQuantization quant{.per_column = &table};
        return move_window<Insert, DstTileData, SrcTileData, reluMode, mode, true>(dst, src, row, col, &quant);
    }
}

template <typename... WaitEvents>
using if_events = std::enable_if_t<all_events_v<WaitEvents...>, int>;

}  // namespace detail

// TEXTRACT(dst, src, indexRow, indexCol): dst's valid region from src's elements at (indexRow, indexCol) on
// (engine::textract); out of an accumulator converted as TMOV converts. From a convolution tile (its
// FRACTAL_Z weights in L1) into a Right tile: the window of the weights' K x N matrix.
template <typename DstTileData, typename SrcTileData, typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0, uint16_t indexCol = 0,
                              WaitEvents&... events)
{
    WaitAllEvents(events...);
    if constexpr (is_conv_tile_v<SrcTileData>) {
        static_assert(is_tile_data_v<DstTileData> && DstTileData::Loc == TileType::Right &&
                          SrcTileData::Loc == TileType::Mat &&
                          (SrcTileData::layout == Layout::FRACTAL_Z || SrcTileData::layout == Layout::FRACTAL_Z_3D),
                      "LEGAL_TEXTRACT_LOCATION: a convolution tile's window goes from FRACTAL_Z weights in L1 to a "
                      "Right tile");
        engine::textract(dst.desc(), src.desc(), engine::WindowStart{indexRow, indexCol});
        return {};
    } else {
        return detail::move_window<false, DstTileData, SrcTileData, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0,
                                   false>(dst, src, indexRow, indexCol);
    }
}

// TEXTRACT<Dst, Src, reluMode>: out of an accumulator with a ReLU pre-mode.
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode, typename... WaitEvents,
          detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, uint16_t indexRow, uint16_t indexCol,
                              WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::move_window<false, DstTileData, SrcTileData, reluMode, AccToVecMode::SingleModeVec0, false>(
        dst, src, indexRow, indexCol);
}

// TEXTRACT<Dst, Src, mode, reluMode>: accumulator -> Vec with an AccToVecMode.
template <typename DstTileData, typename SrcTileData, AccToVecMode mode, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, uint16_t indexRow, uint16_t indexCol,
                              WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    return detail::move_window<false, DstTileData, SrcTileData, reluMode, mode, false>(dst, src, indexRow, indexCol);
}

// TEXTRACT<Dst, Src[, mode], reluMode>(dst, src, preQuantScalar, indexRow, indexCol): quantized by one scale
// (the low 32 bits of preQuantScalar, an f32), as the quantizing TMOV does.
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, uint16_t indexRow,
                              uint16_t indexCol, WaitEvents&... events)
{
    WaitAllEvents(events...);
    const engine::AccQuantization quant{.scalar = preQuantScalar};
    return detail::move_window<false, DstTileData, SrcTileData, reluMode, AccToVecMode::SingleModeVec0, true>(
        dst, src, indexRow, indexCol, &quant);
}

template <typename DstTileData, typename SrcTileData, AccToVecMode mode, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, uint16_t indexRow,
                              uint16_t indexCol, WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    const engine::AccQuantization quant{.scalar = preQuantScalar};
    return detail::move_window<false, DstTileData, SrcTileData, reluMode, mode, true>(dst, src, indexRow, indexCol,
                                                                                      &quant);
}

// TEXTRACT_FP<Dst, Src, Fp, reluMode>(dst, src, fp, indexRow, indexCol): each source column quantized by its
// word of the Scaling table fp.
template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TEXTRACT_FP(DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow,
                                 uint16_t indexCol, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::move_window_fp<false, DstTileData, SrcTileData, FpTileData, reluMode, AccToVecMode::SingleModeVec0>(
        dst, src, fp, indexRow, indexCol);
}

// TEXTRACT<Dst, Src, Fp, mode, reluMode>(dst, src, fp, indexRow, indexCol): the same into a Vec tile.
template <typename DstTileData, typename SrcTileData, typename FpTileData, AccToVecMode mode,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow, uint16_t indexCol,
                              WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    return detail::move_window_fp<false, DstTileData, SrcTileData, FpTileData, reluMode, mode>(dst, src, fp, indexRow,
                                                                                              indexCol);
}

// TEXTRACT(dst0, dst1, src, ...): two windows of one ND Vec source, each into its own (Nz) Vec tile.
template <typename Dst0TileData, typename Dst1TileData, typename SrcTileData, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<SrcTileData> && all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TEXTRACT(Dst0TileData& dst0, Dst1TileData& dst1, SrcTileData& src, uint16_t indexRow0 = 0,
                              uint16_t indexCol0 = 0, uint16_t indexRow1 = 0, uint16_t indexCol1 = 0,
                              WaitEvents&... events)
{
    WaitAllEvents(events...);
    detail::move_window<false, Dst0TileData, SrcTileData, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, false>(
        dst0, src, indexRow0, indexCol0);
    return detail::move_window<false, Dst1TileData, SrcTileData, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0,
                               false>(dst1, src, indexRow1, indexCol1);
}

// TINSERT(dst, src, indexRow, indexCol): src's valid region into dst from (indexRow, indexCol) on
// (engine::tinsert); the rest of dst keeps its bytes.
template <typename DstTileData, typename SrcTileData, typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint16_t indexRow, uint16_t indexCol,
                             WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::move_window<true, DstTileData, SrcTileData, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0,
                               false>(dst, src, indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode, typename... WaitEvents,
          detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint16_t indexRow, uint16_t indexCol,
                             WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::move_window<true, DstTileData, SrcTileData, reluMode, AccToVecMode::SingleModeVec0, false>(
        dst, src, indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, AccToVecMode mode, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint16_t indexRow, uint16_t indexCol,
                             WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    return detail::move_window<true, DstTileData, SrcTileData, reluMode, mode, false>(dst, src, indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, uint16_t indexRow,
                             uint16_t indexCol, WaitEvents&... events)
{
    WaitAllEvents(events...);
    const engine::AccQuantization quant{.scalar = preQuantScalar};
    return detail::move_window<true, DstTileData, SrcTileData, reluMode, AccToVecMode::SingleModeVec0, true>(
        dst, src, indexRow, indexCol, &quant);
}

template <typename DstTileData, typename SrcTileData, AccToVecMode mode, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, uint16_t indexRow,
                             uint16_t indexCol, WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    const engine::AccQuantization quant{.scalar = preQuantScalar};
    return detail::move_window<true, DstTileData, SrcTileData, reluMode, mode, true>(dst, src, indexRow, indexCol,
                                                                                     &quant);
}

template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT_FP(DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow,
                                uint16_t indexCol, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::move_window_fp<true, DstTileData, SrcTileData, FpTileData, reluMode, AccToVecMode::SingleModeVec0>(
        dst, src, fp, indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, typename FpTileData, AccToVecMode mode,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents, detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow, uint16_t indexCol,
                             WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    return detail::move_window_fp<true, DstTileData, SrcTileData, FpTileData, reluMode, mode>(dst, src, fp, indexRow,
                                                                                             indexCol);
}

// TINSERT<mode>(dst, src, indexRow, indexCol): the split insertion of an Nz Vec tile into a Mat tile (a5);
// the split is how the hardware copies, the data lands as the plain TINSERT places it.
template <TInsertMode mode, typename DstTileData, typename SrcTileData, typename... WaitEvents,
          detail::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0, uint16_t indexCol = 0,
                             WaitEvents&... events)
{
    static_assert(rules::tinsert_split_mode_ok(profile::kProfile, SrcTileData::Loc, DstTileData::Loc,
                                               SrcTileData::BFractal, SrcTileData::SFractal),
                  "LEGAL_TINSERT_MODE: a split insertion moves an Nz Vec tile into a Mat tile (a5)");
    WaitAllEvents(events...);
    return detail::move_window<true, DstTileData, SrcTileData, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0,
                               false>(dst, src, indexRow, indexCol, nullptr, mode);
}

}  // namespace pto
