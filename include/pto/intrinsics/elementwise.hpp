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

// The compile-time checks every element-wise tile-tile binary instruction shares.
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1>
constexpr void static_check_elementwise_binary()
{
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc0> && is_tile_data_v<TileDataSrc1>,
                  "element-wise arithmetic takes three Tiles");
    constexpr auto& target = profile::kProfile;
    constexpr auto dst_type = engine::dtype_of<typename TileDataDst::DType>;
    static_assert(rules::elementwise_same_dtype(dst_type, engine::dtype_of<typename TileDataSrc0::DType>) &&
                      rules::elementwise_same_dtype(dst_type, engine::dtype_of<typename TileDataSrc1::DType>),
                  "LEGAL_ELEMWISE_DTYPE: src0, src1 and dst must have the same element type");
    static_assert(rules::elementwise_location_ok(TileDataDst::Loc) &&
                      rules::elementwise_location_ok(TileDataSrc0::Loc) &&
                      rules::elementwise_location_ok(TileDataSrc1::Loc),
                  "LEGAL_ELEMWISE_LOCATION: element-wise arithmetic takes Vec tiles (UB) only");
    static_assert(rules::elementwise_layout_ok(target, TileDataDst::BFractal, TileDataDst::SFractal) &&
                      rules::elementwise_layout_ok(target, TileDataSrc0::BFractal, TileDataSrc0::SFractal) &&
                      rules::elementwise_layout_ok(target, TileDataSrc1::BFractal, TileDataSrc1::SFractal),
                  "LEGAL_ELEMWISE_LAYOUT: on a2a3 and a5 element-wise arithmetic takes unboxed row-major tiles only");
    static_assert(rules::elementwise_valid_extent_ok(TileDataDst::ValidRow, TileDataSrc0::ValidRow) &&
                      rules::elementwise_valid_extent_ok(TileDataDst::ValidCol, TileDataSrc0::ValidCol) &&
                      rules::elementwise_valid_extent_ok(TileDataDst::ValidRow, TileDataSrc1::ValidRow) &&
                      rules::elementwise_valid_extent_ok(TileDataDst::ValidCol, TileDataSrc1::ValidCol),
                  "RUN_VALID_SHAPE: src0 and src1 must have dst's valid shape");
}

template <typename TileData>
inline constexpr engine::DType element_dtype_of = engine::dtype_of<typename TileData::DType>;

}  // namespace detail

// One intrinsic per PTO_ELEMENTWISE_BINARY row of pto/isa/instructions.def, in the row's C++ shape:
//   Plain          NAME(dst, src0, src1)
//   WithPrecision  NAME<PrecisionType = Precision::DEFAULT>(dst, src0, src1)
// Each computes dst = src0 op src1 over dst's valid region (see pto/engine/ops/elementwise.hpp).
#define PTO_DETAIL_BINARY_STATIC_CHECKS(NAME, entry, A2A3_DTYPES, A5_DTYPES)                              \
    detail::static_check_elementwise_binary<TileDataDst, TileDataSrc0, TileDataSrc1>();                  \
    static_assert(rules::entry##_dtype_ok(profile::kProfile, detail::element_dtype_of<TileDataDst>),    \
                  "LEGAL_" #NAME "_DTYPE: " #NAME " takes " #A2A3_DTYPES " on a2a3 and " #A5_DTYPES   \
                  " on a5 (the cpu profile takes both)")
#define PTO_DETAIL_BINARY_INTRINSIC_Plain(NAME, entry, Precision, A2A3_DTYPES, A5_DTYPES)                     \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>     \
    PTO_INST RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events) \
    {                                                                                                          \
        PTO_DETAIL_BINARY_STATIC_CHECKS(NAME, entry, A2A3_DTYPES, A5_DTYPES);                                  \
        WaitAllEvents(events...);                                                                              \
        engine::entry(dst.desc(), src0.desc(), src1.desc());                                                   \
        return {};                                                                                             \
    }
#define PTO_DETAIL_BINARY_INTRINSIC_WithPrecision(NAME, entry, Precision, A2A3_DTYPES, A5_DTYPES)               \
    template <auto PrecisionType = Precision::DEFAULT, typename TileDataDst, typename TileDataSrc0,               \
              typename TileDataSrc1, typename... WaitEvents>                                                     \
    PTO_INST RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events) \
    {                                                                                                            \
        static_assert(std::is_same_v<decltype(PrecisionType), Precision>,                                       \
                      #NAME "'s template argument is a " #Precision " (DEFAULT or HIGH_PRECISION)");           \
        PTO_DETAIL_BINARY_STATIC_CHECKS(NAME, entry, A2A3_DTYPES, A5_DTYPES);                                    \
        WaitAllEvents(events...);                                                                                \
        engine::entry(dst.desc(), src0.desc(), src1.desc(), PrecisionType);                                      \
        return {};                                                                                               \
    }
#define PTO_ELEMENTWISE_BINARY(NAME, entry, Op, Shape, Precision, A2A3_DTYPES, A5_DTYPES) \
    PTO_DETAIL_BINARY_INTRINSIC_##Shape(NAME, entry, Precision, A2A3_DTYPES, A5_DTYPES)
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE_BINARY
#undef PTO_DETAIL_BINARY_STATIC_CHECKS
#undef PTO_DETAIL_BINARY_INTRINSIC_Plain
#undef PTO_DETAIL_BINARY_INTRINSIC_WithPrecision

// TDIV<TileData>(dst, src0, src1): the earlier documented form, one tile type for all three operands.
// With three operands of one type, overload resolution prefers this (more specialised) template; both
// forms do the same.
template <typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TDIV(TileData& dst, TileData& src0, TileData& src1, WaitEvents&... events)
{
    return TDIV<DivAlgorithm::DEFAULT, TileData, TileData, TileData>(dst, src0, src1, events...);
}

}  // namespace pto
