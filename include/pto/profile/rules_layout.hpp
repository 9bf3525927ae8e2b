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

}  // namespace pto::rules
