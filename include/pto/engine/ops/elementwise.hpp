// Engine entry points of the element-wise instructions. Both front doors call these: each
// validates its operands against the active profile on its own, then runs the kernel for the element
// type once.
//
// Every entry computes dst(i, j) = src0(i, j) op src1(i, j) over dst's valid region; elements outside it
// are left untouched. All three tiles share one element type and one valid shape and live in UB (Vec).
// Operands may alias in any way (dst == src0 is the common case): the result is as if every source
// element were read before any destination element is written.
//
// Numerics: integers wrap (two's complement); float is IEEE single precision; half and bfloat16 are
// computed exactly enough that the single rounding to the destination type is the correctly rounded
// result (round to nearest, ties to even).
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

namespace pto::engine {

// One entry point per PTO_ELEMENTWISE_BINARY row of pto/isa/instructions.def: `entry(dst, src0, src1)`,
// with a trailing precision argument for the WithPrecision rows.
//
// TDIV: float quotients are IEEE (x/0 is an infinity or NaN). Integer quotients are truncated toward
// zero and saturated to the type: the result an exact float division followed by a saturating
// conversion gives, so INT_MIN / -1 is INT_MAX and x / 0 is the type's maximum (x > 0), minimum (x < 0)
// or 0 (x == 0). In checked mode an integer division by zero is RUN_DIV_BY_ZERO instead. Both
// algorithms give the correctly rounded quotient on the CPU, so the precision changes no result.
#define PTO_DETAIL_BINARY_ENTRY_Plain(entry, Precision) \
    void entry(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1);
#define PTO_DETAIL_BINARY_ENTRY_WithPrecision(entry, Precision) \
    void entry(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, Precision precision = Precision::DEFAULT);
#define PTO_ELEMENTWISE_BINARY(NAME, entry, Op, Shape, Precision, A2A3_DTYPES, A5_DTYPES) \
    PTO_DETAIL_BINARY_ENTRY_##Shape(entry, Precision)
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE_BINARY
#undef PTO_DETAIL_BINARY_ENTRY_Plain
#undef PTO_DETAIL_BINARY_ENTRY_WithPrecision

}  // namespace pto::engine
