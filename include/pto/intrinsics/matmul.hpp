// The cube's matrix instructions: TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and TGEMV, TGEMV_ACC, TGEMV_BIAS,
// each with its AccPhase overloads (pto/engine/ops/matmul.hpp has the semantics and the numerics). The
// phase names the hardware's unit-flag handshake with the fixpipe that drains the accumulator; ptosim
// runs instructions in program order, so it changes nothing.
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/matmul.hpp>
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

}  // namespace pto
