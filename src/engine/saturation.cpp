#include "engine/saturation.hpp"

#include <pto/numeric/convert.hpp>

#include <cmath>
#include <limits>

namespace pto::engine {

double largest_finite(DType t)
{
    std::byte buffer[8] = {};
    numeric::from_double(t, buffer, 0, std::numeric_limits<double>::max(), RoundMode::CAST_RINT, SaturationMode::ON);
    return numeric::to_double(t, buffer, 0);
}

double saturated(double v, DType t)
{
    if (std::isnan(v)) return 0.0;
    if (std::isinf(v)) return std::copysign(largest_finite(t), v);
    return v;
}

}  // namespace pto::engine
