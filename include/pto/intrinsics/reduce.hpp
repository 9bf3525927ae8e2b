// The row and column reductions (TROWSUM TROWMAX TROWMIN TROWPROD, TCOLSUM TCOLMAX TCOLMIN TCOLPROD) and
// searches (TROWARGMAX TROWARGMIN TCOLARGMAX TCOLARGMIN). Each intrinsic checks
// at compile time the rules its template arguments decide for PTO_TARGET, then hands the descriptors to
// the engine, which checks the run-time facts (valid shapes may be DYNAMIC) and computes; the semantics
// are in pto/engine/ops/reduce.hpp.
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/reduce.hpp>
#include <pto/profile/rules_reduce.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail {

// Two valid extents that may be DYNAMIC agree, as far as the types know.
constexpr bool same_extent_if_static(int a, int b) { return a == DYNAMIC || b == DYNAMIC || a == b; }

}  // namespace detail

// The rules shared by both axes; the codes carry the instruction's name (adjacent literals concatenate).
#define PTO_DETAIL_REDUCE_CHECKS(NAME, Dst, Src)                                                                    \
    static_assert(is_tile_data_v<Dst> && is_tile_data_v<Src>, #NAME " takes Tiles");                               \
    static_assert(rules::reduce_location_ok(Dst::Loc) && rules::reduce_location_ok(Src::Loc),                      \
                  "LEGAL_" #NAME "_LOCATION: dst and src must be Vec tiles");                                      \
    static_assert(rules::reduce_nd_layout_ok(Src::BFractal, Src::SFractal),                                        \
                  "LEGAL_" #NAME "_LAYOUT: src must be a row-major, unboxed (ND) tile");                           \
    static_assert(rules::reduce_same_dtype_ok(engine::dtype_of<typename Dst::DType>,                               \
                                              engine::dtype_of<typename Src::DType>),                              \
                  "LEGAL_" #NAME "_SAME_DTYPE: dst must have src's element type")

#define PTO_DETAIL_ROW_REDUCE_CHECKS(NAME, OP, Dst, Src)                                                           \
    PTO_DETAIL_REDUCE_CHECKS(NAME, Dst, Src);                                                                       \
    static_assert(rules::row_reduce_dst_layout_ok(Dst::BFractal, Dst::SFractal, Dst::Cols),                        \
                  "LEGAL_" #NAME "_LAYOUT: dst must be ND, or DN with one column");                                \
    static_assert(rules::row_reduce_dtype_ok(profile::kProfile, OP, engine::dtype_of<typename Src::DType>),        \
                  "LEGAL_" #NAME "_DTYPE: " #NAME " does not reduce this element type on PTO_TARGET");             \
    static_assert(detail::same_extent_if_static(Dst::ValidRow, Src::ValidRow),                                     \
                  "RUN_VALID_SHAPE: dst must have a valid row for each valid row of src")

#define PTO_DETAIL_COL_REDUCE_CHECKS(NAME, OP, Dst, Src)                                                           \
    PTO_DETAIL_REDUCE_CHECKS(NAME, Dst, Src);                                                                       \
    static_assert(rules::reduce_nd_layout_ok(Dst::BFractal, Dst::SFractal),                                        \
                  "LEGAL_" #NAME "_LAYOUT: dst must be a row-major, unboxed (ND) tile");                           \
    static_assert(rules::col_reduce_dtype_ok(profile::kProfile, OP, engine::dtype_of<typename Src::DType>),        \
                  "LEGAL_" #NAME "_DTYPE: " #NAME " does not reduce this element type on PTO_TARGET");             \
    static_assert(detail::same_extent_if_static(Dst::ValidCol, Src::ValidCol),                                     \
                  "RUN_VALID_SHAPE: dst must have src's valid columns")

// TROWSUM(dst, src, tmp): dst(i, 0) = sum of row i of src. tmp is accepted and not touched.
template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TROWSUM(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events)
{
    PTO_DETAIL_ROW_REDUCE_CHECKS(TROWSUM, rules::ReduceOp::Sum, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    const engine::TileDesc scratch = tmp.desc();
    engine::trowsum(dst.desc(), src.desc(), &scratch);
    return {};
}

// TROWMAX(dst, src, tmp): dst(i, 0) = maximum of row i of src.
template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TROWMAX(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events)
{
    PTO_DETAIL_ROW_REDUCE_CHECKS(TROWMAX, rules::ReduceOp::Max, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    const engine::TileDesc scratch = tmp.desc();
    engine::trowmax(dst.desc(), src.desc(), &scratch);
    return {};
}

// TROWMIN(dst, src, tmp): dst(i, 0) = minimum of row i of src.
template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TROWMIN(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events)
{
    PTO_DETAIL_ROW_REDUCE_CHECKS(TROWMIN, rules::ReduceOp::Min, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    const engine::TileDesc scratch = tmp.desc();
    engine::trowmin(dst.desc(), src.desc(), &scratch);
    return {};
}

// TROWPROD(dst, src, tmp): dst(i, 0) = product of row i of src.
template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TROWPROD(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events)
{
    PTO_DETAIL_ROW_REDUCE_CHECKS(TROWPROD, rules::ReduceOp::Prod, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    const engine::TileDesc scratch = tmp.desc();
    engine::trowprod(dst.desc(), src.desc(), &scratch);
    return {};
}

// TCOLSUM(dst, src): dst(0, j) = sum of column j of src.
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST RecordEvent TCOLSUM(TileDataOut& dst, TileDataIn& src, WaitEvents&... events)
{
    PTO_DETAIL_COL_REDUCE_CHECKS(TCOLSUM, rules::ReduceOp::Sum, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    engine::tcolsum(dst.desc(), src.desc(), nullptr, false);
    return {};
}

// TCOLSUM(dst, src, tmp, isBinary): the same sums; isBinary names the device's accumulation path and adds
// its rule on tmp's row length (the CPU's result does not depend on it).
template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TCOLSUM(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, bool isBinary, WaitEvents&... events)
{
    PTO_DETAIL_COL_REDUCE_CHECKS(TCOLSUM, rules::ReduceOp::Sum, TileDataOut, TileDataIn);
    static_assert(is_tile_data_v<TileDataTmp>, "TCOLSUM takes a Tile as tmp");
    static_assert(rules::tcolsum_tmp_ok(profile::kProfile, TileDataTmp::Loc, TileDataTmp::BFractal, TileDataTmp::SFractal,
                                        engine::dtype_of<typename TileDataTmp::DType>,
                                        engine::dtype_of<typename TileDataIn::DType>),
                  "LEGAL_TCOLSUM_TMP: on a2a3 tmp must be an ND Vec tile of src's element type");
    WaitAllEvents(events...);
    const engine::TileDesc scratch = tmp.desc();
    engine::tcolsum(dst.desc(), src.desc(), &scratch, isBinary);
    return {};
}

// TCOLMAX(dst, src): dst(0, j) = maximum of column j of src.
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST RecordEvent TCOLMAX(TileDataOut& dst, TileDataIn& src, WaitEvents&... events)
{
    PTO_DETAIL_COL_REDUCE_CHECKS(TCOLMAX, rules::ReduceOp::Max, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    engine::tcolmax(dst.desc(), src.desc());
    return {};
}

// TCOLMIN(dst, src): dst(0, j) = minimum of column j of src.
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST RecordEvent TCOLMIN(TileDataOut& dst, TileDataIn& src, WaitEvents&... events)
{
    PTO_DETAIL_COL_REDUCE_CHECKS(TCOLMIN, rules::ReduceOp::Min, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    engine::tcolmin(dst.desc(), src.desc());
    return {};
}

// TCOLPROD(dst, src): dst(0, j) = product of column j of src.
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST RecordEvent TCOLPROD(TileDataOut& dst, TileDataIn& src, WaitEvents&... events)
{
    PTO_DETAIL_COL_REDUCE_CHECKS(TCOLPROD, rules::ReduceOp::Prod, TileDataOut, TileDataIn);
    WaitAllEvents(events...);
    engine::tcolprod(dst.desc(), src.desc());
    return {};
}

namespace detail {

template <typename T>
inline constexpr engine::DType dtype_v = engine::dtype_of<typename T::DType>;

// A dst of an argument reduction: ND, or (rows) DN with one column.
template <bool Rows, typename T>
constexpr bool arg_output_layout_ok_v = Rows ? rules::row_reduce_dst_layout_ok(T::BFractal, T::SFractal, T::Cols)
                                             : rules::reduce_nd_layout_ok(T::BFractal, T::SFractal);

template <bool Rows, typename Src>
constexpr bool arg_src_layout_ok_v = Rows ? rules::reduce_nd_layout_ok(Src::BFractal, Src::SFractal)
                                          : Src::SFractal == SLayout::NoneBox;

template <rules::ReduceOp Op, bool Rows, typename Idx, typename Src, typename Tmp>
RecordEvent arg_reduce(Idx& idx, const engine::TileDesc* value, Src& src, Tmp& tmp)
{
    const engine::TileDesc tmp_desc = tmp.desc();
    engine::targ_reduce(Op, Rows, idx.desc(), value, src.desc(), &tmp_desc);
    return {};
}

}  // namespace detail

// The rules of TROWARGMAX TROWARGMIN TCOLARGMAX TCOLARGMIN (WITH_VALUE: the value-and-index form, Val the
// value tile's type).
#define PTO_DETAIL_ARG_CHECKS(NAME, ROWS, WITH_VALUE, Idx, Val, Src, Tmp)                                          \
    static_assert(is_tile_data_v<Idx> && is_tile_data_v<Val> && is_tile_data_v<Src> && is_tile_data_v<Tmp>,       \
                  #NAME " takes Tiles");                                                                           \
    static_assert(rules::reduce_location_ok(Idx::Loc) && rules::reduce_location_ok(Val::Loc) &&                    \
                      rules::reduce_location_ok(Src::Loc),                                                         \
                  "LEGAL_" #NAME "_LOCATION: the results and src must be Vec tiles");                             \
    static_assert(detail::arg_src_layout_ok_v<ROWS, Src> && detail::arg_output_layout_ok_v<ROWS, Idx> &&          \
                      detail::arg_output_layout_ok_v<ROWS, Val>,                                                   \
                  "LEGAL_" #NAME "_LAYOUT: src is ND (columns: or DN); the results are ND (rows: or DN with one "  \
                  "column)");                                                                                      \
    static_assert(ROWS ? rules::row_arg_dtype_ok(profile::kProfile, detail::dtype_v<Src>)                          \
                       : rules::col_arg_dtype_ok(profile::kProfile, detail::dtype_v<Src>, WITH_VALUE),             \
                  "LEGAL_" #NAME "_DTYPE: " #NAME " does not search this element type on PTO_TARGET");             \
    static_assert(rules::arg_index_dtype_ok(profile::kProfile, detail::dtype_v<Idx>, detail::dtype_v<Src>, !(ROWS) && (WITH_VALUE)), \
                  "LEGAL_" #NAME "_INDEX_DTYPE: indices are uint32_t or int32_t (a column's values of a 16-bit "   \
                  "type: uint16_t or int16_t)");                                                                   \
    static_assert(!(WITH_VALUE) || rules::reduce_same_dtype_ok(detail::dtype_v<Val>, detail::dtype_v<Src>),        \
                  "LEGAL_" #NAME "_SAME_DTYPE: the values have src's element type");                              \
    static_assert((ROWS) || rules::col_arg_tmp_ok(profile::kProfile, detail::dtype_v<Tmp>, detail::dtype_v<Src>), \
                  "LEGAL_" #NAME "_TMP: on a2a3 tmp has src's element type")

// The index form (dst, src, tmp) and the value-and-index form (dstVal, dstIdx, src, tmp) of each.
#define PTO_DETAIL_ARG_REDUCTION(NAME, OP, ROWS)                                                                   \
    template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>              \
    PTO_INST RecordEvent NAME(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events)          \
    {                                                                                                              \
        PTO_DETAIL_ARG_CHECKS(NAME, ROWS, false, TileDataOut, TileDataOut, TileDataIn, TileDataTmp);               \
        WaitAllEvents(events...);                                                                                  \
        return detail::arg_reduce<OP, ROWS>(dst, nullptr, src, tmp);                                               \
    }                                                                                                              \
    template <typename TileDataOutVal, typename TileDataOutIdx, typename TileDataIn, typename TileDataTmp,          \
              typename... WaitEvents>                                                                              \
    PTO_INST RecordEvent NAME(TileDataOutVal& dstVal, TileDataOutIdx& dstIdx, TileDataIn& src, TileDataTmp& tmp,    \
                              WaitEvents&... events)                                                               \
    {                                                                                                              \
        PTO_DETAIL_ARG_CHECKS(NAME, ROWS, true, TileDataOutIdx, TileDataOutVal, TileDataIn, TileDataTmp);          \
        WaitAllEvents(events...);                                                                                  \
        const engine::TileDesc value = dstVal.desc();                                                              \
        return detail::arg_reduce<OP, ROWS>(dstIdx, &value, src, tmp);                                            \
    }

// TROWARGMAX / TROWARGMIN: the column of each row's largest / smallest element (and the element);
// TCOLARGMAX / TCOLARGMIN: the row of each column's (engine::targ_reduce).
PTO_DETAIL_ARG_REDUCTION(TROWARGMAX, rules::ReduceOp::Max, true)
PTO_DETAIL_ARG_REDUCTION(TROWARGMIN, rules::ReduceOp::Min, true)
PTO_DETAIL_ARG_REDUCTION(TCOLARGMAX, rules::ReduceOp::Max, false)
PTO_DETAIL_ARG_REDUCTION(TCOLARGMIN, rules::ReduceOp::Min, false)

#undef PTO_DETAIL_ARG_REDUCTION
#undef PTO_DETAIL_ARG_CHECKS
#undef PTO_DETAIL_COL_REDUCE_CHECKS
#undef PTO_DETAIL_ROW_REDUCE_CHECKS
#undef PTO_DETAIL_REDUCE_CHECKS

// THISTOGRAM<byte>(dst, src, idx): 256 ascending cumulative bin counts per row of the selected byte,
// filtered by idx's bytes (engine::thistogram).
template <HistByte byte, typename TileDataDst, typename TileDataSrc, typename TileDataIdx, typename... WaitEvents>
PTO_INST RecordEvent THISTOGRAM(TileDataDst& dst, TileDataSrc& src, TileDataIdx& idx, WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc> && is_tile_data_v<TileDataIdx>, "THISTOGRAM takes Tiles");
    static_assert(rules::thistogram_target_ok(profile::kProfile), "LEGAL_THISTOGRAM_TARGET: THISTOGRAM exists on a5");
    static_assert(rules::thistogram_dtype_ok(engine::dtype_of<typename TileDataDst::DType>, engine::dtype_of<typename TileDataSrc::DType>,
                                             engine::dtype_of<typename TileDataIdx::DType>),
                  "LEGAL_THISTOGRAM_DTYPE: u32 bins from a u16 or u32 source with u8 filter bytes");
    static_assert(rules::thistogram_byte_ok(engine::dtype_of<typename TileDataSrc::DType>, byte),
                  "LEGAL_THISTOGRAM_BYTE: a u16 source has bytes 0 and 1");
    static_assert(rules::thistogram_layout_ok(TileDataDst::BFractal, TileDataDst::SFractal) &&
                      rules::thistogram_layout_ok(TileDataSrc::BFractal, TileDataSrc::SFractal) &&
                      rules::thistogram_index_layout_ok(engine::dtype_of<typename TileDataSrc::DType>, TileDataIdx::BFractal,
                                                        TileDataIdx::SFractal, TileDataIdx::Cols),
                  "LEGAL_THISTOGRAM_LAYOUT: dst and src row-major; a u16 source's idx one DN column, a u32 source's row-major");
    WaitAllEvents(events...);
    engine::thistogram(dst.desc(), src.desc(), idx.desc(), byte);
    return {};
}

}  // namespace pto
