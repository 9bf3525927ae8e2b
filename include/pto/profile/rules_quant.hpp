// Legality rules of the quantisation instructions (TDEQUANT, TQUANT), one constexpr predicate per rule, with its
// code in the comment above it.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Rule LEGAL_TDEQUANT_DTYPE: float results from int8 or int16 sources, with float scale and offset
// (every target).
constexpr bool tdequant_dtype_ok(engine::DType dst, engine::DType src, engine::DType param)
{
    using enum engine::DType;
    return dst == F32 && (src == I8 || src == I16) && param == dst;
}

// Rule LEGAL_TDEQUANT_LOCATION: Vec tiles (UB) only.
constexpr bool tdequant_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_TDEQUANT_LAYOUT: dst and src are unboxed row-major tiles on every target; scale and offset
// hold one value per row (any unboxed layout, e.g. a column).
constexpr bool tdequant_layout_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }
constexpr bool tdequant_param_layout_ok(SLayout s) { return s == SLayout::NoneBox; }

// ---- TQUANT ---------------------------------------------------------------------------------------

// The MX destination format and scale algorithm of the grouped C++ form (MxQuantAlg) and of the
// legacy form (QuantType + QuantScaleAlg): the legacy pair is the same as its MxQuantAlg.
constexpr bool mx_alg_is_fp4(MxQuantAlg alg) { return alg == MxQuantAlg::OcpMxFp4E2M1 || alg == MxQuantAlg::NvMxFp4E2M1; }
constexpr bool mx_alg_is_nv(MxQuantAlg alg) { return alg == MxQuantAlg::NvMxFp8E4M3 || alg == MxQuantAlg::NvMxFp4E2M1; }
constexpr MxQuantAlg mx_alg_of(QuantType type, QuantScaleAlg scale)
{
    const bool fp4 = type == QuantType::MXFP4_E2M1, nv = scale == QuantScaleAlg::NV;
    return fp4 ? (nv ? MxQuantAlg::NvMxFp4E2M1 : MxQuantAlg::OcpMxFp4E2M1)
               : (nv ? MxQuantAlg::NvMxFp8E4M3 : MxQuantAlg::OcpMxFp8E4M3);
}

// The forms of TQUANT, as the C++ overloads and the PTO-AS operand lists have them.
enum class TquantForm : uint8_t {
    Mx,         // (dst, src, exp, max, scaling): grouped (grp_axis, mx_alg) or legacy ND (quant_type, scale_alg)
    MxZz,       // the legacy ND MXFP8 form that also writes the exponents in ZZ order (exp_zz)
    Int8,       // (dst, src, scale[, offset])
    Int8Tmp,    // (dst, src, scale, tmp[, offset])
};

// Rule LEGAL_TQUANT_FORM: MX quantisation is an A5 instruction (a2a3 has none); the ZZ store-mode form
// exists in the CPU simulator only; a2a3 quantises to int8 only through the tmp form.
constexpr bool tquant_form_ok(const profile::Profile& p, TquantForm form)
{
    using profile::Target;
    switch (form) {
        case TquantForm::Mx: return p.target != Target::A2A3;
        case TquantForm::MxZz: return p.target == Target::Cpu;
        case TquantForm::Int8: return p.target != Target::A2A3;
        case TquantForm::Int8Tmp: return true;
    }
    return false;
}

// Rule LEGAL_TQUANT_MODE: the MX forms take MXFP8 or MXFP4_E2M1 with OCP or NV scaling (Hif4 is an A6
// algorithm, outside every profile), grouped along axis 0 (DN) or 1 (ND), the exponents interleaved in
// row-group pairs only when grouped along axis 0; the ZZ form is MXFP8 ND with the NZ store mode; the
// int8 forms take INT8_SYM or INT8_ASYM.
constexpr bool tquant_mx_mode_ok(MxQuantAlg alg, int grp_axis, bool interleave = false)
{
    return alg != MxQuantAlg::Hif4 && (grp_axis == 0 || (grp_axis == 1 && !interleave));
}
constexpr bool tquant_zz_mode_ok(MxQuantAlg alg, VecStoreMode store)
{
    return !mx_alg_is_fp4(alg) && alg != MxQuantAlg::Hif4 && store == VecStoreMode::NZ;
}
constexpr bool tquant_int8_mode_ok(QuantType type) { return type == QuantType::INT8_SYM || type == QuantType::INT8_ASYM; }

// Rule LEGAL_TQUANT_DTYPE (MX): MXFP8 quantises f32, f16 or bf16 into e4m3 bytes (int8_t, as the page
// types them, or float8_e4m3_t); MXFP4 quantises f16 or bf16 only into packed e2m1 values; the exponents
// are E8M0 bytes (uint8_t or float8_e8m0_t); max and scaling hold src's type or f32.
constexpr bool tquant_mx_dtype_ok(MxQuantAlg alg, engine::DType dst, engine::DType src, engine::DType exp,
                                  engine::DType max, engine::DType scaling)
{
    using enum engine::DType;
    const bool fp4 = mx_alg_is_fp4(alg);
    const bool src_ok = src == F16 || src == BF16 || (!fp4 && src == F32);
    const bool dst_ok = fp4 ? dst == F4E2M1x2 : (dst == I8 || dst == F8E4M3);
    const auto scratch_ok = [&](engine::DType t) { return t == src || t == F32; };
    return src_ok && dst_ok && (exp == U8 || exp == F8E8M0) && scratch_ok(max) && scratch_ok(scaling);
}

// Rule LEGAL_TQUANT_DTYPE (int8): f32 into int8 (INT8_SYM) or uint8 (INT8_ASYM), f32 scale and offset.
constexpr bool tquant_int8_dtype_ok(QuantType type, engine::DType dst, engine::DType src, engine::DType param)
{
    using enum engine::DType;
    return src == F32 && param == F32 && dst == (type == QuantType::INT8_ASYM ? U8 : I8);
}

// Rule LEGAL_TQUANT_LOCATION: Vec tiles (UB) only.
constexpr bool tquant_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_TQUANT_LAYOUT: every tile but the int8 parameters is unboxed row-major (the group tiles
// may be addressed flat); scale and offset hold one value per row in any unboxed layout.
constexpr bool tquant_layout_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }
constexpr bool tquant_param_layout_ok(SLayout s) { return s == SLayout::NoneBox; }

// Rule LEGAL_TQUANT_SHAPE: MX groups are 32 columns (every MX form) and, grouped along axis 0, 32 rows
// too, 64 (a pair of groups) when the exponents are interleaved; the ZZ exponent order takes blocks of
// 16 rows by 2 groups (64 columns).
constexpr int tquant_dn_row_multiple(bool interleave) { return interleave ? 64 : 32; }
constexpr bool tquant_mx_shape_ok(int grp_axis, int rows, int cols, bool interleave = false)
{
    return cols % 32 == 0 && (grp_axis != 0 || rows % tquant_dn_row_multiple(interleave) == 0);
}
constexpr bool tquant_zz_shape_ok(int rows, int cols) { return rows % 16 == 0 && cols % 64 == 0; }

// Rule LEGAL_TQUANT_TMP: on a2a3 the tmp tile is f32 scratch the size of src (the device's s32 cast
// intermediate); other targets accept any tmp tile and leave it alone.
constexpr bool tquant_tmp_ok(const profile::Profile& p, engine::DType tmp, int64_t tmp_elements, int64_t src_elements)
{
    return p.target != profile::Target::A2A3 || (tmp == engine::DType::F32 && tmp_elements >= src_elements);
}

}  // namespace pto::rules
