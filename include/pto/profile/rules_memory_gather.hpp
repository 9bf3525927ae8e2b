// Legality rules of MGATHER and MSCATTER, one constexpr predicate per rule. The intrinsics assert them
// at compile time for PTO_TARGET (each with a literal naming the rule's code) and the engine checks the
// same predicates at run time against the active profile. The `cpu` profile accepts the union of what
// the real targets accept.
#pragma once

#include <cstdint>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules.hpp>

namespace pto::rules {

// Rule LEGAL_MGATHER_DTYPE / LEGAL_MSCATTER_DTYPE: the element types an indexed GM transfer moves.
// 8-bit floats exist on A5 only; the A2/A3 vector core has none.
constexpr bool indexed_transfer_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using engine::DType;
    switch (t) {
        case DType::I8: case DType::U8: case DType::I16: case DType::U16: case DType::I32: case DType::U32:
        case DType::F16: case DType::BF16: case DType::F32: return true;
        case DType::HiF8: case DType::F8E4M3: case DType::F8E5M2: return p.target != profile::Target::A2A3;
        default: return false;
    }
}

// Rule LEGAL_MGATHER_INDEX_DTYPE / LEGAL_MSCATTER_INDEX_DTYPE: indices are 32-bit integers.
constexpr bool index_dtype_ok(engine::DType t) { return t == engine::DType::I32 || t == engine::DType::U32; }

// Rule LEGAL_MGATHER_TABLE_LAYOUT: the GM table is ND; NZ tables exist on A2/A3 only (A5 has no NZ
// block-stride translation).
constexpr bool gather_table_layout_ok(const profile::Profile& p, Layout table)
{
    return table == Layout::ND || (table == Layout::NZ && p.target != profile::Target::A5);
}

// Rule LEGAL_MSCATTER_TABLE_LAYOUT: the scattered-to GM table is ND on every target.
constexpr bool scatter_table_layout_ok(Layout table) { return table == Layout::ND; }

// Rule LEGAL_MGATHER_TILE_LAYOUT / LEGAL_MSCATTER_TILE_LAYOUT: the UB data tile pairs with the table.
// An ND table goes with an unboxed tile, row-major (col-major too on A5); an NZ table with an NZ tile
// (col-major boxes of row-major 512-byte fractals).
constexpr bool indexed_tile_layout_ok(const profile::Profile& p, Layout table, BLayout b, SLayout s, int fractal_bytes)
{
    if (table == Layout::NZ) {
        return b == BLayout::ColMajor && s == SLayout::RowMajor && fractal_bytes == TileConfig::fractalABSize;
    }
    return s == SLayout::NoneBox && (b == BLayout::RowMajor || p.target != profile::Target::A2A3);
}

// Rule LEGAL_MGATHER_INDEX_LAYOUT / LEGAL_MSCATTER_INDEX_LAYOUT: the index tile is unboxed. A2/A3 reads
// it row-major; A5 reads a Row-mode index as R consecutive words, so [1, R] must be row-major and
// [R, 1] col-major, and walks an Elem-mode index in any layout.
constexpr bool index_tile_layout_ok(const profile::Profile& p, Coalesce mode, BLayout b, SLayout s, int idx_valid_rows,
                                    int idx_valid_cols)
{
    if (s != SLayout::NoneBox) return false;
    switch (p.target) {
        case profile::Target::A2A3: return b == BLayout::RowMajor;
        case profile::Target::A5:
            return mode == Coalesce::Elem || (idx_valid_rows == 1 && b == BLayout::RowMajor) ||
                   (idx_valid_cols == 1 && b == BLayout::ColMajor);
        default: return true;
    }
}

// Rule LEGAL_MGATHER_INDEX_SHAPE / LEGAL_MSCATTER_INDEX_SHAPE: Row takes one index per data row, as
// [1, R] (or [R, 1] except on A2/A3); Elem takes one index per element, shaped like the data tile.
constexpr bool index_shape_ok(const profile::Profile& p, Coalesce mode, int idx_valid_rows, int idx_valid_cols,
                              int valid_rows, int valid_cols)
{
    if (mode == Coalesce::Elem) return idx_valid_rows == valid_rows && idx_valid_cols == valid_cols;
    return (idx_valid_rows == 1 && idx_valid_cols == valid_rows) ||
           (p.target != profile::Target::A2A3 && idx_valid_rows == valid_rows && idx_valid_cols == 1);
}

// Rule LEGAL_MGATHER_VALID_SHAPE / LEGAL_MSCATTER_VALID_SHAPE: at least one element moves.
constexpr bool indexed_valid_shape_ok(int valid_rows, int valid_cols) { return valid_rows >= 1 && valid_cols >= 1; }

// Rule LEGAL_MGATHER_ALIGN / LEGAL_MSCATTER_ALIGN: an unboxed UB tile's contiguous line (a row-major
// row, a col-major column) is a whole number of 32-byte bursts.
constexpr bool indexed_tile_alignment_ok(BLayout b, SLayout s, int rows, int cols, int element_bits)
{
    return s != SLayout::NoneBox || unboxed_alignment_ok(b, s, rows, cols, element_bits);
}

// Elements in one 32-byte row of an NZ fractal.
constexpr int nz_c0_elements(int element_bits) { return C0_SIZE_BYTE * 8 / element_bits; }

// Rule LEGAL_MGATHER_NZ_SHAPE (table): an NZ table is Shape<B, BlockCols, BlockRows, 16, 32 / sizeof(T)>.
constexpr bool nz_table_shape_ok(int64_t shape3, int64_t shape4, int element_bits)
{
    return shape3 == FRACTAL_NZ_ROW && shape4 == nz_c0_elements(element_bits);
}

// Rule LEGAL_MGATHER_NZ_SHAPE (tile): an NZ tile is a whole number of 16-row, 32-byte fractals.
constexpr bool nz_tile_shape_ok(int rows, int cols, int element_bits)
{
    return rows % FRACTAL_NZ_ROW == 0 && cols % nz_c0_elements(element_bits) == 0;
}

// Rule LEGAL_MGATHER_TABLE_WIDTH (GM -> L1 and non-A5 GM -> UB): a Row transfer moves the tile's valid
// columns out of each table row, so they must fit in the row.
constexpr bool row_width_fits(int64_t table_row_width, int valid_cols) { return valid_cols <= table_row_width; }

// Rule LEGAL_MGATHER_TABLE_WIDTH / LEGAL_MSCATTER_TABLE_WIDTH (GM <-> UB): A5 moves rows of exactly
// ValidCol elements, so the table's row width Shape[4] must equal the tile's valid columns.
constexpr bool row_table_width_ok(const profile::Profile& p, int64_t table_row_width, int valid_cols)
{
    return p.target == profile::Target::A5 ? table_row_width == valid_cols : row_width_fits(table_row_width, valid_cols);
}

// Rule LEGAL_MGATHER_TABLE_STRIDE / LEGAL_MSCATTER_TABLE_STRIDE (contiguity): a Row transfer moves each
// ND table row as one contiguous burst.
constexpr bool row_table_contiguous_ok(int64_t inner_stride) { return inner_stride == 1; }

// Rule LEGAL_MGATHER_TABLE_STRIDE / LEGAL_MSCATTER_TABLE_STRIDE (packing, GM <-> UB): A5 addresses
// table rows as packed (row stride = row width), so a Row-mode table has no padding between rows there.
constexpr bool row_table_packed_ok(const profile::Profile& p, int64_t row_stride, int64_t table_row_width)
{
    return p.target != profile::Target::A5 || row_stride == table_row_width;
}

// Rule LEGAL_MGATHER_LOCATION (GM -> L1): the destination is an NZ Mat tile (col-major boxes of
// row-major 512-byte fractals), the form a matmul operand takes in L1.
constexpr bool l1_gather_tile_ok(TileType loc, BLayout b, SLayout s, int fractal_bytes)
{
    return loc == TileType::Mat && b == BLayout::ColMajor && s == SLayout::RowMajor &&
           fractal_bytes == TileConfig::fractalABSize;
}

// Rule LEGAL_MGATHER_TABLE_LAYOUT (GM -> L1): the ND -> NZ conversion happens in flight, from an ND
// table, on every target.
constexpr bool l1_gather_table_layout_ok(Layout table) { return table == Layout::ND; }

// Rule LEGAL_MGATHER_INDEX_SHAPE (GM -> L1): the GM index tensor, viewed as [Shape[0..3], Shape[4]],
// holds R indices in row-major order (Row) or covers the destination's valid region (Elem).
constexpr bool gm_index_shape_ok(Coalesce mode, int64_t index_rows, int64_t index_cols, int valid_rows,
                                 int valid_cols)
{
    if (mode == Coalesce::Row) return index_rows * index_cols >= valid_rows;
    return index_rows >= valid_rows && index_cols >= valid_cols;
}

// Rule LEGAL_MGATHER_DTYPE (GM -> L1): Row goes through the ND-to-NZ engine, which moves 8-, 16- and
// 32-bit elements; Elem stages bytes and takes every indexed-transfer type.
constexpr bool l1_gather_dtype_ok(const profile::Profile& p, Coalesce mode, engine::DType t)
{
    return indexed_transfer_dtype_ok(p, t) && (mode == Coalesce::Elem || engine::dtype_bits(t) <= 32);
}

// Rule LEGAL_MGATHER_FORM (GM -> L1): Elem stages through a GM scratch (the four-operand form), Row
// does not (the three-operand form).
constexpr bool l1_gather_form_ok(Coalesce mode, bool has_scratch) { return (mode == Coalesce::Elem) == has_scratch; }

// Rule LEGAL_MGATHER_SCRATCH: the scratch holds the whole Rows x Cols NZ image of the destination.
constexpr bool l1_scratch_size_ok(int64_t scratch_elements, int rows, int cols)
{
    return scratch_elements >= int64_t(rows) * cols;
}

// Rule LEGAL_MGATHER_EXEC: the SIMT executor runs on A5's vector core; A2/A3 has no SIMT engine.
constexpr bool gather_exec_ok(const profile::Profile& p, GatherExec exec)
{
    return exec == GatherExec::Scalar || p.target != profile::Target::A2A3;
}

// Rule LEGAL_MSCATTER_ATOMIC_DTYPE: the element types each atomic combine exists for. A5 adds bf16
// addition and unsigned max/min to what A2/A3 has.
constexpr bool scatter_atomic_dtype_ok(const profile::Profile& p, ScatterAtomicOp op, engine::DType t)
{
    using engine::DType;
    const bool a5_set = p.target != profile::Target::A2A3;
    switch (op) {
        case ScatterAtomicOp::None: return true;
        case ScatterAtomicOp::Add:
            return t == DType::I32 || t == DType::U32 || t == DType::F32 || t == DType::F16 || (a5_set && t == DType::BF16);
        case ScatterAtomicOp::Max:
        case ScatterAtomicOp::Min: return t == DType::I32 || t == DType::F32 || (a5_set && t == DType::U32);
    }
    return false;
}

}  // namespace pto::rules
