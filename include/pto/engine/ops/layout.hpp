// Engine entry points of the layout instructions (TTRANS, TRESHAPE, TFILLPAD) and their operand checks.
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

// TRESHAPE: dst holds src's bytes, read as its own type and shape: the whole buffer is copied (nothing
// when both are one buffer). Checked mode: src's valid region must have been written, and dst's valid
// region counts as written.
void treshape(const TileDesc& dst, const TileDesc& src);
void check_treshape(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

// TFILLPAD (mode Normal, InPlace, Expand): every element of dst's capacity is src(i, j) inside src's
// valid region and `pad` (dst's pad value, never Null) outside it (Expand: dst's capacity may exceed
// src's). dst may be src.
void tfillpad(const TileDesc& dst, const TileDesc& src, TFillPadMode mode, PadValue pad);
void check_tfillpad(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, TFillPadMode mode, PadValue pad,
                    LegalitySink& sink);

}  // namespace pto::engine
