// The broadcast instructions of the reduce-and-expand family: TROWEXPAND, the row-broadcast binary
// instructions TROWEXPANDADD/SUB/MUL/DIV/MAX/MIN/EXPDIF (each also with a tmp tile, which is never
// touched) and the column-broadcast ones TCOLEXPANDADD/SUB/MUL/DIV/MAX/MIN/EXPDIF. The rules the tile
// types decide are checked here for PTO_TARGET; the engine checks them all again at run time, with
// the valid shapes that decide which operand is broadcast (pto/engine/ops/expand.hpp).
#pragma once

#include <type_traits>

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/expand.hpp>
#include <pto/profile/rules_expand.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail {

template <rules::ExpandOp Op, typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1>
constexpr void static_check_broadcast_binary()
{
    using engine::dtype_of;
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc0> && is_tile_data_v<TileDataSrc1>,
                  "the broadcast instructions take Tiles");
    static_assert(rules::expand_location_ok(TileDataDst::Loc) && rules::expand_location_ok(TileDataSrc0::Loc) &&
                      rules::expand_location_ok(TileDataSrc1::Loc),
                  "LEGAL_EXPAND_LOCATION: every operand must be a Vec tile");
    constexpr auto dtype = dtype_of<typename TileDataDst::DType>;
    static_assert(rules::expand_same_dtype_ok(dtype, dtype_of<typename TileDataSrc0::DType>) &&
                      rules::expand_same_dtype_ok(dtype, dtype_of<typename TileDataSrc1::DType>),
                  "LEGAL_EXPAND_SAME_DTYPE: every operand must have dst's element type");
    static_assert(rules::expand_row_major_ok(TileDataDst::BFractal, TileDataDst::SFractal),
                  "LEGAL_EXPAND_LAYOUT: dst must be a plain row-major tile");
    static_assert(rules::expand_dtype_ok(Op, profile::kProfile, dtype),
                  "LEGAL_<INSTR>_DTYPE: the element type is not allowed on PTO_TARGET (ADD/SUB/MUL/DIV/MAX/MIN: "
                  "f16, f32, i16, i32, and u16, u32 on a5; EXPDIF: f16, f32)");
}

}  // namespace detail

template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TROWEXPAND(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events)
{
    using engine::dtype_of;
    static_assert(rules::expand_location_ok(TileDataDst::Loc) && rules::expand_location_ok(TileDataSrc::Loc),
                  "LEGAL_EXPAND_LOCATION: dst and src must be Vec tiles");
    static_assert(rules::expand_row_major_ok(TileDataDst::BFractal, TileDataDst::SFractal) &&
                      rules::expand_row_major_ok(TileDataSrc::BFractal, TileDataSrc::SFractal),
                  "LEGAL_EXPAND_LAYOUT: dst and src must be plain row-major tiles");
    static_assert(rules::trowexpand_dtype_ok(profile::kProfile, dtype_of<typename TileDataSrc::DType>),
                  "LEGAL_TROWEXPAND_DTYPE: TROWEXPAND broadcasts i8, u8, i16, u16, i32, u32, f16, bf16 or f32");
    static_assert(rules::expand_same_dtype_ok(dtype_of<typename TileDataDst::DType>, dtype_of<typename TileDataSrc::DType>),
                  "LEGAL_EXPAND_SAME_DTYPE: dst and src must have one element type");
    WaitAllEvents(events...);
    engine::trowexpand(dst.desc(), src.desc());
    return {};
}

// Each instruction with its public overloads: (dst, src0, src1, events...), and for the row broadcasts
// (dst, src0, src1, tmp, events...); the DIV forms take DivAlgorithm first.
#define PTO_DETAIL_BROADCAST(NAME, AXIS, OP, HEAD)                                                    \
    PTO_DETAIL_HEAD_##HEAD typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents,                   \
        std::enable_if_t<all_events_v<WaitEvents...>, int> = 0>                                                       \
    PTO_INST RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events)        \
    {                                                                                                                 \
        detail::static_check_broadcast_binary<rules::ExpandOp::OP, TileDataDst, TileDataSrc0, TileDataSrc1>();        \
        WaitAllEvents(events...);                                                                                     \
        engine::broadcast_binary(engine::ExpandAxis::AXIS, rules::ExpandOp::OP, dst.desc(), src0.desc(), src1.desc()); \
        return {};                                                                                                    \
    }
#define PTO_DETAIL_ROW_BROADCAST(NAME, OP, HEAD)                                                       \
    PTO_DETAIL_BROADCAST(NAME, Row, OP, HEAD)                                                          \
    PTO_DETAIL_HEAD_##HEAD typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename TileDataTmp,                    \
        typename... WaitEvents, std::enable_if_t<is_tile_data_v<TileDataTmp> && all_events_v<WaitEvents...>, int> = 0> \
    PTO_INST RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, TileDataTmp& tmp,             \
                              WaitEvents&... events)                                                                  \
    {                                                                                                                 \
        detail::static_check_broadcast_binary<rules::ExpandOp::OP, TileDataDst, TileDataSrc0, TileDataSrc1>();        \
        static_assert(rules::expand_location_ok(TileDataTmp::Loc), "LEGAL_EXPAND_LOCATION: tmp must be a Vec tile"); \
        WaitAllEvents(events...);                                                                                     \
        const engine::TileDesc tmp_desc = tmp.desc();                                                                 \
        engine::broadcast_binary(engine::ExpandAxis::Row, rules::ExpandOp::OP, dst.desc(), src0.desc(), src1.desc(),  \
                                 &tmp_desc);                                                                          \
        return {};                                                                                                    \
    }
#define PTO_DETAIL_HEAD_PLAIN template <
#define PTO_DETAIL_HEAD_DIV template <auto PrecisionType = DivAlgorithm::DEFAULT,

PTO_DETAIL_ROW_BROADCAST(TROWEXPANDADD, Add, PLAIN)
PTO_DETAIL_ROW_BROADCAST(TROWEXPANDSUB, Sub, PLAIN)
PTO_DETAIL_ROW_BROADCAST(TROWEXPANDMUL, Mul, PLAIN)
PTO_DETAIL_ROW_BROADCAST(TROWEXPANDDIV, Div, DIV)
PTO_DETAIL_ROW_BROADCAST(TROWEXPANDMAX, Max, PLAIN)
PTO_DETAIL_ROW_BROADCAST(TROWEXPANDMIN, Min, PLAIN)
PTO_DETAIL_ROW_BROADCAST(TROWEXPANDEXPDIF, ExpDif, PLAIN)
PTO_DETAIL_BROADCAST(TCOLEXPANDADD, Col, Add, PLAIN)
PTO_DETAIL_BROADCAST(TCOLEXPANDSUB, Col, Sub, PLAIN)
PTO_DETAIL_BROADCAST(TCOLEXPANDMUL, Col, Mul, PLAIN)
PTO_DETAIL_BROADCAST(TCOLEXPANDDIV, Col, Div, DIV)
PTO_DETAIL_BROADCAST(TCOLEXPANDMAX, Col, Max, PLAIN)
PTO_DETAIL_BROADCAST(TCOLEXPANDMIN, Col, Min, PLAIN)
PTO_DETAIL_BROADCAST(TCOLEXPANDEXPDIF, Col, ExpDif, PLAIN)

#undef PTO_DETAIL_HEAD_DIV
#undef PTO_DETAIL_HEAD_PLAIN
#undef PTO_DETAIL_ROW_BROADCAST
#undef PTO_DETAIL_BROADCAST

}  // namespace pto
