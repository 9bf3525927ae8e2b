// Vectorised elementary functions over lines of elements (TEXP, TLOG, TSQRT, TRSQRT, TRECIP, TPOW,
// TPOWS), compiled once per SIMD target and dispatched at run time like line_kernels.hpp.
//
// Every target computes the same operations in the same order (multiplies and adds, never fused, and
// IEEE division and square root), so the results are the same bits on every x86-64, and the
// one-element functions give the bits the lines give.
//
// Accuracy of float results, in ulps: the documented bound (tests/math holds it) and the worst error
// tools/ulp_sweep measured over every 31st float input:
//   function  Default                                   High
//   exp       float polynomial: <= 1.5 (1.19)           in double, rounded once: correctly rounded but
//   log       float polynomial: <= 1.0 (0.82)           within 2^-20 ulp of a tie (0.5000)
//   sqrt      IEEE, correctly rounded: 0.5              the same
//   recip     IEEE 1/x, correctly rounded: 0.5          the same
//   rsqrt     IEEE sqrt, then IEEE 1/x: <= 1.5 (1.49)   in double, as exp
//   pow       in double, as exp (both accuracies; an exact tie such as 2^-150 may round either way)
// half and bfloat16 results are the float result rounded once more to nearest even, as half(float) and
// bfloat16_t(float) round: within 0.5 ulp plus the float error's 2^-13 (half) or 2^-16 share of an ulp.

// Special values follow IEEE 754 and C's Annex F: a NaN input comes back quieted; exp(-inf) = +0,
// exp(+inf) and overflow = +inf; log(±0) = -inf, log(+inf) = +inf; sqrt(-0) = -0; rsqrt(±0) = ±inf,
// rsqrt(+inf) = +0; recip(±0) = ±inf, recip(±inf) = ±0; pow as C's pow (pow(x, ±0) = pow(1, y) = 1
// even for NaN, pow(-1, ±inf) = 1, a negative finite base to a finite non-integer power is NaN, odd
// integer powers keep the base's sign). An invalid operation (log, sqrt or rsqrt of a negative number,
// pow above) gives the x86 default NaN, 0xffc00000. Subnormal inputs and results are exact IEEE values,
// never flushed to zero.
#pragma once

#include <cstdint>

#include "engine/elementwise/line_kernels.hpp"

namespace pto::engine::elementwise {

enum class MathFn : uint8_t { Exp, Log, Sqrt, Rsqrt, Recip };
// The pages' DEFAULT and HIGH_PRECISION algorithms.
enum class MathAccuracy : uint8_t { Default, High };

// d = fn(a). A line of d may be the very same memory as the same line of a.
void float_math_lines(MathFn fn, MathAccuracy accuracy, Lines<float> d, Lines<const float> a, LineShape shape);
// half and bfloat16 as their bit patterns.
void half_math_lines(MathFn fn, MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> a, LineShape shape);
void bfloat16_math_lines(MathFn fn, MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> a,
                         LineShape shape);

// d = pow(base, exponent). A line of d may be the same memory as a line of base or exponent.
void float_pow_lines(MathAccuracy accuracy, Lines<float> d, Lines<const float> base, Lines<const float> exponent,
                     LineShape shape);
void half_pow_lines(MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> base,
                    Lines<const uint16_t> exponent, LineShape shape);
void bfloat16_pow_lines(MathAccuracy accuracy, Lines<uint16_t> d, Lines<const uint16_t> base,
                        Lines<const uint16_t> exponent, LineShape shape);

// One element (boxed layouts, scattered elements): the same bits as the lines give.
float math_element(MathFn fn, MathAccuracy accuracy, float x);
uint16_t half_math_element(MathFn fn, MathAccuracy accuracy, uint16_t x);
uint16_t bfloat16_math_element(MathFn fn, MathAccuracy accuracy, uint16_t x);
float pow_element(MathAccuracy accuracy, float base, float exponent);
uint16_t half_pow_element(MathAccuracy accuracy, uint16_t base, uint16_t exponent);
uint16_t bfloat16_pow_element(MathAccuracy accuracy, uint16_t base, uint16_t exponent);

}  // namespace pto::engine::elementwise
