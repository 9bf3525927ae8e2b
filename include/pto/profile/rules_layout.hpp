// Legality rules of the layout instructions (TTRANS, TRESHAPE, TFILLPAD and its forms), one constexpr
// predicate per rule, with its code in the comment above it.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Rule LEGAL_TTRANS_DTYPE: 1-, 2- or 4-byte elements, the same size in src and dst (the bits move as they
// are).
constexpr bool ttrans_dtype_ok(engine::DType dst, engine::DType src)
{
    const int bits = engine::dtype_bits(src);
    return (bits == 8 || bits == 16 || bits == 32) && engine::dtype_bits(dst) == bits;
}

// Rule LEGAL_TTRANS_LOCATION: Vec tiles.
constexpr bool ttrans_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_TTRANS_LAYOUT: on A2/A3 src is row-major; A5 and cpu take any layout.
constexpr bool ttrans_layout_ok(const profile::Profile& p, BLayout src)
{
    return p.target != profile::Target::A2A3 || src == BLayout::RowMajor;
}

// Rule LEGAL_TRESHAPE_LOCATION: both tiles in one memory; LEGAL_TRESHAPE_SIZE: the same bytes;
// LEGAL_TRESHAPE_LAYOUT: boxed stays boxed, unboxed unboxed.
constexpr bool treshape_ok_location(TileType dst, TileType src) { return dst == src; }
constexpr bool treshape_size_ok(int64_t dst_bytes, int64_t src_bytes) { return dst_bytes == src_bytes; }
constexpr bool treshape_layout_ok(SLayout dst, SLayout src) { return (dst == SLayout::NoneBox) == (src == SLayout::NoneBox); }

// Rule LEGAL_TFILLPAD_DTYPE: 1-, 2- or 4-byte elements of one size; LEGAL_TFILLPAD_PAD: dst's pad value
// is not Null.
constexpr bool tfillpad_dtype_ok(engine::DType dst, engine::DType src) { return ttrans_dtype_ok(dst, src); }
constexpr bool tfillpad_pad_ok(PadValue pad) { return pad != PadValue::Null; }

// Rule LEGAL_TFILLPAD_SHAPE: the capacities are equal (Normal, InPlace) or dst's holds src's (Expand).
constexpr bool tfillpad_shape_ok(TFillPadMode mode, int dst_rows, int dst_cols, int src_rows, int src_cols)
{
    if (mode == TFillPadMode::Expand) return dst_rows >= src_rows && dst_cols >= src_cols;
    return dst_rows == src_rows && dst_cols == src_cols;
}

// Rule LEGAL_TFILLPAD_LOCATION: Vec tiles, or (the single-type form) Mat tiles in Nz layout padded with
// zeros.
constexpr bool tfillpad_location_ok(TileType loc, BLayout b, SLayout s, PadValue pad)
{
    if (loc == TileType::Vec) return true;
    return loc == TileType::Mat && b == BLayout::ColMajor && s == SLayout::RowMajor && pad == PadValue::Zero;
}

// Rule LEGAL_TCONCAT_DTYPE / LEGAL_TINTERLEAVE_DTYPE / LEGAL_TDEINTERLEAVE_DTYPE: 8-, 16- or 32-bit
// integers, f16, bf16 or f32, one type in every data tile.
constexpr bool rearrange_dtype_ok(engine::DType t)
{
    using engine::DType;
    switch (t) {
        case DType::I8: case DType::U8: case DType::I16: case DType::U16: case DType::I32: case DType::U32:
        case DType::F16: case DType::BF16: case DType::F32: return true;
        default: return false;
    }
}

// Rule LEGAL_<op>_LAYOUT of TCONCAT, TINTERLEAVE, TDEINTERLEAVE and TPACK: Vec tiles, row-major and
// unboxed.
constexpr bool rearrange_tile_ok(TileType loc, BLayout b, SLayout s)
{
    return loc == TileType::Vec && b == BLayout::RowMajor && s == SLayout::NoneBox;
}

// Rule LEGAL_TCONCAT_INDEX_DTYPE: TCONCAT's length tiles hold 8-, 16- or 32-bit integers, one type.
constexpr bool concat_index_dtype_ok(engine::DType t)
{
    using engine::DType;
    return t == DType::I8 || t == DType::U8 || t == DType::I16 || t == DType::U16 || t == DType::I32 || t == DType::U32;
}

// Rule LEGAL_TPACK_DTYPE: TPACK moves integers into integers (kept to dst's width) or floats into floats
// (rounded to nearest even); integer <-> float is TCVT's job.
constexpr bool tpack_dtype_ok(engine::DType dst, engine::DType src)
{
    const bool int_dst = concat_index_dtype_ok(dst), int_src = concat_index_dtype_ok(src);
    const auto is_float = [](engine::DType t) {
        return t == engine::DType::F16 || t == engine::DType::BF16 || t == engine::DType::F32;
    };
    return (int_dst && int_src) || (is_float(dst) && is_float(src));
}

// Rule LEGAL_TSUBVIEW_TILE: a subview is a tile of the source's memory, capacity and layout (the view
// keeps the source's row pitch).
constexpr bool subview_tiles_ok(TileType dst_loc, TileType src_loc, int dst_rows, int dst_cols, int src_rows, int src_cols,
                                BLayout dst_b, BLayout src_b, SLayout dst_s, SLayout src_s)
{
    return dst_loc == src_loc && dst_rows == src_rows && dst_cols == src_cols && dst_b == src_b && dst_s == src_s;
}

// Rule LEGAL_TALIAS_LOCATION / LEGAL_TALIAS_SIZE: an alias stays in the source's memory and fits in
// its bytes.
constexpr bool talias_size_ok(int64_t dst_bytes, int64_t src_bytes) { return dst_bytes <= src_bytes; }

}  // namespace pto::rules
