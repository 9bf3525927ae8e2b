// Engine entry point of TDEQUANT and its operand check.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// TDEQUANT: dst(r, c) = (src(r, c) - offset(r, 0)) * scale(r, 0) over dst's valid region, computed in
// float: the integer is exact in float, the difference and the product are each rounded to nearest even.
void tdequant(const TileDesc& dst, const TileDesc& src, const TileDesc& scale, const TileDesc& offset);

// Element types, locations, layouts; src's valid shape equals dst's (RUN_VALID_SHAPE); scale and
// offset hold a value for each of dst's valid rows (RUN_VALID_SHAPE).
void check_tdequant(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& scale,
                    const TileDesc& offset, LegalitySink& sink);

}  // namespace pto::engine
