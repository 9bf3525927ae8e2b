#include "gm_table.hpp"

#include <pto/engine/dtype.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <string>

namespace pto::engine::memory_gather {

void check_global_view(const GlobalDesc& g, const char* operand)
{
    if (!g.data) {
        runtime::fail({"RUN_NULL_POINTER", "", operand, "the global tensor has no memory (a null pointer)",
                       "a pointer to global memory", "null", ""});
    }
    for (int d = 0; d < 5; ++d) {
        if (g.shape[d] < 1 || g.stride[d] < 0) {
            runtime::fail({"RUN_GLOBAL_SHAPE", "", operand,
                           "dimension " + std::to_string(d) + " has extent " + std::to_string(g.shape[d]) +
                               " and stride " + std::to_string(g.stride[d]),
                           "extent >= 1 and stride >= 0",
                           std::to_string(g.shape[d]) + " / " + std::to_string(g.stride[d]), ""});
        }
    }
}

int64_t view_elements(const GlobalDesc& g)
{
    int64_t n = 1;
    for (int d = 0; d < 5; ++d) n *= g.shape[d];
    return n;
}

int64_t view_span(const GlobalDesc& g)
{
    int64_t last = 0;
    for (int d = 0; d < 5; ++d) last += (g.shape[d] - 1) * g.stride[d];
    return last + 1;
}

void check_global_reach(const GlobalDesc& g, int64_t elements, const char* operand)
{
    const int64_t available = runtime::global_bytes_after(g.data);
    if (available < 0) return;
    const int64_t needed = elements * dtype_bits(g.dtype) / 8;
    if (needed > available) {
        runtime::fail({"RUN_GLOBAL_OOB", "", operand,
                       "the tensor reaches " + std::to_string(needed) +
                           " bytes from its pointer, past the end of the global allocation holding it",
                       "at most " + std::to_string(available) + " bytes", std::to_string(needed) + " bytes", ""});
    }
}

int64_t view_row_offset(const GlobalDesc& g, int64_t row)
{
    int64_t offset = 0;
    for (int d = 3; d >= 0; --d) {
        offset += (row % g.shape[d]) * g.stride[d];
        row /= g.shape[d];
    }
    return offset;
}

TableGeometry nd_table_geometry(const GlobalDesc& table, RowCount rows, int width)
{
    TableGeometry geo;
    geo.rows = static_cast<uint64_t>(rows == RowCount::Dim3Only
                                         ? table.shape[3]
                                         : table.shape[0] * table.shape[1] * table.shape[2] * table.shape[3]);
    geo.size = static_cast<uint64_t>(view_elements(table));
    geo.cols = static_cast<uint64_t>(table.shape[4]);
    geo.row_reach = int64_t(geo.rows - 1) * table.stride[3] + width;
    geo.flat_reach = int64_t(geo.size);
    return geo;
}

TableGeometry nz_table_geometry(const GlobalDesc& table, int element_bits)
{
    const NzTable nz(table, element_bits);
    TableGeometry geo;
    geo.rows = static_cast<uint64_t>(table.shape[2] * FRACTAL_NZ_ROW);
    geo.cols = nz.cols;
    geo.size = geo.rows * geo.cols;
    geo.row_reach = geo.flat_reach = view_span(table);
    return geo;
}

NzTable::NzTable(const GlobalDesc& g, int element_bits)
    : data(g.data),
      cols(static_cast<uint64_t>(g.shape[0] * g.shape[1]) * static_cast<uint64_t>(C0_SIZE_BYTE * 8 / element_bits)),
      c0(C0_SIZE_BYTE * 8 / element_bits),
      block_cols(g.shape[1]),
      stride{g.stride[0], g.stride[1], g.stride[2], g.stride[3], g.stride[4]}
{}

}  // namespace pto::engine::memory_gather
