// Legality rules of the partial instructions (TPARTADD TPARTMAX TPARTMIN TPARTMUL TPARTARGMAX TPARTARGMIN)
// and of TPAIRREDUCESUM, one constexpr predicate per rule, with its code in the comment above it.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_reduce.hpp>

namespace pto::rules {

// Rule LEGAL_<NAME>_DTYPE of TPARTADD TPARTMAX TPARTMIN TPARTMUL: A2/A3 int32, int16, half, float; A5 also
// the 8-bit integers, uint16, uint32 and bfloat16.
constexpr bool partial_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using enum engine::DType;
    const bool a2a3 = detail::one_of(t, {I32, I16, F16, F32});
    return detail::on_profile(p, a2a3, a2a3 || detail::one_of(t, {U8, I8, U16, U32, BF16}));
}

// Rule LEGAL_<NAME>_DTYPE of TPARTARGMAX TPARTARGMIN: half or float values with 16- or 32-bit indices
// for half, 32-bit ones for float.
constexpr bool partial_arg_dtype_ok(engine::DType value, engine::DType index)
{
    using enum engine::DType;
    const bool wide_index = index == I32 || index == U32;
    if (value == F16) return wide_index || index == I16 || index == U16;
    return value == F32 && wide_index;
}

// Rule LEGAL_<NAME>_LAYOUT: on A2/A3 the tiles are row-major (A5 and cpu take any unboxed layout).
constexpr bool partial_layout_ok(const profile::Profile& p, BLayout b, SLayout s)
{
    return s == SLayout::NoneBox && detail::on_profile(p, b == BLayout::RowMajor, true);
}

// Rule LEGAL_TPAIRREDUCESUM_DTYPE: half or float (the cpu profile also int16 and int32, which the public
// CPU simulation sums); LEGAL_TPAIRREDUCESUM_LAYOUT: row-major, unboxed.
constexpr bool pair_reduce_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using enum engine::DType;
    return t == F16 || t == F32 || (p.target == profile::Target::Cpu && (t == I16 || t == I32));
}

}  // namespace pto::rules
