// Legality rules, one constexpr predicate per rule. The C++ front door calls them in static_assert
// (each with its own literal naming the rule); the runtime and the PTO-AS verifier call the same
// predicates and report LEGAL_* / RUN_* diagnostics from them. No rule is written twice.
#pragma once

#include <cstdint>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>

namespace pto::rules {

// Rule LEGAL_TILE_SHAPE: capacity positive, valid region (when static) within it.
constexpr bool tile_shape_ok(int rows, int cols, int valid_rows, int valid_cols)
{
    return rows > 0 && cols > 0 && (valid_rows == DYNAMIC || (valid_rows >= 0 && valid_rows <= rows)) &&
           (valid_cols == DYNAMIC || (valid_cols >= 0 && valid_cols <= cols));
}

// Rule LEGAL_FRACTAL_SIZE: a box holds 512 bytes (A/B), 1024 bytes (accumulator) or 32 bytes (MX scales).
constexpr bool fractal_size_ok(int fractal_bytes)
{
    return fractal_bytes == TileConfig::fractalABSize || fractal_bytes == TileConfig::fractalCSize ||
           fractal_bytes == TileConfig::fractalMxSize;
}

// The shape of one fractal box. MX scale boxes hold 16 rows x 2 groups with row-major inside (ScaleLeft's
// Zz) and 2 groups x 16 columns with column-major inside (ScaleRight's Nn).
constexpr int box_rows(SLayout s, int fractal_bytes, int element_bits)
{
    if (s == SLayout::NoneBox) return 1;
    if (fractal_bytes == TileConfig::fractalCSize) return TileConfig::fixedRowSize;
    if (fractal_bytes == TileConfig::fractalMxSize)
        return s == SLayout::RowMajor ? TileConfig::fixedMxRowSize : TileConfig::fixedMxColSize;
    return s == SLayout::RowMajor ? TileConfig::fixedRowSize : TileConfig::alignedSize * 8 / element_bits;
}

constexpr int box_cols(SLayout s, int fractal_bytes, int element_bits)
{
    if (s == SLayout::NoneBox) return 1;
    if (fractal_bytes == TileConfig::fractalCSize) return TileConfig::fixedColSize;
    if (fractal_bytes == TileConfig::fractalMxSize)
        return s == SLayout::RowMajor ? TileConfig::fixedMxColSize : TileConfig::fixedMxRowSize;
    return s == SLayout::RowMajor ? TileConfig::alignedSize * 8 / element_bits : TileConfig::fixedColSize;
}

// Rule LEGAL_TILE_ALIGN: an unboxed row-major tile's row, or an unboxed column-major tile's column,
// is a whole number of 32-byte blocks. A line of 4-bit elements is measured as if each took the byte its
// C++ type names (32 values, 16 bytes), as the public Tile's check measures it.
constexpr bool unboxed_alignment_ok(BLayout b, SLayout s, int rows, int cols, int element_bits)
{
    if (s != SLayout::NoneBox) return true;
    const int64_t line_bits = int64_t(b == BLayout::RowMajor ? cols : rows) * (element_bits < 8 ? 8 : element_bits);
    return line_bits % (TileConfig::alignedSize * 8) == 0;
}

// Rule LEGAL_TILE_BOX: a boxed tile's shape is a whole number of boxes (Vec tiles, MX scale tiles and
// single-row tiles are exempt from the row condition).
constexpr bool boxed_shape_ok(TileType loc, SLayout s, int rows, int cols, int fractal_bytes, int element_bits)
{
    if (s == SLayout::NoneBox) return true;
    const int br = box_rows(s, fractal_bytes, element_bits), bc = box_cols(s, fractal_bytes, element_bits);
    const bool rows_ok = loc == TileType::Vec || fractal_bytes == TileConfig::fractalMxSize || rows == 1 || rows % br == 0;
    return br > 0 && bc > 0 && rows_ok && cols % bc == 0;
}

// Rule LEGAL_TILE_ADDRESS: an on-chip tile address is aligned and the tile fits the memory.
constexpr bool tile_address_ok(uint64_t offset, uint64_t bytes, uint64_t capacity, uint32_t alignment)
{
    return offset % alignment == 0 && offset <= capacity && bytes <= capacity - offset;
}

}  // namespace pto::rules
