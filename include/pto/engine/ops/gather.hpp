// Engine entry points of TGATHER, TSCATTER and TGATHERB. Both front doors call these: each validates its operands against
// the active profile on its own (LEGAL_TGATHER_* diagnostics, the check_* functions below), then runs
// the kernel for the element type once. Every operand is a Vec tile; tmp tiles are accepted for the targets that need them and are
// neither read nor written.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// Index form: dst(i, j) = src's element number indices(i, j), counting src's capacity Rows x Cols in
// row-major order, over dst's valid region. Indices are read as unsigned (a negative int16/int32 is a
// large index). An index past the capacity is RUN_GATHER_INDEX in checked mode and is clamped to the
// last element otherwise. `tmp` may be null (the form without a tmp tile).
void tgather_index(const TileDesc& dst, const TileDesc& src, const TileDesc& indices, const TileDesc* tmp);

// Mask-pattern form. The pattern keeps, of each group of 2 (P0101, P1010) or 4 (P0001 .. P1000)
// consecutive positions, those whose bit is set, reading the pattern's digits right to left (P0101
// keeps positions 0, 2, 4, ...; P1000 keeps 3, 7, 11, ...; P1111 keeps all).
//   GATHER_ROW: the kept columns of each valid src row, row after row, fill dst's valid region in
//     row-major order until either runs out.
//   GATHER_COL: the kept src rows (of its valid rows), in order, become dst's rows until either runs out;
//     each dst row takes the first dst-valid-columns elements of its src row.
// Elements are copied as bit patterns (dst may be another type of the same size).
void tgather_mask(const TileDesc& dst, const TileDesc& src, MaskPattern pattern, GatherAxis axis);

// Comparison form: for each valid src row r, the positions c (in order) where src(r, c) > k_r (GT) or
// == k_r (EQ) write the indices offset + r * src.cols + c to dst row r from column 0, and the number
// written to cdst's element r. k_r is k_value's element r; k_value and cdst are vectors (one row or one
// column). Integer sources compare exactly; for float sources k_r is first rounded to the source type
// (to nearest, ties to even; overflow gives an infinity), and NaN matches nothing. `tmp` may be null
// except on A2/A3.
void tgather_compare(const TileDesc& dst, const TileDesc& src, const TileDesc& k_value, const TileDesc& cdst,
                     const TileDesc* tmp, CmpMode mode, uint32_t offset);

// The operand rules of each form on profile `p`, read from the descriptors alone (data pointers and
// data are not touched; kUnknownExtent valid extents skip the rules that read them). Every broken rule
// goes to `sink`.
void check_tgather_index(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& indices,
                         const TileDesc* tmp, LegalitySink& sink);
void check_tgather_mask(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, GatherAxis axis,
                        LegalitySink& sink);
void check_tgather_compare(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& k_value,
                           const TileDesc& cdst, const TileDesc* tmp, CmpMode mode, LegalitySink& sink);

// TSCATTER, index form: dst's whole capacity is cleared, then for each (i, j) of the indices' valid
// region (row-major; of equal indices the later wins) dst's element number indices(i, j), counting its
// capacity Rows x Cols in row-major order, becomes src(i, j). Indices read as unsigned; one past the
// capacity is RUN_SCATTER_INDEX (both modes: no write leaves dst).
void tscatter_index(const TileDesc& dst, const TileDesc& src, const TileDesc& indices);
void check_tscatter_index(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& indices,
                          LegalitySink& sink);

// TSCATTER, mask-pattern form (TGATHER's inverse): dst's whole capacity is cleared, then SCATTER_ROW
// puts src(r, j) at dst(r, first + step * j) (src's valid columns: the kept positions of dst's), and
// SCATTER_COL puts src(i, c) at dst(first + step * i, c) (src's valid rows: the kept rows of dst's).
void tscatter_mask(const TileDesc& dst, const TileDesc& src, MaskPattern pattern, ScatterAxis axis);
void check_tscatter_mask(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, MaskPattern pattern,
                         ScatterAxis axis, LegalitySink& sink);

// TGATHERB: row r of dst's valid region is cut into 32-byte blocks; block b is the 32 bytes of src from
// byte offset offset(r, b) (a uint32 element of the offset tile). An offset whose block leaves src's
// capacity is RUN_GATHERB_OFFSET.
void tgatherb(const TileDesc& dst, const TileDesc& src, const TileDesc& offsets);
void check_tgatherb(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& offsets,
                    LegalitySink& sink);

}  // namespace pto::engine
