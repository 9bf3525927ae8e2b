// The kernels of the elementary-function instructions (TEXP, TLOG, TSQRT, TRSQRT, TRECIP, TPOW, TPOWS)
// over tiles: the vectorised lines of math_lines.hpp on contiguous lines, the same bits element by
// element on boxed or mixed layouts, and any aliasing between dst and a source made safe.
#pragma once

#include <pto/engine/descriptor.hpp>

#include "engine/elementwise/math_lines.hpp"

namespace pto::engine::elementwise {

// dst = fn(src) over dst's valid region. f32, f16 and bf16 tiles as math_lines.hpp says; integer tiles
// (the cpu profile's, as the public CPU simulation computes them) take fn of the value in double,
// converted as TCVT converts a double with CAST_TRUNC and saturation: truncated toward zero, clamped to
// the type's range, NaN to 0. So TRECIP of an integer is TDIV's saturating quotient 1 / x (1 / 0 the
// type's maximum), and in checked mode a zero is RUN_DIV_BY_ZERO, as TDIV's.
void math_kernel(MathFn fn, MathAccuracy accuracy, const TileDesc& dst, const TileDesc& src);

// dst = pow(base, exponent) over dst's valid region, the exponent a tile or (exponent == nullptr) the
// scalar `scalar` in the element type. Floats as math_lines.hpp says. Integers are exact powers that
// wrap like the other integer arithmetic; a negative exponent gives 0, except for a base of 1 (1) and
// -1 (+1 or -1 by the exponent's parity), and 0 to a negative power is 0.
void pow_kernel(MathAccuracy accuracy, const TileDesc& dst, const TileDesc& base, const TileDesc* exponent,
                ScalarBits scalar);

}  // namespace pto::engine::elementwise
