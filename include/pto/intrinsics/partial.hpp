// TPARTADD TPARTMAX TPARTMIN TPARTMUL and TPARTARGMAX TPARTARGMIN: element-wise pairs of tiles whose valid
// regions may differ; and TPAIRREDUCESUM, the sums of adjacent pairs (pto/engine/ops/partial.hpp has the
// semantics).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/partial.hpp>
#include <pto/profile/rules_partial.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail::partial {

template <typename T>
inline constexpr engine::DType dtype_v = engine::dtype_of<typename T::DType>;

template <typename T>
constexpr bool vec_layout_ok_v = T::Loc == TileType::Vec && rules::partial_layout_ok(profile::kProfile, T::BFractal, T::SFractal);

}  // namespace detail::partial

#define PTO_DETAIL_PARTIAL(NAME, OP)                                                                                \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>           \
    PTO_INST RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events)      \
    {                                                                                                               \
        using namespace detail::partial;                                                                            \
        static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc0> && is_tile_data_v<TileDataSrc1>, \
                      #NAME " takes Tiles");                                                                        \
        static_assert(vec_layout_ok_v<TileDataDst> && vec_layout_ok_v<TileDataSrc0> && vec_layout_ok_v<TileDataSrc1>, \
                      "LEGAL_" #NAME "_LOCATION / LEGAL_" #NAME "_LAYOUT: unboxed Vec tiles, row-major on a2a3");  \
        static_assert(dtype_v<TileDataSrc0> == dtype_v<TileDataDst> && dtype_v<TileDataSrc1> == dtype_v<TileDataDst>, \
                      "LEGAL_" #NAME "_SAME_DTYPE: dst, src0 and src1 have one element type");                      \
        static_assert(rules::partial_dtype_ok(profile::kProfile, dtype_v<TileDataDst>),                             \
                      "LEGAL_" #NAME "_DTYPE: " #NAME " does not take this element type on PTO_TARGET");            \
        WaitAllEvents(events...);                                                                                   \
        engine::tpartial(OP, dst.desc(), src0.desc(), src1.desc());                                                 \
        return {};                                                                                                  \
    }

PTO_DETAIL_PARTIAL(TPARTADD, engine::PartialOp::Add)
PTO_DETAIL_PARTIAL(TPARTMAX, engine::PartialOp::Max)
PTO_DETAIL_PARTIAL(TPARTMIN, engine::PartialOp::Min)
PTO_DETAIL_PARTIAL(TPARTMUL, engine::PartialOp::Mul)

#define PTO_DETAIL_PARTIAL_ARG(NAME, OP)                                                                            \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename TileDataDstIdx,          \
              typename TileDataSrc0Idx, typename TileDataSrc1Idx, typename... WaitEvents>                           \
    PTO_INST RecordEvent NAME(TileDataDst& dstVal, TileDataSrc0& src0Val, TileDataSrc1& src1Val,                    \
                              TileDataDstIdx& dstIdx, TileDataSrc0Idx& src0Idx, TileDataSrc1Idx& src1Idx,           \
                              WaitEvents&... events)                                                                \
    {                                                                                                               \
        using namespace detail::partial;                                                                            \
        static_assert(vec_layout_ok_v<TileDataDst> && vec_layout_ok_v<TileDataSrc0> && vec_layout_ok_v<TileDataSrc1> && \
                          vec_layout_ok_v<TileDataDstIdx> && vec_layout_ok_v<TileDataSrc0Idx> &&                    \
                          vec_layout_ok_v<TileDataSrc1Idx>,                                                         \
                      "LEGAL_" #NAME "_LOCATION / LEGAL_" #NAME "_LAYOUT: unboxed Vec tiles, row-major on a2a3");  \
        static_assert(dtype_v<TileDataSrc0> == dtype_v<TileDataDst> && dtype_v<TileDataSrc1> == dtype_v<TileDataDst> && \
                          dtype_v<TileDataSrc0Idx> == dtype_v<TileDataDstIdx> &&                                    \
                          dtype_v<TileDataSrc1Idx> == dtype_v<TileDataDstIdx>,                                      \
                      "LEGAL_" #NAME "_SAME_DTYPE: the value tiles share a type, and the index tiles");             \
        static_assert(rules::partial_arg_dtype_ok(dtype_v<TileDataDst>, dtype_v<TileDataDstIdx>),                  \
                      "LEGAL_" #NAME "_DTYPE: half values with 16- or 32-bit indices, float values with 32-bit ones"); \
        WaitAllEvents(events...);                                                                                   \
        engine::tpartial_arg(OP, dstVal.desc(), src0Val.desc(), src1Val.desc(), dstIdx.desc(), src0Idx.desc(),      \
                             src1Idx.desc());                                                                       \
        return {};                                                                                                  \
    }

PTO_DETAIL_PARTIAL_ARG(TPARTARGMAX, engine::PartialOp::Max)
PTO_DETAIL_PARTIAL_ARG(TPARTARGMIN, engine::PartialOp::Min)

#undef PTO_DETAIL_PARTIAL_ARG
#undef PTO_DETAIL_PARTIAL

// TPAIRREDUCESUM(dst, src0): dst(i, k) = src0(i, 2k) + src0(i, 2k + 1), the upper half of the row zero.
template <typename TileDataDst, typename TileDataSrc0, typename... WaitEvents>
PTO_INST RecordEvent TPAIRREDUCESUM(TileDataDst& dst, TileDataSrc0& src0, WaitEvents&... events)
{
    using namespace detail::partial;
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc0>, "TPAIRREDUCESUM takes Tiles");
    static_assert(TileDataDst::Loc == TileType::Vec && TileDataSrc0::Loc == TileType::Vec,
                  "LEGAL_TPAIRREDUCESUM_LOCATION: TPAIRREDUCESUM takes Vec tiles");
    static_assert(TileDataDst::isRowMajor && TileDataSrc0::isRowMajor && TileDataDst::SFractal == SLayout::NoneBox &&
                      TileDataSrc0::SFractal == SLayout::NoneBox,
                  "LEGAL_TPAIRREDUCESUM_LAYOUT: the tiles are row-major and unboxed");
    static_assert(rules::pair_reduce_dtype_ok(profile::kProfile, dtype_v<TileDataDst>) &&
                      dtype_v<TileDataSrc0> == dtype_v<TileDataDst>,
                  "LEGAL_TPAIRREDUCESUM_DTYPE: half or float (cpu: also int16_t, int32_t), one type for both");
    WaitAllEvents(events...);
    engine::tpairreducesum(dst.desc(), src0.desc());
    return {};
}

}  // namespace pto
