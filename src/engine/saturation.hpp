// The cube's saturation of exceptional float values (pto.mad's and the fixpipe's `sat`): NaN becomes 0
// and an infinity the largest finite value of the type, with its sign.
#pragma once

#include <pto/engine/dtype.hpp>

namespace pto::engine {

double largest_finite(DType t);

// v with NaN as 0 and +-inf as +-largest_finite(t); other values as they are.
double saturated(double v, DType t);

}  // namespace pto::engine
