// Engine entry points of the row and column reductions (sum, max, min, product). Both front doors call these: each validates its
// operands against the active profile on its own (LEGAL_<NAME>_* and RUN_VALID_SHAPE), then runs the
// kernel once. A tmp tile is accepted (and checked where a page constrains it) but never read or
// written: no kernel needs scratch space.
//
// Row reductions write dst(i, 0) for each of src's valid rows i (dst is ND with one column or more, or
// DN with one column); column reductions write dst(0, j) for each of src's valid columns j. Nothing
// else of dst is written.
//
// Numerics (README, "Semantics where the documents disagree"):
// - Integer sums and products wrap (two's complement), as the hardware's non-saturating accumulation
//   truncated to the element type does.
// - Float sums and products are computed in float (half and bfloat16 widened exactly) and rounded once to
//   the element type, in one fixed order, identical on every CPU: a row's element j goes into partial
//   result j mod 64 (each partial result accumulated in column order), the 64 partial results are then
//   combined pairwise as a halving tree (s[i] + s[i + 32], then + 16, ..., + 1); a column is accumulated
//   top to bottom.
// - Max and min order floats as TMAX and TMIN do (IEEE maximumNumber / minimumNumber): a NaN loses to
//   any number, -0 < +0.
// - A NaN result (a sum or product with a NaN, inf - inf, 0 * inf, a max or min of NaNs only) is the positive quiet NaN
//   without payload (float 0x7fc00000, half 0x7e00, bfloat16 0x7fc0).
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/rules_reduce.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

using rules::ReduceOp;

// dst(i, 0) = op over j of src(i, j), for i < src's valid rows. `tmp` may be null.
void trowsum(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp);
void trowmax(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp);
void trowmin(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp);
void trowprod(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp);

// dst(0, j) = op over i of src(i, j), for j < src's valid columns. TCOLSUM's `binary` picks the device's
// accumulation path (a tree through tmp, or row by row); on the CPU both give the one result above, and
// `binary` only adds the rule that tmp's rows hold src's valid columns. `tmp` may be null.
void tcolsum(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp, bool binary);
void tcolmax(const TileDesc& dst, const TileDesc& src);
void tcolmin(const TileDesc& dst, const TileDesc& src);
void tcolprod(const TileDesc& dst, const TileDesc& src);

// TROWARGMAX TROWARGMIN (rows) and TCOLARGMAX TCOLARGMIN (columns): the position of the largest (smallest)
// element of each valid row (column) of src, as an index from 0, into index(i, 0) (index(0, j)), and with
// `value` the element itself into value(i, 0) (value(0, j)). Ties go to the smallest index; elements
// order as TMAX/TMIN order them (a NaN loses to any number, -0 < +0), so a NaN is chosen only in a line
// of NaNs only, at its first position, and its value is the canonical NaN. tmp is checked and not
// touched.
void targ_reduce(ReduceOp op, bool rows, const TileDesc& index, const TileDesc* value, const TileDesc& src,
                 const TileDesc* tmp);
void check_arg_reduce(const profile::Profile& p, ReduceOp op, bool rows, const TileDesc& index, const TileDesc* value,
                      const TileDesc& src, const TileDesc* tmp, LegalitySink& sink);

// The operand rules of the reductions on profile `p`, from the descriptors alone (kUnknownExtent valid
// extents skip the rules that read them); every broken rule goes to `sink`.
void check_row_reduce(const profile::Profile& p, ReduceOp op, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);
void check_col_reduce(const profile::Profile& p, ReduceOp op, const TileDesc& dst, const TileDesc& src,
                      const TileDesc* tmp, bool binary, LegalitySink& sink);

// THISTOGRAM: for each valid row r of src, dst(r, b) for b < 256 is the number of that row's valid
// elements whose byte `byte` is at most b (the ascending cumulative histogram the targets store),
// counting only the elements whose higher bytes match the filter: a u16 source's BYTE_0 pass keeps
// elements whose byte 1 is idx(r, 0); a u32 source's BYTE_2, BYTE_1, BYTE_0 passes keep those whose bytes
// 3, 2, 1 (as many as the pass has above it) are idx(0, 0), idx(1, 0), idx(2, 0), for every row.
void thistogram(const TileDesc& dst, const TileDesc& src, const TileDesc& idx, HistByte byte);
void check_thistogram(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& idx, HistByte byte,
                      LegalitySink& sink);

}  // namespace pto::engine
