// Engine entry points of the instructions that write a tile from a rule: TCI, TTRI and TRANDOM.
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

// TRANDOM: Philox4x32 with `rounds` rounds (7 or 10) over a 128-bit counter (counter[0] least significant)
// and a 64-bit key, laid out as the targets' vector kernel lays it: row r of dst's valid region is cut
// into chunks of 256 columns; chunk l uses base = counter + (r * L + l) * (Cols / 4) (L chunks per row,
// Cols dst's capacity), lane n < 64 encrypts base + n, and its four output words go to columns
// 256 l + 64 w + n (w = 0..3). The same key and counter give the same tile on every run and host; key
// and counter are not advanced.
void trandom(const TileDesc& dst, const uint32_t (&key)[2], const uint32_t (&counter)[4], int rounds);
void check_trandom(const profile::Profile& p, const TileDesc& dst, int rounds, LegalitySink& sink);

}  // namespace pto::engine
