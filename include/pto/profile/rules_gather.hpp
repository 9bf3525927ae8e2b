// Legality rules of TGATHER (index, mask-pattern and comparison forms), one constexpr predicate per
// rule. The intrinsics check them in static_assert for PTO_TARGET; the engine checks the same
// predicates at run time against the active profile and reports the rule's code. On the cpu profile a
// rule holds when it holds on either real target.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

namespace gather_detail {

using engine::DType;

using profile::on_profile;

constexpr bool is_b16_or_b32(DType t) { return dtype_bits(t) == 16 || dtype_bits(t) == 32; }

// int16, uint16, int32, uint32, half, float: the vector unit's native 16/32-bit lanes.
constexpr bool is_lane_type(DType t)
{
    switch (t) {
        case DType::I16:
        case DType::U16:
        case DType::I32:
        case DType::U32:
        case DType::F16:
        case DType::F32: return true;
        default: return false;
    }
}

constexpr bool is_int32(DType t) { return t == DType::I32 || t == DType::U32; }

}  // namespace gather_detail

// Rule LEGAL_TGATHER_LOCATION: every operand of every form is a Vec tile (gathers run in UB).
constexpr bool tgather_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_TGATHER_LAYOUT: the mask-pattern and comparison forms walk plain row-major tiles.
constexpr bool tgather_layout_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }

// --- index form: dst(i, j) = src0[indices(i, j)] -------------------------------------------------

// Rule LEGAL_TGATHER_DATA_DTYPE: A2/A3 gathers any 16- or 32-bit element; A5 int16, uint16, int32,
// uint32, half and float; cpu also 8-bit integers, as the public CPU simulation does.
constexpr bool tgather_data_dtype_ok(const profile::Profile& p, engine::DType t)
{
    const bool cpu_only = p.target == profile::Target::Cpu && (t == engine::DType::I8 || t == engine::DType::U8);
    return cpu_only ||
           gather_detail::on_profile(p, gather_detail::is_b16_or_b32(t), gather_detail::is_lane_type(t));
}

// Rule LEGAL_TGATHER_INDICES_DTYPE: A2/A3 takes int32 or uint32 indices; A5 also int16 and uint16.
constexpr bool tgather_indices_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using engine::DType;
    return gather_detail::on_profile(p, gather_detail::is_int32(t),
                                     gather_detail::is_int32(t) || t == DType::I16 || t == DType::U16);
}

// Rule LEGAL_TGATHER_SAME_DTYPE: the index form's dst and src0 have one element type.
constexpr bool tgather_same_dtype_ok(engine::DType dst, engine::DType src) { return dst == src; }

// Rule LEGAL_TGATHER_TMP_REQUIRED: A2/A3 needs the tmp tile (the form without it exists on A5 only).
constexpr bool tgather_tmp_present_ok(const profile::Profile& p, bool has_tmp)
{
    return gather_detail::on_profile(p, has_tmp, true);
}

// Rule LEGAL_TGATHER_TMP_DTYPE: on A2/A3 the index form's tmp has the indices' element type (A5
// ignores tmp).
constexpr bool tgather_tmp_dtype_ok(const profile::Profile& p, engine::DType tmp, engine::DType indices)
{
    return gather_detail::on_profile(p, tmp == indices, true);
}

// Rule LEGAL_TGATHER_TMP_SHAPE: on A2/A3 the index form's tmp capacity is the indices' valid shape.
constexpr bool tgather_tmp_shape_ok(const profile::Profile& p, int tmp_rows, int tmp_cols, int indices_valid_rows,
                                    int indices_valid_cols)
{
    return gather_detail::on_profile(p, tmp_rows == indices_valid_rows && tmp_cols == indices_valid_cols, true);
}

// Rule LEGAL_TGATHER_SHAPE (index form): an index exists for every element of dst's valid region.
constexpr bool tgather_index_shape_ok(int dst_valid_rows, int dst_valid_cols, int indices_valid_rows,
                                      int indices_valid_cols)
{
    return indices_valid_rows >= dst_valid_rows && indices_valid_cols >= dst_valid_cols;
}

// Rule LEGAL_TGATHER_DST_CONTIGUOUS: both targets write the index form's and the row-axis mask form's
// dst as one run of storage, so its valid columns span its capacity.
constexpr bool tgather_dst_contiguous_ok(const profile::Profile& p, int dst_valid_cols, int dst_cols)
{
    const bool contiguous = dst_valid_cols == dst_cols;
    return gather_detail::on_profile(p, contiguous, contiguous);
}

// Rule LEGAL_TGATHER_INDICES_CONTIGUOUS: A5 reads the indices as whole rows of their capacity.
constexpr bool tgather_indices_contiguous_ok(const profile::Profile& p, int indices_valid_cols, int indices_cols)
{
    return gather_detail::on_profile(p, true, indices_valid_cols == indices_cols);
}

// --- mask-pattern form ---------------------------------------------------------------------------

// Rule LEGAL_TGATHER_MASK_DTYPE: A2/A3 selects 16/32-bit integers, half, bfloat16 and float; A5 adds
// the 8-bit integers and its 8-bit floats (e4m3, e5m2, hifloat8).
constexpr bool tgather_mask_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using engine::DType;
    const bool a2a3 = gather_detail::is_lane_type(t) || t == DType::BF16;
    const bool a5 =
        a2a3 || t == DType::I8 || t == DType::U8 || t == DType::F8E4M3 || t == DType::F8E5M2 || t == DType::HiF8;
    return gather_detail::on_profile(p, a2a3, a5);
}

// Rule LEGAL_TGATHER_SAME_SIZE: the mask form copies bit patterns, so dst and src elements have one size.
constexpr bool tgather_same_size_ok(engine::DType dst, engine::DType src)
{
    return engine::dtype_bits(dst) == engine::dtype_bits(src);
}

// Rule LEGAL_TGATHER_SHAPE (mask form): along the column axis, each dst row is the leading part of a
// selected src row.
constexpr bool tgather_mask_shape_ok(GatherAxis axis, int dst_valid_cols, int src_valid_cols)
{
    return axis == GatherAxis::GATHER_ROW || dst_valid_cols <= src_valid_cols;
}

// --- comparison form -----------------------------------------------------------------------------

// Rule LEGAL_TGATHER_CMP_MODE: the comparison form selects with GT or EQ.
constexpr bool tgather_cmp_mode_ok(CmpMode mode) { return mode == CmpMode::GT || mode == CmpMode::EQ; }

// Rule LEGAL_TGATHER_CMP_SRC_DTYPE: A2/A3 compares float and half (int32 with EQ only); A5 compares
// int16, uint16, int32, uint32, half and float.
constexpr bool tgather_cmp_src_dtype_ok(const profile::Profile& p, engine::DType t, CmpMode mode)
{
    using engine::DType;
    const bool a2a3 = t == DType::F32 || t == DType::F16 || (t == DType::I32 && mode == CmpMode::EQ);
    return gather_detail::on_profile(p, a2a3, gather_detail::is_lane_type(t));
}

// Rule LEGAL_TGATHER_CMP_DST_DTYPE: the gathered indices and the per-row counts are int32 or uint32.
constexpr bool tgather_cmp_dst_dtype_ok(engine::DType t) { return gather_detail::is_int32(t); }

// Rule LEGAL_TGATHER_CMP_K_DTYPE: A2/A3 reads int32 or uint32 thresholds; A5 uint16 or uint32.
constexpr bool tgather_cmp_k_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using engine::DType;
    return gather_detail::on_profile(p, gather_detail::is_int32(t), t == DType::U16 || t == DType::U32);
}

// Rule LEGAL_TGATHER_TMP_SIZE: on A2/A3 the comparison form's tmp holds the comparison bitmap
// (tmp Rows x Cols bytes), the candidate indices (4 bytes per src element) and the converted thresholds
// (one src element per src row). A5 ignores tmp.
constexpr bool tgather_cmp_tmp_size_ok(const profile::Profile& p, int64_t tmp_bytes, int tmp_rows, int tmp_cols,
                                       int src_rows, int src_cols, int src_element_bits)
{
    const int64_t needed =
        int64_t(tmp_rows) * tmp_cols + int64_t(src_rows) * src_cols * 4 + int64_t(src_rows) * src_element_bits / 8;
    return gather_detail::on_profile(p, tmp_bytes >= needed, true);
}

// Rule LEGAL_TGATHER_SHAPE (comparison form): dst has a row for every src row with room for every
// src column; k_value and cdst are vectors (one row or one column) with an element per src row.
constexpr bool tgather_cmp_shape_ok(int src_valid_rows, int src_valid_cols, int dst_valid_rows, int dst_valid_cols,
                                    int k_length, int count_length)
{
    return dst_valid_rows >= src_valid_rows && dst_valid_cols >= src_valid_cols && k_length >= src_valid_rows &&
           count_length >= src_valid_rows;
}

// Elements of a per-row operand (k_value, cdst): the length of a one-row or one-column valid region,
// -1 for any other shape.
constexpr int tgather_vector_length(int valid_rows, int valid_cols)
{
    if (valid_rows == 1) return valid_cols;
    if (valid_cols == 1) return valid_rows;
    return valid_rows == 0 || valid_cols == 0 ? 0 : -1;
}

// --- TSCATTER: the index form dst[indices(i, j)] = src(i, j), and the mask-pattern form ---------------

// Rule LEGAL_TSCATTER_DTYPE: 8-, 16-, 32-bit integers, f16, bf16 and f32; A5 also 64-bit integers; dst
// and src of one type.
constexpr bool tscatter_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using engine::DType;
    const bool common = t == DType::I8 || t == DType::U8 || t == DType::I16 || t == DType::U16 || t == DType::I32 ||
                        t == DType::U32 || t == DType::F16 || t == DType::BF16 || t == DType::F32;
    return gather_detail::on_profile(p, common, common || t == DType::I64 || t == DType::U64);
}

// Rule LEGAL_TSCATTER_INDICES_DTYPE: int16, uint16, int32 or uint32 indices of the width the data asks
// for on the targets: 4-byte indices for 4- and 8-byte data, 2-byte indices for 1- and 2-byte data. The
// cpu profile takes any of the four, as the public CPU simulation (whose program scatters floats by
// uint16 indices) does; checked mode warns (WARN_CPU_ONLY).
constexpr bool tscatter_indices_dtype_ok(const profile::Profile& p, engine::DType data, engine::DType indices)
{
    using engine::DType;
    const bool wide = indices == DType::I32 || indices == DType::U32, narrow = indices == DType::I16 || indices == DType::U16;
    return p.target == profile::Target::Cpu ? wide || narrow : engine::dtype_bits(data) >= 32 ? wide : narrow;
}

// Rule LEGAL_TSCATTER_LAYOUT: plain row-major Vec tiles.
constexpr bool tscatter_tile_ok(TileType loc, BLayout b, SLayout s) { return loc == TileType::Vec && tgather_layout_ok(b, s); }

// --- TGATHERB: 32-byte blocks of src at byte offsets ---------------------------------------------------

// Rule LEGAL_TGATHERB_DTYPE: 8-, 16-, 32-bit integers, f16, bf16 or f32, one size in dst and src (blocks
// move as bytes).
constexpr bool tgatherb_dtype_ok(engine::DType dst, engine::DType src)
{
    using engine::DType;
    const auto listed = [](DType t) {
        return t == DType::I8 || t == DType::U8 || t == DType::I16 || t == DType::U16 || t == DType::I32 || t == DType::U32 ||
               t == DType::F16 || t == DType::BF16 || t == DType::F32;
    };
    return listed(dst) && listed(src) && engine::dtype_bits(dst) == engine::dtype_bits(src);
}

// Rule LEGAL_TGATHERB_OFFSET_DTYPE: the offsets are uint32 byte offsets.
constexpr bool tgatherb_offset_dtype_ok(engine::DType t) { return t == engine::DType::U32 || t == engine::DType::I32; }

}  // namespace pto::rules
