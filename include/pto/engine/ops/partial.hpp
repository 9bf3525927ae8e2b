// Engine entry points of the partial instructions (TPARTADD TPARTMAX TPARTMIN TPARTMUL, TPARTARGMAX
// TPARTARGMIN) and of TPAIRREDUCESUM.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

enum class PartialOp : uint8_t { Add, Max, Min, Mul };

// dst(i, j) over dst's valid region: op(src0(i, j), src1(i, j)) where both sources' valid regions hold
// (i, j), the one source's element where only one does. One source's valid region is dst's and the
// other's lies inside it (RUN_VALID_SHAPE otherwise: elsewhere the result would be undefined). op is
// the element-wise instruction's (TADD, TMAX, TMIN, TMUL): integers wrap, half and bfloat16 compute in
// float and round once, max and min order a NaN below any number and -0 below +0.
void tpartial(PartialOp op, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1);
void check_partial(const profile::Profile& p, PartialOp op, const TileDesc& dst, const TileDesc& src0,
                   const TileDesc& src1, LegalitySink& sink);

// TPARTARGMAX / TPARTARGMIN (op Max / Min): the same over value tiles, each value carrying the index of its
// index tile; where both are valid, src0's pair wins only when its value is strictly larger (smaller)
// than src1's, as the page's comparisons read (so a tie, or a NaN on either side, gives src1's pair).
void tpartial_arg(PartialOp op, const TileDesc& dst_val, const TileDesc& src0_val, const TileDesc& src1_val,
                  const TileDesc& dst_idx, const TileDesc& src0_idx, const TileDesc& src1_idx);
void check_partial_arg(const profile::Profile& p, PartialOp op, const TileDesc& dst_val, const TileDesc& src0_val,
                       const TileDesc& src1_val, const TileDesc& dst_idx, const TileDesc& src0_idx,
                       const TileDesc& src1_idx, LegalitySink& sink);

// TPAIRREDUCESUM: dst(i, k) = src(i, 2k) + src(i, 2k + 1) for k < ceil(v / 2), v = dst's valid columns
// (an element past v counting as 0), and dst(i, k) = 0 for ceil(v / 2) <= k < v; half computes in float
// and rounds once. dst may be src.
void tpairreducesum(const TileDesc& dst, const TileDesc& src);
void check_pairreducesum(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

}  // namespace pto::engine
