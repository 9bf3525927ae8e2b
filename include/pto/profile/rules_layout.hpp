// Legality rules of the layout instructions (TTRANS, ...), one constexpr predicate per rule, with its code
// in the comment above it.
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

}  // namespace pto::rules
