// The element-wise instructions. Each intrinsic checks at compile time the rules its template arguments
// decide for PTO_TARGET, then hands the operands' descriptors to the engine, which checks the run-time
// facts and computes (see pto/engine/ops/elementwise.hpp for the exact semantics).
#pragma once

#include <type_traits>

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/elementwise.hpp>
#include <pto/profile/rules_elementwise.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail {

// The compile-time checks every element-wise instruction makes on its tiles, their element types aside.
template <typename TileDataDst, typename... TileDataSrc>
constexpr void static_check_elementwise_tiles()
{
    static_assert(is_tile_data_v<TileDataDst> && (is_tile_data_v<TileDataSrc> && ...),
                  "element-wise instructions take Tiles");
    constexpr auto& target = profile::kProfile;
    static_assert(rules::elementwise_location_ok(TileDataDst::Loc) && (rules::elementwise_location_ok(TileDataSrc::Loc) && ...),
                  "LEGAL_ELEMWISE_LOCATION: element-wise instructions take Vec tiles (UB) only");
    static_assert(rules::elementwise_layout_ok(target, TileDataDst::BFractal, TileDataDst::SFractal) &&
                      (rules::elementwise_layout_ok(target, TileDataSrc::BFractal, TileDataSrc::SFractal) && ...),
                  "LEGAL_ELEMWISE_LAYOUT: on a2a3 and a5 element-wise instructions take unboxed row-major tiles only");
    static_assert(((rules::elementwise_valid_extent_ok(TileDataDst::ValidRow, TileDataSrc::ValidRow) &&
                    rules::elementwise_valid_extent_ok(TileDataDst::ValidCol, TileDataSrc::ValidCol)) && ...),
                  "RUN_VALID_SHAPE: the sources must have dst's valid shape");
}

template <typename TileDataDst, typename... TileDataSrc>
constexpr void static_check_elementwise()
{
    static_check_elementwise_tiles<TileDataDst, TileDataSrc...>();
    [[maybe_unused]] constexpr auto dst_type = engine::dtype_of<typename TileDataDst::DType>;
    static_assert((rules::elementwise_same_dtype(dst_type, engine::dtype_of<typename TileDataSrc::DType>) && ...),
                  "LEGAL_ELEMWISE_DTYPE: the sources and dst must have the same element type");
}

// TAXPY's: src0 has dst's element type, or is half accumulated into a float dst.
template <typename TileDataDst, typename TileDataSrc>
constexpr void static_check_axpy()
{
    static_check_elementwise_tiles<TileDataDst, TileDataSrc>();
    static_assert(rules::taxpy_source_dtype_ok(engine::dtype_of<typename TileDataDst::DType>,
                                               engine::dtype_of<typename TileDataSrc::DType>),
                  "LEGAL_ELEMWISE_DTYPE: TAXPY's src0 has dst's element type, or is half into a float dst");
}

template <typename TileData>
inline constexpr engine::DType element_dtype_of = engine::dtype_of<typename TileData::DType>;

}  // namespace detail

// One intrinsic per PTO_ELEMENTWISE row of pto/isa/instructions.def, in the C++ signature of the row's
// Kind (its template parameters, then its parameters and the engine call's operands), with a leading
// `auto PrecisionType = Precision::DEFAULT` template parameter for the Precise rows.
#define PTO_DETAIL_TYPES_Unary typename TileDataDst, typename TileDataSrc
#define PTO_DETAIL_PARAMS_Unary TileDataDst &dst, TileDataSrc &src
#define PTO_DETAIL_ARGS_Unary dst.desc(), src.desc()
#define PTO_DETAIL_TYPES_Binary typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1
#define PTO_DETAIL_PARAMS_Binary TileDataDst &dst, TileDataSrc0 &src0, TileDataSrc1 &src1
#define PTO_DETAIL_ARGS_Binary dst.desc(), src0.desc(), src1.desc()
#define PTO_DETAIL_TYPES_BinaryTmp PTO_DETAIL_TYPES_Binary, typename TileDataTmp
#define PTO_DETAIL_PARAMS_BinaryTmp PTO_DETAIL_PARAMS_Binary, TileDataTmp& /*tmp*/
#define PTO_DETAIL_ARGS_BinaryTmp PTO_DETAIL_ARGS_Binary
#define PTO_DETAIL_TYPES_Scalar PTO_DETAIL_TYPES_Unary
#define PTO_DETAIL_PARAMS_Scalar TileDataDst &dst, TileDataSrc &src, typename TileDataSrc::DType scalar
#define PTO_DETAIL_ARGS_Scalar dst.desc(), src.desc(), engine::scalar_bits(scalar), engine::ScalarSide::Right
#define PTO_DETAIL_TYPES_ScalarTmp PTO_DETAIL_TYPES_Unary, typename TileDataTmp
#define PTO_DETAIL_PARAMS_ScalarTmp PTO_DETAIL_PARAMS_Scalar, TileDataTmp& /*tmp*/
#define PTO_DETAIL_ARGS_ScalarTmp PTO_DETAIL_ARGS_Scalar
#define PTO_DETAIL_TYPES_ScalarBothSides PTO_DETAIL_TYPES_Scalar
#define PTO_DETAIL_PARAMS_ScalarBothSides PTO_DETAIL_PARAMS_Scalar
#define PTO_DETAIL_ARGS_ScalarBothSides PTO_DETAIL_ARGS_Scalar
#define PTO_DETAIL_CHECK_Unary detail::static_check_elementwise<TileDataDst, TileDataSrc>()
#define PTO_DETAIL_CHECK_Binary detail::static_check_elementwise<TileDataDst, TileDataSrc0, TileDataSrc1>()
#define PTO_DETAIL_CHECK_BinaryTmp PTO_DETAIL_CHECK_Binary
#define PTO_DETAIL_CHECK_Scalar PTO_DETAIL_CHECK_Unary
#define PTO_DETAIL_CHECK_ScalarTmp PTO_DETAIL_CHECK_Unary
#define PTO_DETAIL_CHECK_ScalarBothSides PTO_DETAIL_CHECK_Unary
#define PTO_DETAIL_TYPES_Math PTO_DETAIL_TYPES_Unary
#define PTO_DETAIL_PARAMS_Math PTO_DETAIL_PARAMS_Unary
#define PTO_DETAIL_ARGS_Math PTO_DETAIL_ARGS_Unary
#define PTO_DETAIL_CHECK_Math PTO_DETAIL_CHECK_Unary
#define PTO_DETAIL_TYPES_Pow PTO_DETAIL_TYPES_BinaryTmp
#define PTO_DETAIL_PARAMS_Pow PTO_DETAIL_PARAMS_BinaryTmp
#define PTO_DETAIL_ARGS_Pow PTO_DETAIL_ARGS_BinaryTmp
#define PTO_DETAIL_CHECK_Pow PTO_DETAIL_CHECK_Binary
#define PTO_DETAIL_TYPES_PowScalar PTO_DETAIL_TYPES_ScalarTmp
#define PTO_DETAIL_PARAMS_PowScalar TileDataDst &dst, TileDataSrc &src, typename TileDataDst::DType scalar, TileDataTmp& /*tmp*/
#define PTO_DETAIL_ARGS_PowScalar PTO_DETAIL_ARGS_Scalar
#define PTO_DETAIL_CHECK_PowScalar PTO_DETAIL_CHECK_Unary
#define PTO_DETAIL_TYPES_Ternary3 typename TileDataDst
#define PTO_DETAIL_PARAMS_Ternary3 TileDataDst &dst, TileDataDst &src0, TileDataDst &src1, TileDataDst &src2
#define PTO_DETAIL_ARGS_Ternary3 dst.desc(), src0.desc(), src1.desc(), src2.desc()
#define PTO_DETAIL_CHECK_Ternary3 detail::static_check_elementwise<TileDataDst, TileDataDst>()
#define PTO_DETAIL_TYPES_TernaryScalar typename TileDataDst
#define PTO_DETAIL_PARAMS_TernaryScalar \
    TileDataDst &dst, TileDataDst &src0, typename TileDataDst::DType scalar, TileDataDst &src1
#define PTO_DETAIL_ARGS_TernaryScalar dst.desc(), src0.desc(), engine::scalar_bits(scalar), src1.desc()
#define PTO_DETAIL_CHECK_TernaryScalar PTO_DETAIL_CHECK_Ternary3
#define PTO_DETAIL_TYPES_DstProduct PTO_DETAIL_TYPES_Binary
#define PTO_DETAIL_PARAMS_DstProduct PTO_DETAIL_PARAMS_Binary
#define PTO_DETAIL_ARGS_DstProduct PTO_DETAIL_ARGS_Binary
#define PTO_DETAIL_CHECK_DstProduct PTO_DETAIL_CHECK_Binary
#define PTO_DETAIL_TYPES_DstScaled PTO_DETAIL_TYPES_Binary
#define PTO_DETAIL_PARAMS_DstScaled PTO_DETAIL_PARAMS_Binary
#define PTO_DETAIL_ARGS_DstScaled PTO_DETAIL_ARGS_Binary
#define PTO_DETAIL_CHECK_DstScaled PTO_DETAIL_CHECK_Binary
#define PTO_DETAIL_TYPES_Axpy PTO_DETAIL_TYPES_Unary
#define PTO_DETAIL_PARAMS_Axpy TileDataDst &dst, TileDataSrc &src0, typename TileDataSrc::DType scalar
#define PTO_DETAIL_ARGS_Axpy dst.desc(), src0.desc(), engine::scalar_bits(scalar)
#define PTO_DETAIL_CHECK_Axpy detail::static_check_axpy<TileDataDst, TileDataSrc>()
#define PTO_DETAIL_TYPES_Expand typename TileDataDst
#define PTO_DETAIL_PARAMS_Expand TileDataDst &dst, typename TileDataDst::DType scalar
#define PTO_DETAIL_ARGS_Expand dst.desc(), engine::scalar_bits(scalar)
#define PTO_DETAIL_CHECK_Expand detail::static_check_elementwise<TileDataDst>()
#define PTO_DETAIL_HEAD_Plain(Precision) template <
#define PTO_DETAIL_HEAD_Precise(Precision) template <auto PrecisionType = Precision::DEFAULT,
#define PTO_DETAIL_PRECISION_Plain(NAME, Precision)
#define PTO_DETAIL_PRECISION_Precise(NAME, Precision)                   \
    static_assert(std::is_same_v<decltype(PrecisionType), Precision>, \
                  #NAME "'s template argument is a " #Precision " (DEFAULT or HIGH_PRECISION)");
#define PTO_DETAIL_PRECISION_ARG_Plain
#define PTO_DETAIL_PRECISION_ARG_Precise , PrecisionType
#define PTO_ELEMENTWISE(NAME, entry, Op, Kind, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES)                    \
    PTO_DETAIL_HEAD_##Mode(Precision) PTO_DETAIL_TYPES_##Kind, typename... WaitEvents >                    \
    PTO_INST RecordEvent NAME(PTO_DETAIL_PARAMS_##Kind, WaitEvents&... events)                            \
    {                                                                                                      \
        PTO_DETAIL_PRECISION_##Mode(NAME, Precision)                                                       \
        PTO_DETAIL_CHECK_##Kind;                                                                           \
        static_assert(rules::entry##_dtype_ok(profile::kProfile, detail::element_dtype_of<TileDataDst>), \
                      "LEGAL_" #NAME "_DTYPE: " #NAME " takes " #A2A3_DTYPES " on a2a3 and " #A5_DTYPES  \
                      " on a5 (the cpu profile takes both, and " #CPU_DTYPES ")");                          \
        WaitAllEvents(events...);                                                                          \
        engine::entry(PTO_DETAIL_ARGS_##Kind PTO_DETAIL_PRECISION_ARG_##Mode);                             \
        return {};                                                                                         \
    }
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE

// The other documented forms.

// TDIV<TileData>(dst, src0, src1): the earlier documented form, one tile type for all three operands.
// With three operands of one type, overload resolution prefers this (more specialised) template; both
// forms do the same. TAND and TOR have the same one-type form.
template <typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TDIV(TileData& dst, TileData& src0, TileData& src1, WaitEvents&... events)
{
    return TDIV<DivAlgorithm::DEFAULT, TileData, TileData, TileData>(dst, src0, src1, events...);
}
template <typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TAND(TileData& dst, TileData& src0, TileData& src1, WaitEvents&... events)
{
    return TAND<TileData, TileData, TileData>(dst, src0, src1, events...);
}
template <typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TOR(TileData& dst, TileData& src0, TileData& src1, WaitEvents&... events)
{
    return TOR<TileData, TileData, TileData>(dst, src0, src1, events...);
}

// TADDRELUCONV / TSUBRELUCONV(dst, src0, src1): relu(src0 +- src1) converted to dst's element type.
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
PTO_INST RecordEvent TADDRELUCONV(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events)
{
    static_assert(rules::relu_conversion_pair_ok(detail::element_dtype_of<TileDataDst>, detail::element_dtype_of<TileDataSrc0>) &&
                      detail::element_dtype_of<TileDataSrc0> == detail::element_dtype_of<TileDataSrc1>,
                  "LEGAL_TADDRELUCONV_DTYPE: TADDRELUCONV converts f32 -> f16, f16 -> i8 or i16 -> i8");
    WaitAllEvents(events...);
    engine::taddreluconv(dst.desc(), src0.desc(), src1.desc());
    return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
PTO_INST RecordEvent TSUBRELUCONV(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events)
{
    static_assert(rules::relu_conversion_pair_ok(detail::element_dtype_of<TileDataDst>, detail::element_dtype_of<TileDataSrc0>) &&
                      detail::element_dtype_of<TileDataSrc0> == detail::element_dtype_of<TileDataSrc1>,
                  "LEGAL_TSUBRELUCONV_DTYPE: TSUBRELUCONV converts f32 -> f16, f16 -> i8 or i16 -> i8");
    WaitAllEvents(events...);
    engine::tsubreluconv(dst.desc(), src0.desc(), src1.desc());
    return {};
}

// TADDDEQRELU(dst, src0, src1, deqScale, tmp): relu(half(deqScale * (src0 + src1))) from int32 tiles.
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TADDDEQRELU(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, float deqScale,
                                 TileDataTmp& /*tmp*/, WaitEvents&... events)
{
    static_assert(rules::tadddeqrelu_dtype_ok(detail::element_dtype_of<TileDataDst>, detail::element_dtype_of<TileDataSrc0>,
                                              detail::element_dtype_of<TileDataSrc1>),
                  "LEGAL_TADDDEQRELU_DTYPE: TADDDEQRELU turns two int32_t tiles into half");
    WaitAllEvents(events...);
    engine::tadddeqrelu(dst.desc(), src0.desc(), src1.desc(), deqScale);
    return {};
}

// TRSQRT<PrecisionType>(dst, src, tmp): the form with a tmp tile, which is not touched.
template <auto PrecisionType = RsqrtAlgorithm::DEFAULT, typename TileDataDst, typename TileDataSrc, typename TileDataTmp,
          typename... WaitEvents, std::enable_if_t<is_tile_data_v<TileDataTmp> && all_events_v<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TRSQRT(TileDataDst& dst, TileDataSrc& src, TileDataTmp& /*tmp*/, WaitEvents&... events)
{
    return TRSQRT<PrecisionType>(dst, src, events...);
}

// TDIVS<PrecisionType>(dst, scalar, src): dst = scalar / src.
template <auto PrecisionType = DivAlgorithm::DEFAULT, typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TDIVS(TileDataDst& dst, typename TileDataDst::DType scalar, TileDataSrc& src, WaitEvents&... events)
{
    static_assert(std::is_same_v<decltype(PrecisionType), DivAlgorithm>,
                  "TDIVS's template argument is a DivAlgorithm (DEFAULT or HIGH_PRECISION)");
    PTO_DETAIL_CHECK_Unary;
    static_assert(rules::tdivs_dtype_ok(profile::kProfile, detail::element_dtype_of<TileDataDst>),
                  "LEGAL_TDIVS_DTYPE: TDIVS does not take this element type on PTO_TARGET");
    WaitAllEvents(events...);
    engine::tdivs(dst.desc(), src.desc(), engine::scalar_bits(scalar), engine::ScalarSide::Left, PrecisionType);
    return {};
}

#undef PTO_DETAIL_TYPES_Unary
#undef PTO_DETAIL_PARAMS_Unary
#undef PTO_DETAIL_ARGS_Unary
#undef PTO_DETAIL_TYPES_Binary
#undef PTO_DETAIL_PARAMS_Binary
#undef PTO_DETAIL_ARGS_Binary
#undef PTO_DETAIL_TYPES_BinaryTmp
#undef PTO_DETAIL_PARAMS_BinaryTmp
#undef PTO_DETAIL_ARGS_BinaryTmp
#undef PTO_DETAIL_TYPES_Scalar
#undef PTO_DETAIL_PARAMS_Scalar
#undef PTO_DETAIL_ARGS_Scalar
#undef PTO_DETAIL_TYPES_ScalarTmp
#undef PTO_DETAIL_PARAMS_ScalarTmp
#undef PTO_DETAIL_ARGS_ScalarTmp
#undef PTO_DETAIL_TYPES_ScalarBothSides
#undef PTO_DETAIL_PARAMS_ScalarBothSides
#undef PTO_DETAIL_ARGS_ScalarBothSides
#undef PTO_DETAIL_CHECK_Unary
#undef PTO_DETAIL_CHECK_Binary
#undef PTO_DETAIL_CHECK_BinaryTmp
#undef PTO_DETAIL_CHECK_Scalar
#undef PTO_DETAIL_CHECK_ScalarTmp
#undef PTO_DETAIL_CHECK_ScalarBothSides
#undef PTO_DETAIL_TYPES_Math
#undef PTO_DETAIL_PARAMS_Math
#undef PTO_DETAIL_ARGS_Math
#undef PTO_DETAIL_CHECK_Math
#undef PTO_DETAIL_TYPES_Pow
#undef PTO_DETAIL_PARAMS_Pow
#undef PTO_DETAIL_ARGS_Pow
#undef PTO_DETAIL_CHECK_Pow
#undef PTO_DETAIL_TYPES_PowScalar
#undef PTO_DETAIL_PARAMS_PowScalar
#undef PTO_DETAIL_ARGS_PowScalar
#undef PTO_DETAIL_CHECK_PowScalar
#undef PTO_DETAIL_TYPES_Ternary3
#undef PTO_DETAIL_PARAMS_Ternary3
#undef PTO_DETAIL_ARGS_Ternary3
#undef PTO_DETAIL_CHECK_Ternary3
#undef PTO_DETAIL_TYPES_TernaryScalar
#undef PTO_DETAIL_PARAMS_TernaryScalar
#undef PTO_DETAIL_ARGS_TernaryScalar
#undef PTO_DETAIL_CHECK_TernaryScalar
#undef PTO_DETAIL_TYPES_DstProduct
#undef PTO_DETAIL_PARAMS_DstProduct
#undef PTO_DETAIL_ARGS_DstProduct
#undef PTO_DETAIL_CHECK_DstProduct
#undef PTO_DETAIL_TYPES_DstScaled
#undef PTO_DETAIL_PARAMS_DstScaled
#undef PTO_DETAIL_ARGS_DstScaled
#undef PTO_DETAIL_CHECK_DstScaled
#undef PTO_DETAIL_TYPES_Axpy
#undef PTO_DETAIL_PARAMS_Axpy
#undef PTO_DETAIL_ARGS_Axpy
#undef PTO_DETAIL_CHECK_Axpy
#undef PTO_DETAIL_TYPES_Expand
#undef PTO_DETAIL_PARAMS_Expand
#undef PTO_DETAIL_ARGS_Expand
#undef PTO_DETAIL_CHECK_Expand
#undef PTO_DETAIL_HEAD_Plain
#undef PTO_DETAIL_HEAD_Precise
#undef PTO_DETAIL_PRECISION_Plain
#undef PTO_DETAIL_PRECISION_Precise
#undef PTO_DETAIL_PRECISION_ARG_Plain
#undef PTO_DETAIL_PRECISION_ARG_Precise

}  // namespace pto
