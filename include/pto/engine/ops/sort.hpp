// Engine entry points of TSORT32 and TMRGSORT. Both front doors call it: it validates its operands against the
// active profile on its own (LEGAL_TSORT32_* diagnostics), then runs the kernel for the element type
// once.
#pragma once

#include <pto/engine/descriptor.hpp>

#include <cstdint>
#include <span>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// For each of dst's valid rows r, the first C = src.valid_cols elements of src row r are cut into
// blocks of 32 (the last one shorter when C % 32 != 0, which needs `tmp`). Each block's (value, index)
// pairs, index from row r of `indices` (or its only row when it has one valid row), are written to
// dst row r at the block's position, sorted by value descending; equal values keep the smaller index
// first, then their source order. -0 equals +0; a NaN orders by its sign and payload above +inf
// (positive sign) or below -inf (negative sign).
//
// A pair is 8 bytes: float [f32 value, u32 index] (2 dst elements), half [f16 value, 16-bit zero,
// u32 index] (4 dst elements). Only pairs of valid elements are written. `tmp` may be null; it is
// neither read nor written.
void tsort32(const TileDesc& dst, const TileDesc& src, const TileDesc& indices, const TileDesc* tmp);

// The operand rules of TSORT32 on profile `p`, read from the descriptors alone (kUnknownExtent valid
// extents skip the rules that read them); every broken rule goes to `sink`.
void check_tsort32(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& indices,
                   const TileDesc* tmp, LegalitySink& sink);

// TMRGSORT, lists form: the (value, index) pairs of 2 to 4 sorted lists (single-row tiles; a pair is 2
// float or 4 half elements, as TSORT32 writes them) merged into dst, descending by value in TSORT32's
// order, the lower list first among equal values: as many pairs as dst's valid columns hold. With
// `exhausted` the merge stops right after the pair that empties a list (a list empty from the start
// stops it at once). executed[i] receives the pairs taken from list i (0 for lists not given). Checked
// mode reports a list out of order (RUN_TMRGSORT_ORDER); the device would merge it greedily, as the fast
// mode does. tmp (may be null) is checked, not touched.
void tmrgsort(const TileDesc& dst, const TileDesc* tmp, std::span<const TileDesc* const> lists, bool exhausted,
              uint16_t (&executed)[4]);
void check_tmrgsort(const profile::Profile& p, const TileDesc& dst, const TileDesc* tmp, std::span<const TileDesc* const> lists,
                    LegalitySink& sink);

// TMRGSORT, one-list form: src's valid columns are groups of four sorted blocks of `block_len` elements
// (RUN_TMRGSORT_BLOCK); each group is merged into the same columns of dst.
void tmrgsort_blocks(const TileDesc& dst, const TileDesc& src, int64_t block_len);
void check_tmrgsort_blocks(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, int64_t block_len, LegalitySink& sink);

}  // namespace pto::engine
