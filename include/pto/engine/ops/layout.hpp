// Engine entry points of the layout instructions (TTRANS, ...) and their operand checks.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// TTRANS: dst(i, j) = src(j, i) over dst's valid region, the bits of each element as they are; src's valid
// region covers the transposed domain (RUN_VALID_SHAPE). dst may overlap src (even be src, square).
// tmp is checked as a Vec tile and not touched.
void ttrans(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp);
void check_ttrans(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc* tmp, LegalitySink& sink);

}  // namespace pto::engine
