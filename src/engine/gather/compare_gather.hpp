// The loop of TGATHER's comparison form: for each valid row of a plain row-major src, the positions
// whose value passes the row's threshold, written to dst as indices, and their count.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

namespace pto::engine::gather {

// Element r of a per-row operand (k_value, cdst): along its only row, or down its only column.
constexpr int64_t vector_element(const TileDesc& v, int r)
{
    return v.valid_rows == 1 ? v.offset(0, r) : v.offset(r, 0);
}

// For each valid src row r: the indices of the matches to dst row r from column 0 (nothing else of the
// row is written) and their number, as uint32, to cdst's element r.
void gather_matches(const TileDesc& dst, const TileDesc& src, const TileDesc& k_value, const TileDesc& cdst,
                    CmpMode mode, uint32_t offset);

}  // namespace pto::engine::gather
