// Engine entry point of TCOLEXPAND. Both front doors call it: it validates its operands against the
// active profile on its own (LEGAL_TCOLEXPAND_* diagnostics), then runs the kernel once.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// dst(i, j) = src(0, j) over dst's valid region (bit patterns copied). src has dst's valid columns.
void tcolexpand(const TileDesc& dst, const TileDesc& src);

// The operand rules of TCOLEXPAND on profile `p`, read from the descriptors alone (kUnknownExtent
// valid extents skip the rules that read them); every broken rule goes to `sink`.
void check_tcolexpand(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

}  // namespace pto::engine
