// The GM side of MGATHER / MSCATTER: validating a global operand's view, resolving the table's geometry
// (how an index selects a row or an element), and making sure no access leaves the table's allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

namespace pto::engine::memory_gather {

// RUN_NULL_POINTER without a pointer; RUN_GLOBAL_SHAPE for an extent below 1 or a negative stride.
void check_global_view(const GlobalDesc& g, const char* operand);

// Number of elements of the 5-D view, and the span of memory (in elements) its strides cover.
int64_t view_elements(const GlobalDesc& g);
int64_t view_span(const GlobalDesc& g);

// RUN_GLOBAL_OOB when `elements` elements from g.data run past the end of the registered allocation
// holding g.data. Pointers outside every registered allocation cannot be checked and pass.
void check_global_reach(const GlobalDesc& g, int64_t elements, const char* operand);

// Element offset of logical row `row` of a view whose rows run over dimensions 0..3 (row-major).
int64_t view_row_offset(const GlobalDesc& g, int64_t row);

// A table as the instruction addresses it.
struct TableGeometry {
    uint64_t rows = 0;   // Row-mode index extent: logical rows
    uint64_t size = 0;   // Elem-mode index extent: elements
    uint64_t cols = 0;   // logical columns (ND: the row width Shape[4])
    // Elements from the table pointer that in-range Row / Elem indices can touch.
    int64_t row_reach = 0;
    int64_t flat_reach = 0;

    uint64_t extent(Coalesce mode) const { return mode == Coalesce::Row ? rows : size; }
    int64_t reach(Coalesce mode) const { return mode == Coalesce::Row ? row_reach : flat_reach; }
};

// Row-mode rows of an ND table: A5's SIMT kernel counts Shape[3] only; the A2/A3 DMA walk (and the
// GM -> L1 path everywhere) folds the outer dimensions in, rows = Shape[0] * ... * Shape[3].
enum class RowCount : uint8_t { Dim3Only, OuterDimsFolded };

// Geometry of a validated table; `width` is the number of columns a Row transfer moves per row.
TableGeometry nd_table_geometry(const GlobalDesc& table, RowCount rows, int width);
TableGeometry nz_table_geometry(const GlobalDesc& table, int element_bits);

// ND addressing: rows `row_stride` elements apart, elements of a row contiguous, and a flat Elem index
// counting elements from the table pointer.
struct NdTable {
    std::byte* data;
    int64_t row_stride;

    explicit NdTable(const GlobalDesc& g) : data(g.data), row_stride(g.stride[3]) {}
    int64_t offset(uint64_t row, uint64_t col) const { return int64_t(row) * row_stride + int64_t(col); }
    int64_t flat_offset(uint64_t index) const { return int64_t(index); }
};

// NZ addressing (A2/A3): Shape<B, BlockCols, BlockRows, 16, C0>. Logical rows are BlockRows * 16 and
// logical columns B * BlockCols * C0: the batch is the outer group of column blocks.
struct NzTable {
    std::byte* data;
    uint64_t cols;
    int64_t c0;
    int64_t block_cols;
    int64_t stride[5];

    NzTable(const GlobalDesc& g, int element_bits);
    int64_t offset(uint64_t row, uint64_t col) const
    {
        const int64_t block = int64_t(col) / c0, r = int64_t(row);
        return (block / block_cols) * stride[0] + (block % block_cols) * stride[1] + (r / FRACTAL_NZ_ROW) * stride[2] +
               (r % FRACTAL_NZ_ROW) * stride[3] + (int64_t(col) % c0) * stride[4];
    }
    int64_t flat_offset(uint64_t index) const { return offset(index / cols, index % cols); }
};

}  // namespace pto::engine::memory_gather
