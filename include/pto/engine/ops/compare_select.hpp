// Engine entry points of the comparison and selection instructions, and their operand checks.
//
// The packed predicate mask. A comparison of a rows x cols region writes, for each row r, the bits
// of its cols results to row r of the mask tile, least significant bit first: result (r, c) is bit
// c % 8 of byte c / 8 of the row. A mask element of B bits (uint8: 8, uint32: 32) holds B results, so
// a row needs ceil(cols / B) elements; bits past column cols in its last element are zero, and elements
// past that are left untouched. Because the bytes are little-endian, the layout does not depend on the
// mask's element type: TSEL reads a mask written as uint32 through a uint8 tile the same way.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// TCMP: mask(r, c) = src0(r, c) mode src1(r, c) over src0's valid region. TCMPS: against one scalar
// (its bits in src0's element type). Floats compare as IEEE values (NaN compares unequal to
// everything, -0 == +0); half and bfloat16 exactly.
void tcmp(const TileDesc& mask, const TileDesc& src0, const TileDesc& src1, CmpMode mode);
void tcmps(const TileDesc& mask, const TileDesc& src0, ScalarBits scalar, CmpMode mode);
// TCMPS' tile form: against src1's element (0, 0).
void tcmps(const TileDesc& mask, const TileDesc& src0, const TileDesc& src1, CmpMode mode);

// TSEL: dst(r, c) = mask(r, c) ? src0(r, c) : src1(r, c) over dst's valid region. TSELS: src or the
// scalar. Elements are copied as bit patterns.
void tsel(const TileDesc& dst, const TileDesc& mask, const TileDesc& src0, const TileDesc& src1);
void tsels(const TileDesc& dst, const TileDesc& mask, const TileDesc& src, ScalarBits scalar);

// The operand rules on profile `p` (descriptors only; unknown valid extents skip the rules that read
// them). `src1` is null for TCMPS with a scalar; `src0`/`src1` of TSEL may be null for TSELS' scalar.
void check_tcmp(const profile::Profile& p, const TileDesc& mask, const TileDesc& src0, const TileDesc* src1,
                CmpMode mode, bool scalar_form, LegalitySink& sink);
void check_tsel(const profile::Profile& p, const TileDesc& dst, const TileDesc& mask, const TileDesc& src0,
                const TileDesc* src1, LegalitySink& sink);

}  // namespace pto::engine
