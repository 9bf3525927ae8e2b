// Whole-buffer conversions in integer bit manipulation for the conversions kernels use most.
// Internal to src/numeric; each returns false when it does not handle the pair.
#pragma once

#include <cstddef>

#include "element_codec.hpp"

namespace pto::numeric::internal {

// Integer -> integer, in any rounding mode (there is nothing to round).
bool convert_integers(DType dst, void* out, DType src, const void* in, std::size_t count, OutOfRange policy);

// With RINT: F32 <-> F16 / BF16, integers -> F32, 8/16-bit integers -> F16, F32 / F16 / BF16 ->
// integers other than U64.
bool convert_rint(DType dst, void* out, DType src, const void* in, std::size_t count, OutOfRange policy);

// F32 -> F32, the ISA's round-only form: every value to an integral value in direction r.
void round_to_integral(void* out, const void* in, std::size_t count, Rounding r);

}  // namespace pto::numeric::internal
