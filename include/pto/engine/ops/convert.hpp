// Engine entry point of TCVT, the element-type conversion of a tile. Both front doors call it: each
// validates its operands against the active profile on its own (check_tcvt below), then converts.
//
// dst(i, j) = src(i, j) converted to dst's element type over dst's valid region, each value rounded
// once by `mode` and out-of-range values and NaN handled as `sat` says: the bit-exact conversion of
// pto/numeric/convert.hpp, which lists the semantics (CAST_NONE is RINT; saturation only acts where dst
// cannot hold every src value). Elements outside dst's valid region are left untouched. The fp4 types
// (F4E2M1x2, F4E1M2x2) count values like every type: dst and src have the same valid shape.
// dst may alias src in any way, also with another element size: the result is as if every source
// element were read before any destination element is written.
//
// The call without a SaturationMode uses numeric::default_saturation(dst, src).
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

void tcvt(const TileDesc& dst, const TileDesc& src, RoundMode mode, SaturationMode sat);

// TCVT's operand rules on profile `p`, read from the descriptors alone (no data is read;
// kUnknownExtent valid extents skip the rules that read them). Every broken rule goes to `sink`:
// RUN_VALID_SHAPE (a valid region beyond its capacity), LEGAL_TCVT_PAIR, LEGAL_TCVT_LOCATION,
// LEGAL_TCVT_LAYOUT, RUN_VALID_SHAPE (src's valid shape is not dst's).
void check_tcvt(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

}  // namespace pto::engine
