// The element a TLOAD writes into the part of a tile outside its valid region.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

namespace pto::engine::data_movement {

// Bit pattern of one element of `dtype` (in the low bits) for a pad value other than Null:
//   Zero      all bits clear;
//   Max / Min float types: +inf / -inf, or the largest / most negative finite value of a format
//             without infinities (e4m3, e8m0, the fp4 types); integer types: their largest / smallest value;
//   custom    float: the payload is an f32 converted to the tile type (round to nearest even, no
//             saturation), except that a 16-bit type takes a payload with clear upper 16 bits as its
//             raw bit pattern (PadValueCustom16); integer: the payload is an integer, truncated to
//             the width (64-bit types extend it: signed from int32, unsigned from uint32).
uint64_t pad_bits(DType dtype, PadValue pad);

// Fills every element of the capacity of `t` with `bits`.
void fill_tile(const TileDesc& t, uint64_t bits);

}  // namespace pto::engine::data_movement
