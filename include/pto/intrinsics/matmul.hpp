// The cube's matrix instructions: TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and TGEMV, TGEMV_ACC, TGEMV_BIAS,
// and their MX forms TMATMUL_MX and TGEMV_MX, each with its AccPhase overloads (pto/engine/ops/matmul.hpp
// has the semantics and the numerics). The phase names the hardware's unit-flag handshake with the
// fixpipe that drains the accumulator; ptosim runs instructions in program order, so it changes nothing.
#pragma once

#include <pto/common/event.hpp>
#include <pto/cpu/NPUMemoryModel.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/matmul.hpp>
#include <pto/intrinsics/assign.hpp>
#include <pto/profile/rules_matmul.hpp>
#include <pto/profile/target.hpp>

#include <type_traits>

namespace pto {

namespace detail::matmul {

template <typename T>
inline constexpr engine::DType dtype_v = engine::dtype_of<typename T::DType>;

template <typename T>
constexpr bool layout_ok_v = rules::matmul_layout_ok(profile::kProfile, T::Loc, T::BFractal, T::SFractal);

// The compile-time rules of a matrix instruction for PTO_TARGET.
template <bool Gemv, typename Res, typename Left, typename Right>
constexpr void static_check()
{
    static_assert(is_tile_data_v<Res> && is_tile_data_v<Left> && is_tile_data_v<Right>, "the matrix instructions take Tiles");
    static_assert(rules::matmul_location_ok(Res::Loc, Left::Loc, Right::Loc),
                  "LEGAL_MATMUL_LOCATION: the cube multiplies a Left tile by a Right tile into an Acc tile");
    static_assert(rules::matmul_dtype_ok(profile::kProfile, dtype_v<Res>, dtype_v<Left>, dtype_v<Right>),
                  "LEGAL_MATMUL_DTYPE: (int32_t; int8_t, int8_t) or (float; half/bfloat16_t/float twice; a5 also the "
                  "fp8 pairs and hifloat8_t)");
    static_assert(layout_ok_v<Res> && layout_ok_v<Left> && layout_ok_v<Right>,
                  "LEGAL_MATMUL_LAYOUT: on a5 Left and Acc are Nz and Right is Zn");
    static_assert(Gemv || rules::matmul_shape_ok(profile::kProfile, Res::Rows, Res::Cols, Left::Rows, Left::Cols,
                                                 Right::Rows, Right::Cols),
                  "LEGAL_MATMUL_SHAPE: on a2a3 Left::Rows == Res::Rows, Left::Cols == Right::Rows and Right::Cols == "
                  "Res::Cols");
}

template <typename Res, typename Bias>
constexpr void static_check_bias()
{
    static_assert(is_tile_data_v<Bias> && rules::matmul_bias_location_ok(Bias::Loc) &&
                      rules::matmul_bias_ok(profile::kProfile, dtype_v<Res>, dtype_v<Bias>, Bias::Rows, Bias::BFractal),
                  "LEGAL_MATMUL_BIAS: the bias is a one-row Bias tile of the result's element type (row-major on a5)");
}

template <bool Gemv, typename Res, typename Left, typename Right>
RecordEvent run(Res& c, Left& a, Right& b, std::type_identity_t<Res>* c_in, const engine::TileDesc* bias)
{
    engine::TileDesc in;
    if (c_in) in = c_in->desc();
    engine::tmatmul({.c = c.desc(), .a = a.desc(), .b = b.desc(), .c_in = c_in ? &in : nullptr, .bias = bias, .gemv = Gemv});
    return {};
}

// The compile-time rules of an MX form.
template <bool Gemv, typename Res, typename Left, typename LeftScale, typename Right, typename RightScale>
constexpr void static_check_mx()
{
    static_assert(is_tile_data_v<Res> && is_tile_data_v<Left> && is_tile_data_v<LeftScale> && is_tile_data_v<Right> &&
                      is_tile_data_v<RightScale>,
                  "the MX matrix instructions take Tiles");
    static_assert(rules::matmul_location_ok(Res::Loc, Left::Loc, Right::Loc),
                  "LEGAL_MATMUL_LOCATION: the cube multiplies a Left tile by a Right tile into an Acc tile");
    static_assert(rules::matmul_mx_dtype_ok(profile::kProfile, dtype_v<Res>, dtype_v<Left>, dtype_v<Right>),
                  "LEGAL_MATMUL_MX_DTYPE: (float; float8_e4m3_t/float8_e5m2_t twice) or (float; float4_e2m1x2_t/"
                  "float4_e1m2x2_t twice), on a5");
    static_assert(rules::matmul_mx_scale_ok(LeftScale::Loc, TileType::ScaleLeft, dtype_v<LeftScale>) &&
                      rules::matmul_mx_scale_ok(RightScale::Loc, TileType::ScaleRight, dtype_v<RightScale>),
                  "LEGAL_MATMUL_MX_SCALE: a's scales are a TileLeftScale, b's a TileRightScale, of float8_e8m0_t");
    static_assert(layout_ok_v<Res> && layout_ok_v<Left> && layout_ok_v<Right>,
                  "LEGAL_MATMUL_LAYOUT: on a5 Left and Acc are Nz and Right is Zn");
}

template <bool Gemv, typename Res, typename Left, typename LeftScale, typename Right, typename RightScale>
RecordEvent run_mx(Res& c, Left& a, LeftScale& a_scale, Right& b, RightScale& b_scale, std::type_identity_t<Res>* c_in,
                   const engine::TileDesc* bias)
{
    static_check_mx<Gemv, Res, Left, LeftScale, Right, RightScale>();
    const engine::TileDesc sa = a_scale.desc(), sb = b_scale.desc();
    engine::TileDesc in;
    if (c_in) in = c_in->desc();
    engine::tmatmul({.c = c.desc(),
                     .a = a.desc(),
                     .b = b.desc(),
                     .c_in = c_in ? &in : nullptr,
                     .bias = bias,
                     .gemv = Gemv,
                     .a_scale = &sa,
                     .b_scale = &sb});
    return {};
}

template <typename... WaitEvents>
using if_events = std::enable_if_t<all_events_v<WaitEvents...>, int>;

}  // namespace detail::matmul

// TMATMUL(c, a, b): c = a . b.
template <typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, WaitEvents&... events)
{
    detail::matmul::static_check<false, TileRes, TileLeft, TileRight>();
    WaitAllEvents(events...);
    return detail::matmul::run<false>(cMatrix, aMatrix, bMatrix, nullptr, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, WaitEvents&... events)
{
    return TMATMUL(cMatrix, aMatrix, bMatrix, events...);
}

// TMATMUL_ACC(cOut, cIn, a, b): cOut = cIn + a . b (cOut may be cIn).
template <typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_ACC(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileRight& bMatrix,
                                 WaitEvents&... events)
{
    detail::matmul::static_check<false, TileRes, TileLeft, TileRight>();
    WaitAllEvents(events...);
    return detail::matmul::run<false>(cOutMatrix, aMatrix, bMatrix, &cInMatrix, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_ACC(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileRight& bMatrix,
                                 WaitEvents&... events)
{
    return TMATMUL_ACC(cOutMatrix, cInMatrix, aMatrix, bMatrix, events...);
}

// TMATMUL_ACC(c, a, b): c += a . b, in place.
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft, typename TileRight,
          typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_ACC(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, WaitEvents&... events)
{
    detail::matmul::static_check<false, TileRes, TileLeft, TileRight>();
    WaitAllEvents(events...);
    return detail::matmul::run<false>(cMatrix, aMatrix, bMatrix, &cMatrix, nullptr);
}

// TMATMUL_BIAS(c, a, b, bias): c = bias (each row) + a . b.
template <typename TileRes, typename TileLeft, typename TileRight, typename TileBias, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_BIAS(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, TileBias& biasData,
                                  WaitEvents&... events)
{
    detail::matmul::static_check<false, TileRes, TileLeft, TileRight>();
    detail::matmul::static_check_bias<TileRes, TileBias>();
    WaitAllEvents(events...);
    const engine::TileDesc bias = biasData.desc();
    return detail::matmul::run<false>(cMatrix, aMatrix, bMatrix, nullptr, &bias);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileRight, typename TileBias,
          typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_BIAS(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, TileBias& biasData,
                                  WaitEvents&... events)
{
    return TMATMUL_BIAS(cMatrix, aMatrix, bMatrix, biasData, events...);
}

// TGEMV(c, a, b): row 0 of c = row 0 of a . b, k = b's valid rows.
template <typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TGEMV(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, WaitEvents&... events)
{
    detail::matmul::static_check<true, TileRes, TileLeft, TileRight>();
    WaitAllEvents(events...);
    return detail::matmul::run<true>(cMatrix, aMatrix, bMatrix, nullptr, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TGEMV(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, WaitEvents&... events)
{
    return TGEMV(cMatrix, aMatrix, bMatrix, events...);
}

// TGEMV_ACC(cOut, cIn, a, b): cOut = cIn + a . b.
template <typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TGEMV_ACC(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileRight& bMatrix,
                               WaitEvents&... events)
{
    detail::matmul::static_check<true, TileRes, TileLeft, TileRight>();
    WaitAllEvents(events...);
    return detail::matmul::run<true>(cOutMatrix, aMatrix, bMatrix, &cInMatrix, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileRight, typename... WaitEvents>
PTO_INST RecordEvent TGEMV_ACC(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileRight& bMatrix,
                               WaitEvents&... events)
{
    return TGEMV_ACC(cOutMatrix, cInMatrix, aMatrix, bMatrix, events...);
}

// TGEMV_BIAS(c, a, b, bias): row 0 of c = bias + a . b.
template <typename TileRes, typename TileLeft, typename TileRight, typename TileBias, typename... WaitEvents>
PTO_INST RecordEvent TGEMV_BIAS(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, TileBias& biasData,
                                WaitEvents&... events)
{
    detail::matmul::static_check<true, TileRes, TileLeft, TileRight>();
    detail::matmul::static_check_bias<TileRes, TileBias>();
    WaitAllEvents(events...);
    const engine::TileDesc bias = biasData.desc();
    return detail::matmul::run<true>(cMatrix, aMatrix, bMatrix, nullptr, &bias);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileRight, typename TileBias,
          typename... WaitEvents>
PTO_INST RecordEvent TGEMV_BIAS(TileRes& cMatrix, TileLeft& aMatrix, TileRight& bMatrix, TileBias& biasData,
                                WaitEvents&... events)
{
    return TGEMV_BIAS(cMatrix, aMatrix, bMatrix, biasData, events...);
}

// TMATMUL_MX(c, a, aScale, b, bScale): c = a . b with the E8M0 block scales of a (one per 32 values of
// a row) and of b (one per 32 values of a column) applied first (pto/engine/ops/matmul.hpp).
template <typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight, typename TileRightScale,
          typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TMATMUL_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                                TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::matmul::run_mx<false>(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, nullptr, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight,
          typename TileRightScale, typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TMATMUL_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                                TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    return TMATMUL_MX(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, events...);
}

// TMATMUL_MX(cOut, cIn, a, aScale, b, bScale): cOut = cIn + a . b (cOut may be cIn).
template <typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight, typename TileRightScale,
          typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TMATMUL_MX(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix,
                                TileRight& bMatrix, TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::matmul::run_mx<false>(cOutMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, &cInMatrix, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight,
          typename TileRightScale, typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TMATMUL_MX(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix,
                                TileRight& bMatrix, TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    return TMATMUL_MX(cOutMatrix, cInMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, events...);
}

// TMATMUL_MX(c, a, aScale, b, bScale, bias): c = bias (each row) + a . b.
template <typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight, typename TileRightScale,
          typename TileBias, typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TMATMUL_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                                TileRightScale& bScaleMatrix, TileBias& biasData, WaitEvents&... events)
{
    detail::matmul::static_check_bias<TileRes, TileBias>();
    WaitAllEvents(events...);
    const engine::TileDesc bias = biasData.desc();
    return detail::matmul::run_mx<false>(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, nullptr, &bias);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight,
          typename TileRightScale, typename TileBias, typename... WaitEvents,
          detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TMATMUL_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                                TileRightScale& bScaleMatrix, TileBias& biasData, WaitEvents&... events)
{
    return TMATMUL_MX(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, biasData, events...);
}

// TGEMV_MX: TGEMV's forms (row 0 of a times b) with TMATMUL_MX's scales.
template <typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight, typename TileRightScale,
          typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TGEMV_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                              TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::matmul::run_mx<true>(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, nullptr, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight,
          typename TileRightScale, typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TGEMV_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                              TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    return TGEMV_MX(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, events...);
}

template <typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight, typename TileRightScale,
          typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TGEMV_MX(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix,
                              TileRight& bMatrix, TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::matmul::run_mx<true>(cOutMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, &cInMatrix, nullptr);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight,
          typename TileRightScale, typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TGEMV_MX(TileRes& cOutMatrix, TileRes& cInMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix,
                              TileRight& bMatrix, TileRightScale& bScaleMatrix, WaitEvents&... events)
{
    return TGEMV_MX(cOutMatrix, cInMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, events...);
}

template <typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight, typename TileRightScale,
          typename TileBias, typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TGEMV_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                              TileRightScale& bScaleMatrix, TileBias& biasData, WaitEvents&... events)
{
    detail::matmul::static_check_bias<TileRes, TileBias>();
    WaitAllEvents(events...);
    const engine::TileDesc bias = biasData.desc();
    return detail::matmul::run_mx<true>(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, nullptr, &bias);
}

template <AccPhase Phase, typename TileRes, typename TileLeft, typename TileLeftScale, typename TileRight,
          typename TileRightScale, typename TileBias, typename... WaitEvents,
          detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TGEMV_MX(TileRes& cMatrix, TileLeft& aMatrix, TileLeftScale& aScaleMatrix, TileRight& bMatrix,
                              TileRightScale& bScaleMatrix, TileBias& biasData, WaitEvents&... events)
{
    return TGEMV_MX(cMatrix, aMatrix, aScaleMatrix, bMatrix, bScaleMatrix, biasData, events...);
}

// TGET_SCALE_ADDR(dst, src): binds the scale tile dst where the MX cube looks for src's scales: src's
// on-chip address shifted right by SHIFT_MX_ADDR, in the scale buffer beside src's (ScaleLeft for a Left
// tile, ScaleRight for a Right tile). The cpu profile also binds a tile to the bytes of another tile of
// its memory (rules::get_scale_addr_ok).
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents, detail::matmul::if_events<WaitEvents...> = 0>
PTO_INST RecordEvent TGET_SCALE_ADDR(TileDataOut& dst, TileDataIn& src, WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataOut> && is_tile_data_v<TileDataIn>, "TGET_SCALE_ADDR binds a Tile from a Tile");
    static_assert(rules::get_scale_addr_ok(profile::kProfile, TileDataIn::Loc, TileDataOut::Loc),
                  "LEGAL_GET_SCALE_ADDR: a Left tile's scales are a ScaleLeft tile, a Right tile's a ScaleRight tile "
                  "(a5; cpu: also a tile of src's memory)");
    WaitAllEvents(events...);
    engine::tget_scale_addr(TileDataOut::Loc, TileDataIn::Loc);
    if constexpr (rules::get_scale_addr_scales(TileDataIn::Loc, TileDataOut::Loc)) {
        TASSIGN(dst, GetScaleAddr(src.data()));
    } else {
        TASSIGN(dst, NPUMemoryModel::Instance().GetNPUAddr(src.data()));
    }
    return {};
}

// SETTF32MODE / SETHF32MODE: the calling core's float-32 multiply modes. On a5 an enabled TF32 mode rounds
// the f32 inputs of every later TMATMUL to TF32 (tf32TransMode: CAST_ROUND ties away, CAST_RINT ties
// to even); a2a3 has no TF32 and cpu keeps the mode without using it, as the page says. HF32's mode is
// kept and changes no result.
template <bool isEnable, RoundMode tf32TransMode = RoundMode::CAST_ROUND, typename... WaitEvents>
PTO_INST RecordEvent SETTF32MODE(WaitEvents&... events)
{
    static_assert(rules::tf32_mode_ok(profile::kProfile, tf32TransMode),
                  "LEGAL_SETTF32MODE_MODE: a5 rounds to TF32 with CAST_ROUND or CAST_RINT");
    WaitAllEvents(events...);
    engine::settf32mode(isEnable, tf32TransMode);
    return {};
}

template <bool isEnable, RoundMode hf32TransMode = RoundMode::CAST_ROUND, typename... WaitEvents>
PTO_INST RecordEvent SETHF32MODE(WaitEvents&... events)
{
    WaitAllEvents(events...);
    engine::sethf32mode(isEnable, hf32TransMode);
    return {};
}

}  // namespace pto
