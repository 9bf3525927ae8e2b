// Checked-mode bookkeeping at instruction granularity: an instruction requires the valid region of
// each tile it reads to have been written, and marks the region it writes. Both are no-ops in fast
// mode, and kernels never call them: the engine's instruction entry points do.
#pragma once

#include <pto/engine/descriptor.hpp>

namespace pto::engine {

// A rectangle of a tile's logical elements: rows x cols from (row0, col0).
struct Window {
    int row0 = 0, col0 = 0, rows = 0, cols = 0;
};

// RUN_UNINIT_READ when a byte of the valid region of `tile` (or of rows x cols of it, or of a window)
// was never written.
void require_written(const TileDesc& tile, const char* operand);
void require_written(const TileDesc& tile, int rows, int cols, const char* operand);
void require_written(const TileDesc& tile, const Window& window, const char* operand);
// RUN_UNINIT_READ when a byte of a convolution tile's dense array was never written.
void require_written(const ConvTileDesc& tile, const char* operand);
// Records the valid region of `tile` (or rows x cols of it, or a window) as written.
void mark_written(const TileDesc& tile);
void mark_written(const TileDesc& tile, int rows, int cols);
void mark_written(const TileDesc& tile, const Window& window);
// Records the first `elements` elements of `tile`'s storage as written, whatever its layout (for results
// written in an order of their own, such as ZZ exponents).
void mark_storage_prefix_written(const TileDesc& tile, int64_t elements);

// Bytes from element offset `first` to `last` inclusive of a tile's storage.
inline std::byte* element_address(const TileDesc& t, int64_t element)
{
    return t.data + element * t.element_bits() / 8;
}

}  // namespace pto::engine
