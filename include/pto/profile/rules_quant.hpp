// Legality rules of the quantisation instructions (TDEQUANT), one constexpr predicate per rule, with its
// code in the comment above it.
#pragma once

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

}  // namespace pto::rules
