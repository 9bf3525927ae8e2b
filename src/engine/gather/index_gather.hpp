// The loops of TGATHER's index form: rows of plain row-major tiles (by hardware gathers where they pay
// off, else by scalar loads after one vector pass over the indices; index_gather.cpp), and any other
// layout.
#pragma once

#include <cstddef>
#include <cstdint>

#include <pto/engine/descriptor.hpp>

namespace pto::engine::gather {

// Strides in elements. Every index is clamped to `last` (the caller has already reported the
// out-of-range ones in checked mode), so no read leaves the source tile.
struct IndexGatherRows {
    std::byte* dst;
    int64_t dst_stride;
    const std::byte* src;  // src's storage, flat row-major
    uint32_t last;         // src's last flat index
    const std::byte* indices;
    int64_t index_stride;
    int rows;
    int cols;
};

// data_bits is 8 (the cpu profile only), 16 or 32, index_bits 16 or 32; indices are read as unsigned.
void gather_rows(int data_bits, int index_bits, const IndexGatherRows& job);

// dst(i, j) = src's flat element min(indices(i, j), last) over dst's valid region, for tiles of any
// layout (flat indices count src's capacity in row-major order).
void gather_tiles(const TileDesc& dst, const TileDesc& src, const TileDesc& indices, uint32_t last);

}  // namespace pto::engine::gather
