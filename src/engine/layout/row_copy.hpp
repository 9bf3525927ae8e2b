// Row pieces of unboxed row-major tiles, for the instructions that move runs of elements between rows
// (TCONCAT, TINTERLEAVE, TDEINTERLEAVE).
#pragma once

#include <pto/engine/access.hpp>
#include <pto/engine/descriptor.hpp>

#include <cstring>

namespace pto::engine::layout {

// Row r of a row-major tile as a one-row tile of the same pitch (for per-row bookkeeping).
inline TileDesc row_of(const TileDesc& t, int r)
{
    TileDesc row = t;
    row.data = element_address(t, t.offset(r, 0));
    row.rows = 1;
    row.valid_rows = 1;
    return row;
}

// Copies n elements of src row sr from column sc to dst row dr from column dc (the two may overlap).
inline void copy_row_span(const TileDesc& dst, int dr, int dc, const TileDesc& src, int sr, int sc, int n)
{
    if (n > 0)
        std::memmove(element_address(dst, dst.offset(dr, dc)), element_address(src, src.offset(sr, sc)),
                     size_t(n) * size_t(src.element_bits() / 8));
}

}  // namespace pto::engine::layout
