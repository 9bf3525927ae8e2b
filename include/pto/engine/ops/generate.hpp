// Engine entry points of the instructions that write a tile from a rule: TCI and TTRI.
#pragma once

#include <cstdint>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// TCI: dst(0, k) = start + k (descending: start - k) for k < dst's valid columns, wrapping in dst's type.
// The devices take the valid columns as the sequence's length and never look at the valid rows, so
// only row 0 is written (checked mode then reports a read of another row as unwritten). tmp (a2a3's
// vector path) is checked and not touched.
void tci(const TileDesc& dst, int64_t start, bool descending, const TileDesc* tmp);
void check_tci(const profile::Profile& p, const TileDesc& dst, const TileDesc* tmp, LegalitySink& sink);

// TTRI: dst(i, j) over dst's valid region is 1 where j <= i + diagonal (lower) or j >= i + diagonal
// (upper), 0 elsewhere, in dst's type.
void ttri(const TileDesc& dst, int64_t diagonal, int upper);
void check_ttri(const profile::Profile& p, const TileDesc& dst, int upper, LegalitySink& sink);

}  // namespace pto::engine
