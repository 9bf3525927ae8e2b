// Legality rules of TPRINT, one constexpr predicate per rule, with its code in the comment above it.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Rule LEGAL_TPRINT_DTYPE: float, half, and the 8-, 16- and 32-bit integers.
constexpr bool tprint_dtype_ok(engine::DType t)
{
    using enum engine::DType;
    return t == F32 || t == F16 || t == I8 || t == I16 || t == I32 || t == U8 || t == U16 || t == U32;
}

// Rule LEGAL_TPRINT_LOCATION: Vec, Acc, and Mat tiles (Mat not on A5); Acc and Mat through a global tmp.
constexpr bool tprint_location_ok(const profile::Profile& p, TileType loc)
{
    return loc == TileType::Vec || loc == TileType::Acc || (loc == TileType::Mat && p.target != profile::Target::A5);
}
constexpr bool tprint_needs_tmp(TileType loc) { return loc != TileType::Vec; }

}  // namespace pto::rules
