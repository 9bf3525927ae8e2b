// TDEQUANT: integer tiles back to float with a scale and an offset per row; TQUANT: float tiles into MX
// formats (e4m3 or e2m1 with E8M0 group exponents) or int8 (pto/engine/ops/quant.hpp has the semantics).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/quant.hpp>
#include <pto/profile/rules_quant.hpp>
#include <pto/profile/target.hpp>

#include <type_traits>

namespace pto {

// TDEQUANT(dst, src, scale, offset): dst = (src - offset[row]) * scale[row].
template <typename TileDataDst, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST RecordEvent TDEQUANT(TileDataDst& dst, TileDataSrc& src, TileDataPara& scale, TileDataPara& offset,
                              WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileDataDst> && is_tile_data_v<TileDataSrc> && is_tile_data_v<TileDataPara>,
                  "TDEQUANT takes Tiles");
    static_assert(rules::tdequant_dtype_ok(engine::dtype_of<typename TileDataDst::DType>,
                                           engine::dtype_of<typename TileDataSrc::DType>,
                                           engine::dtype_of<typename TileDataPara::DType>),
                  "LEGAL_TDEQUANT_DTYPE: TDEQUANT turns int8_t or int16_t tiles into float, with float scale and offset");
    static_assert(rules::tdequant_location_ok(TileDataDst::Loc) && rules::tdequant_location_ok(TileDataSrc::Loc) &&
                      rules::tdequant_location_ok(TileDataPara::Loc),
                  "LEGAL_TDEQUANT_LOCATION: TDEQUANT takes Vec tiles (UB) only");
    static_assert(rules::tdequant_layout_ok(TileDataDst::BFractal, TileDataDst::SFractal) &&
                      rules::tdequant_layout_ok(TileDataSrc::BFractal, TileDataSrc::SFractal),
                  "LEGAL_TDEQUANT_LAYOUT: dst and src are row-major, unboxed tiles");
    WaitAllEvents(events...);
    engine::tdequant(dst.desc(), src.desc(), scale.desc(), offset.desc());
    return {};
}

namespace detail::tquant {

template <typename TileData>
inline constexpr engine::DType dtype_v = engine::dtype_of<typename TileData::DType>;

template <typename TileData>
constexpr bool in_ub_row_major_v = rules::tquant_location_ok(TileData::Loc) &&
                                   rules::tquant_layout_ok(TileData::BFractal, TileData::SFractal);

// The compile-time rules of the MX forms for PTO_TARGET.
template <rules::TquantForm Form, MxQuantAlg Alg, int GrpAxis, bool Interleave, typename Out, typename Src, typename Exp,
          typename Max, typename Scaling>
constexpr void static_check_mx()
{
    static_assert(is_tile_data_v<Out> && is_tile_data_v<Src> && is_tile_data_v<Exp> && is_tile_data_v<Max> &&
                      is_tile_data_v<Scaling>,
                  "TQUANT takes Tiles (exp, max and scaling by pointer)");
    static_assert(rules::tquant_form_ok(profile::kProfile, Form),
                  "LEGAL_TQUANT_FORM: MX TQUANT is an a5 instruction, and its ZZ exponent form exists on the cpu "
                  "profile only");
    static_assert(rules::tquant_mx_mode_ok(Alg, GrpAxis, Interleave),
                  "LEGAL_TQUANT_MODE: MX TQUANT takes MXFP8 or MXFP4_E2M1 with OCP or NV scaling, grp_axis 0 or 1, "
                  "interleaved exponents with grp_axis 0 only");
    static_assert(rules::tquant_mx_dtype_ok(Alg, dtype_v<Out>, dtype_v<Src>, dtype_v<Exp>, dtype_v<Max>, dtype_v<Scaling>),
                  "LEGAL_TQUANT_DTYPE: MXFP8 takes float, half or bfloat16_t into int8_t (e4m3) bytes, MXFP4 half or "
                  "bfloat16_t into float4_e2m1x2_t; exp is uint8_t, max and scaling src's type or float");
    static_assert(in_ub_row_major_v<Out> && in_ub_row_major_v<Src> && in_ub_row_major_v<Exp> &&
                      in_ub_row_major_v<Max> && in_ub_row_major_v<Scaling>,
                  "LEGAL_TQUANT_LOCATION / LEGAL_TQUANT_LAYOUT: TQUANT takes row-major, unboxed Vec tiles");
    static_assert(rules::tquant_mx_shape_ok(GrpAxis, Src::Rows, Src::Cols, Interleave),
                  "LEGAL_TQUANT_SHAPE: src's columns (and, grouped along axis 0, its rows) are a multiple of 32; "
                  "with interleaved exponents its rows are a multiple of 64");
}

template <MxQuantAlg Alg, int GrpAxis, bool Interleave, typename Out, typename Src, typename Exp, typename Max,
          typename Scaling>
RecordEvent quantize_mx(Out& dst, Src& src, Exp* exp, Max* max, Scaling* scaling, Exp* exp_zz = nullptr)
{
    engine::TileDesc zz;
    if (exp_zz) zz = exp_zz->desc();
    engine::tquant_mx(dst.desc(), src.desc(), exp->desc(), max->desc(), scaling->desc(), {Alg, GrpAxis, Interleave},
                      exp_zz ? &zz : nullptr);
    return {};
}

// The compile-time rules of the int8 forms for PTO_TARGET.
template <rules::TquantForm Form, auto QuantTypeValue, typename Out, typename Src, typename Para>
constexpr void static_check_int8()
{
    static_assert(std::is_same_v<decltype(QuantTypeValue), QuantType>, "TQUANT's first template argument is a QuantType");
    static_assert(is_tile_data_v<Out> && is_tile_data_v<Src> && is_tile_data_v<Para>, "TQUANT takes Tiles");
    static_assert(rules::tquant_form_ok(profile::kProfile, Form),
                  "LEGAL_TQUANT_FORM: on a2a3 TQUANT quantises to int8 through the tmp form only");
    static_assert(rules::tquant_int8_mode_ok(QuantTypeValue),
                  "LEGAL_TQUANT_MODE: the scale/offset forms of TQUANT take INT8_SYM or INT8_ASYM");
    static_assert(rules::tquant_int8_dtype_ok(QuantTypeValue, dtype_v<Out>, dtype_v<Src>, dtype_v<Para>),
                  "LEGAL_TQUANT_DTYPE: TQUANT int8 takes float into int8_t (INT8_SYM) or uint8_t (INT8_ASYM), with "
                  "float scale and offset");
    static_assert(in_ub_row_major_v<Out> && in_ub_row_major_v<Src> && rules::tquant_location_ok(Para::Loc) &&
                      rules::tquant_param_layout_ok(Para::SFractal),
                  "LEGAL_TQUANT_LOCATION / LEGAL_TQUANT_LAYOUT: TQUANT takes Vec tiles, dst and src row-major and "
                  "unboxed, scale and offset unboxed");
}

}  // namespace detail::tquant

// TQUANT<quant_type[, ..., scale_alg]>(dst, src, &exp, &max, &scaling): MXFP8 or MXFP4_E2M1 grouped
// along rows (ND), with OCP (default) or NV scaling.
template <auto quant_type, typename TileDataOut, typename TileDataSrc, typename TileDataExp, typename TileDataMax,
          typename TileDataScaling, auto scale_alg = QuantScaleAlg::OCP, typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataExp* exp, TileDataMax* max,
                            TileDataScaling* scaling, WaitEvents&... events)
{
    static_assert(std::is_same_v<decltype(quant_type), QuantType> && std::is_same_v<decltype(scale_alg), QuantScaleAlg>,
                  "TQUANT's MX form takes a QuantType and a QuantScaleAlg");
    static_assert(quant_type == QuantType::MXFP8 || quant_type == QuantType::MXFP4_E2M1,
                  "LEGAL_TQUANT_MODE: the exp/max/scaling form of TQUANT takes MXFP8 or MXFP4_E2M1");
    constexpr MxQuantAlg alg = rules::mx_alg_of(quant_type, scale_alg);
    detail::tquant::static_check_mx<rules::TquantForm::Mx, alg, 1, false, TileDataOut, TileDataSrc, TileDataExp,
                                    TileDataMax, TileDataScaling>();
    WaitAllEvents(events...);
    return detail::tquant::quantize_mx<alg, 1, false>(dst, src, exp, max, scaling);
}

// TQUANT<quant_type, store_mode>(dst, src, &exp, &max, &scaling, &exp_zz): MXFP8 grouped along rows,
// OCP scaling, the exponents written again in ZZ order (store_mode NZ). The cpu profile only.
template <auto quant_type, auto store_mode, typename TileDataOut, typename TileDataSrc, typename TileDataExp,
          typename TileDataMax, typename TileDataScaling, typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataExp* exp, TileDataMax* max,
                            TileDataScaling* scaling, TileDataExp* exp_zz, WaitEvents&... events)
{
    static_assert(std::is_same_v<decltype(quant_type), QuantType> && std::is_same_v<decltype(store_mode), VecStoreMode>,
                  "TQUANT's ZZ exponent form takes a QuantType and a VecStoreMode");
    static_assert(quant_type == QuantType::MXFP8 && store_mode == VecStoreMode::NZ,
                  "LEGAL_TQUANT_MODE: the ZZ exponent form of TQUANT is MXFP8 with VecStoreMode::NZ");
    detail::tquant::static_check_mx<rules::TquantForm::MxZz, MxQuantAlg::OcpMxFp8E4M3, 1, false, TileDataOut,
                                    TileDataSrc, TileDataExp, TileDataMax, TileDataScaling>();
    static_assert(rules::tquant_zz_shape_ok(TileDataSrc::Rows, TileDataSrc::Cols),
                  "LEGAL_TQUANT_SHAPE: the ZZ exponent order takes src rows in 16s and columns in 64s");
    WaitAllEvents(events...);
    return detail::tquant::quantize_mx<MxQuantAlg::OcpMxFp8E4M3, 1, false>(dst, src, exp, max, scaling, exp_zz);
}

// TQUANT<grp_axis, mx_alg, interleave>(dst, src, &exp, &max, &scaling): groups along rows (grp_axis 1,
// ND) or down columns (grp_axis 0, DN), format and scaling as mx_alg says; with interleave (DN only) exp
// holds the exponents of each pair of row groups side by side, [rows / 64, 2 * cols] (engine::tquant_mx).
template <int grp_axis, auto mx_alg, bool interleave, typename TileDataOut = void, typename TileDataSrc = void,
          typename TileDataExp = void, typename TileDataMax = void, typename TileDataScaling = void,
          typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataExp* exp, TileDataMax* max,
                            TileDataScaling* scaling, WaitEvents&... events)
{
    static_assert(std::is_same_v<decltype(mx_alg), MxQuantAlg>, "TQUANT's grouped form takes an MxQuantAlg");
    detail::tquant::static_check_mx<rules::TquantForm::Mx, mx_alg, grp_axis, interleave, TileDataOut, TileDataSrc,
                                    TileDataExp, TileDataMax, TileDataScaling>();
    WaitAllEvents(events...);
    return detail::tquant::quantize_mx<mx_alg, grp_axis, interleave>(dst, src, exp, max, scaling);
}

// TQUANT<grp_axis, mx_alg>(dst, src, &exp, &max, &scaling): the same, exponents not interleaved.
template <int grp_axis, auto mx_alg, typename TileDataOut = void, typename TileDataSrc = void,
          typename TileDataExp = void, typename TileDataMax = void, typename TileDataScaling = void,
          typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataExp* exp, TileDataMax* max,
                            TileDataScaling* scaling, WaitEvents&... events)
{
    return TQUANT<grp_axis, mx_alg, false>(dst, src, exp, max, scaling, events...);
}

// TQUANT<quant_type>(dst, src, scale[, &offset]): INT8_SYM, or INT8_ASYM with an offset per row.
template <auto quant_type, typename TileDataOut, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataPara& scale, TileDataPara* offset = nullptr,
                            WaitEvents&... events)
{
    detail::tquant::static_check_int8<rules::TquantForm::Int8, quant_type, TileDataOut, TileDataSrc, TileDataPara>();
    WaitAllEvents(events...);
    engine::TileDesc offset_desc;
    if (offset) offset_desc = offset->desc();
    engine::tquant_int8(dst.desc(), src.desc(), scale.desc(), offset ? &offset_desc : nullptr, quant_type);
    return {};
}

// TQUANT<quant_type>(dst, src, scale, tmp[, &offset]): the same with the scratch tile a2a3 needs (f32, the
// size of src there; checked, never touched).
template <auto quant_type, typename TileDataOut, typename TileDataSrc, typename TileDataPara, typename TileDataTmp,
          typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataPara& scale, TileDataTmp& tmp,
                            TileDataPara* offset = nullptr, WaitEvents&... events)
{
    detail::tquant::static_check_int8<rules::TquantForm::Int8Tmp, quant_type, TileDataOut, TileDataSrc, TileDataPara>();
    static_assert(is_tile_data_v<TileDataTmp> && rules::tquant_location_ok(TileDataTmp::Loc), "TQUANT's tmp is a Vec Tile");
    static_assert(rules::tquant_tmp_ok(profile::kProfile, detail::tquant::dtype_v<TileDataTmp>,
                                       int64_t(TileDataTmp::Rows) * TileDataTmp::Cols,
                                       int64_t(TileDataSrc::Rows) * TileDataSrc::Cols),
                  "LEGAL_TQUANT_TMP: on a2a3 TQUANT's tmp is a float tile at least the size of src");
    WaitAllEvents(events...);
    engine::TileDesc offset_desc, tmp_desc = tmp.desc();
    if (offset) offset_desc = offset->desc();
    engine::tquant_int8(dst.desc(), src.desc(), scale.desc(), offset ? &offset_desc : nullptr, quant_type, &tmp_desc);
    return {};
}

}  // namespace pto
