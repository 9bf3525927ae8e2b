// TCVT's kernel: the conversion of dst's valid region from src, line by line. Each line takes the
// vectorised conversion where vector_conversions.hpp has one and numeric::convert for everything else,
// so every pair, mode and layout gives numeric's bits.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

namespace pto::engine::convert {

// dst's valid region converted from src's (the same shape). Writes nothing outside dst's valid region. src must not share bytes with dst unless it
// maps every position to the same address (engine/source_staging.hpp makes any other source so).
void convert_tile(const TileDesc& dst, const TileDesc& src, RoundMode mode, SaturationMode sat);

}  // namespace pto::engine::convert
