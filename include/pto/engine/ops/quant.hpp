// Engine entry points of TDEQUANT and TQUANT and their operand checks.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// TDEQUANT: dst(r, c) = (src(r, c) - offset(r, 0)) * scale(r, 0) over dst's valid region, computed in
// float: the integer is exact in float, the difference and the product are each rounded to nearest even.
void tdequant(const TileDesc& dst, const TileDesc& src, const TileDesc& scale, const TileDesc& offset);

// Element types, locations, layouts; src's valid shape equals dst's (RUN_VALID_SHAPE); scale and
// offset hold a value for each of dst's valid rows (RUN_VALID_SHAPE).
void check_tdequant(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& scale,
                    const TileDesc& offset, LegalitySink& sink);

// TQUANT, MX formats: src in groups of 32 values, along a row (grp_axis 1, ND) or down a column
// (grp_axis 0, DN), over src's valid region; values past the valid region count as zeros of a partial
// last group. Per group g with m = the largest |x| (NaN if any x is NaN):
//   exp(g)     the E8M0 exponent e: OCP  e = max(biased exponent of m - emax, 0) (emax 8 for e4m3,
//              2 for e2m1); NV  e = the smallest with 2^(e-127) >= m * (1/Vmax) in f32, 0 for m = 0,
//              at most 254; 0xFF (NaN) when m is NaN
//   scaling(g) 2^(127 - e), exactly (NaN for e = 0xFF); max(g) = m
//   dst        each x * scaling(g), clipped to [-Vmax, Vmax] (448, 6) and rounded to nearest even into
//              e4m3 or e2m1 (4-bit elements, two to a byte, the even one in the low nibble); a
//              NaN group gives e4m3 NaN (0x7F) or e2m1 +6 (0x7) for every value
// The group tiles exp, max, scaling hold group (i, j) at their element (i, j), or, when they have one
// row, flat at i * W + j, W = src's capacity columns / 32 (ND) or src's capacity columns (DN).
// Interleaved (DN only), exp holds the groups of row-group pair p = i / 2 side by side instead: group
// (i, j) at exp's element (i / 2, 2j + i % 2), flat at (i / 2) * 2W + 2j + i % 2.
// exp_zz, when given (ND MXFP8), receives the exponents again in ZZ order, flat from its first element:
// blocks of 16 rows x 2 groups, row-major inside a block, blocks along the rows of groups first.
struct MxMode {
    MxQuantAlg alg;
    int grp_axis;             // 1: groups along rows (ND); 0: down columns (DN)
    bool interleave = false;  // DN: exponents of row-group pairs interleaved
};
void tquant_mx(const TileDesc& dst, const TileDesc& src, const TileDesc& exp, const TileDesc& max,
               const TileDesc& scaling, MxMode mode, const TileDesc* exp_zz = nullptr);

// TQUANT, int8: dst(r, c) = round(src(r, c) * scale(r, 0) [+ offset(r, 0)]), the product and the sum
// each rounded to f32, then rounded to nearest even and saturated into int8 (INT8_SYM) or uint8
// (INT8_ASYM, with offset); NaN gives 0. tmp is checked against the profile and not touched.
void tquant_int8(const TileDesc& dst, const TileDesc& src, const TileDesc& scale, const TileDesc* offset,
                 QuantType type, const TileDesc* tmp = nullptr);

// The rules of each form on profile p (pto/profile/rules_quant.hpp), the valid shapes (RUN_VALID_SHAPE)
// and the group tiles' capacities (RUN_VALID_SHAPE). `form_is_zz` / `tmp` say which form was called.
void check_tquant_mx(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& exp,
                     const TileDesc& max, const TileDesc& scaling, MxMode mode, const TileDesc* exp_zz,
                     VecStoreMode store, LegalitySink& sink);
void check_tquant_int8(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& scale,
                       const TileDesc* offset, QuantType type, const TileDesc* tmp, LegalitySink& sink);

}  // namespace pto::engine
