// Legality rules of TCVT, one constexpr predicate per rule. The intrinsics call them in static_assert;
// the engine's operand check (pto/engine/ops/convert.hpp) calls the same predicates at run time and
// reports the rule's code.
#pragma once

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_elementwise.hpp>

namespace pto::rules {

// Rule LEGAL_TCVT_PAIR: the profile's target converts src's element type into dst's (the TCVT page's
// table per target). The cpu profile converts between any two element types, as the public CPU
// simulation does (checked mode warns WARN_CPU_ONLY for a pair neither table has).
constexpr bool tcvt_pair_ok(const profile::Profile& p, engine::DType dst, engine::DType src)
{
    return p.target == profile::Target::Cpu || numeric::conversion_allowed_on(p.target, dst, src);
}

// Rule LEGAL_TCVT_LOCATION: TCVT runs on the vector unit, on tiles in UB.
constexpr bool tcvt_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_TCVT_LAYOUT: the real targets walk unboxed row-major tiles row by row, as for the other
// element-wise instructions; the cpu profile takes every layout, also different ones for dst and src.
constexpr bool tcvt_layout_ok(const profile::Profile& p, BLayout b, SLayout s)
{
    return elementwise_layout_ok(p, b, s);
}

// Rule RUN_VALID_SHAPE: src's valid shape is dst's. A DYNAMIC extent is only known at run time, so at
// compile time it satisfies the rule.
constexpr bool tcvt_valid_shape_ok(int dst_rows, int dst_cols, int src_rows, int src_cols)
{
    const bool rows_ok = dst_rows == DYNAMIC || src_rows == DYNAMIC || dst_rows == src_rows;
    const bool cols_ok = dst_cols == DYNAMIC || src_cols == DYNAMIC || dst_cols == src_cols;
    return rows_ok && cols_ok;
}

}  // namespace pto::rules
