#include "operand_rules.hpp"

#include <pto/engine/dtype.hpp>
#include <pto/profile/rules_memory_gather.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <string>

namespace pto::engine::memory_gather {

namespace {

std::string layout_text(BLayout b, SLayout s, int fractal_bytes)
{
    std::string text = b == BLayout::RowMajor ? "RowMajor" : "ColMajor";
    if (s == SLayout::NoneBox) return text + " unboxed";
    return text + " boxes of " + (s == SLayout::RowMajor ? "RowMajor" : "ColMajor") + " " +
           std::to_string(fractal_bytes) + "-byte fractals";
}

std::string table_layout_text(Layout l)
{
    switch (l) {
        case Layout::ND: return "ND";
        case Layout::DN: return "DN";
        case Layout::NZ: return "NZ";
        default: return "layout #" + std::to_string(static_cast<int>(l));
    }
}

std::string dtypes_allowed(const profile::Profile& p)
{
    std::string list;
    for (int i = 0; i < kDTypeCount; ++i) {
        const auto t = static_cast<DType>(i);
        if (!rules::indexed_transfer_dtype_ok(p, t)) continue;
        if (!list.empty()) list += ", ";
        list += dtype_name(t);
    }
    return list;
}

std::string on_profile(const profile::Profile& p) { return " on " + std::string(p.name); }

}  // namespace

std::string shape_text(int64_t rows, int64_t cols)
{
    std::string text(1, '[');
    text += std::to_string(rows);
    text += ", ";
    text += std::to_string(cols);
    text += ']';
    return text;
}

void check_tile_descriptor(const TileDesc& tile, const char* operand)
{
    if (!tile.data) {
        runtime::fail({"RUN_NULL_POINTER", "", operand, "the tile has no storage", "a tile bound to memory", "null", ""});
    }
    if (tile.valid_rows < 0 || tile.valid_cols < 0 || tile.valid_rows > tile.rows || tile.valid_cols > tile.cols) {
        runtime::fail({"RUN_VALID_SHAPE", "", operand, "the valid region exceeds the tile's capacity",
                       "within " + shape_text(tile.rows, tile.cols), shape_text(tile.valid_rows, tile.valid_cols), ""});
    }
}

void check_element_dtype(const RuleCodes& codes, const profile::Profile& p, DType element, const char* operand)
{
    if (!rules::indexed_transfer_dtype_ok(p, element)) {
        runtime::fail({codes.dtype, "", operand,
                       "element type " + std::string(dtype_name(element)) + " is not supported" + on_profile(p),
                       "one of " + dtypes_allowed(p), std::string(dtype_name(element)), ""});
    }
}

void check_table_layout(const RuleCodes& codes, const profile::Profile& p, const GlobalDesc& table, bool allowed,
                        const char* expected)
{
    if (!allowed) {
        runtime::fail({codes.table_layout, "", "table",
                       "a table in layout " + table_layout_text(table.layout) + " is not supported" + on_profile(p), expected,
                       table_layout_text(table.layout), ""});
    }
}

void check_ub_data_tile(const RuleCodes& codes, const profile::Profile& p, const TileDesc& tile, const char* operand,
                        Layout table_layout)
{
    check_tile_descriptor(tile, operand);
    if (tile.loc != TileType::Vec) {
        runtime::fail({codes.location, "", operand, "the tile must be in UB (TileType::Vec)", "UB",
                       std::string(profile::memory_name(tile.loc)), ""});
    }
    check_element_dtype(codes, p, tile.dtype, operand);
    if (!rules::indexed_tile_layout_ok(p, table_layout, tile.blayout, tile.slayout, tile.fractal_bytes)) {
        runtime::fail({codes.tile_layout, "", operand,
                       "the tile's layout (" + layout_text(tile.blayout, tile.slayout, tile.fractal_bytes) +
                           ") cannot pair with an " + table_layout_text(table_layout) + " table" + on_profile(p),
                       table_layout == Layout::NZ ? "ColMajor boxes of RowMajor 512-byte fractals"
                       : p.target == profile::Target::A2A3 ? "RowMajor unboxed"
                                                            : "RowMajor or ColMajor unboxed",
                       layout_text(tile.blayout, tile.slayout, tile.fractal_bytes), ""});
    }
    const int bits = tile.element_bits();
    if (!rules::indexed_tile_alignment_ok(tile.blayout, tile.slayout, tile.rows, tile.cols, bits)) {
        const int line = tile.blayout == BLayout::RowMajor ? tile.cols : tile.rows;
        runtime::fail({codes.align, "", operand,
                       std::string("the tile's ") + (tile.blayout == BLayout::RowMajor ? "rows" : "columns") +
                           " are not a whole number of 32-byte bursts",
                       "a multiple of 32 bytes", std::to_string(int64_t(line) * bits / 8) + " bytes", ""});
    }
    if (tile.boxed() && !rules::nz_tile_shape_ok(tile.rows, tile.cols, bits)) {
        runtime::fail({codes.nz_shape, "", operand, "an NZ tile must be a whole number of 16 x 32-byte fractals",
                       "Rows % 16 == 0 and Cols % " + std::to_string(rules::nz_c0_elements(bits)) + " == 0",
                       shape_text(tile.rows, tile.cols), ""});
    }
    if (!rules::indexed_valid_shape_ok(tile.valid_rows, tile.valid_cols)) {
        runtime::fail({codes.valid_shape, "", operand, "the valid region is empty", "at least [1, 1]",
                       shape_text(tile.valid_rows, tile.valid_cols), ""});
    }
}

void check_ub_index_tile(const RuleCodes& codes, const profile::Profile& p, const TileDesc& idx, Coalesce mode,
                         const TileDesc& data)
{
    check_tile_descriptor(idx, "idx");
    if (idx.loc != TileType::Vec) {
        runtime::fail({codes.location, "", "idx", "the index tile must be in UB (TileType::Vec)", "UB",
                       std::string(profile::memory_name(idx.loc)), ""});
    }
    if (!rules::index_dtype_ok(idx.dtype)) {
        runtime::fail({codes.index_dtype, "", "idx", "indices must be 32-bit integers", "i32 or u32",
                       std::string(dtype_name(idx.dtype)), ""});
    }
    const char* mode_name = mode == Coalesce::Row ? "Coalesce::Row" : "Coalesce::Elem";
    if (!rules::index_shape_ok(p, mode, idx.valid_rows, idx.valid_cols, data.valid_rows, data.valid_cols)) {
        const std::string expected =
            mode == Coalesce::Elem ? shape_text(data.valid_rows, data.valid_cols)
            : p.target == profile::Target::A2A3
                ? shape_text(1, data.valid_rows)
                : shape_text(1, data.valid_rows) + " or " + shape_text(data.valid_rows, 1);
        runtime::fail({codes.index_shape, "", "idx",
                       std::string("the index tile's valid shape does not fit ") + mode_name + " over a data tile of " +
                           shape_text(data.valid_rows, data.valid_cols) + on_profile(p),
                       expected, shape_text(idx.valid_rows, idx.valid_cols), ""});
    }
    if (!rules::index_tile_layout_ok(p, mode, idx.blayout, idx.slayout, idx.valid_rows, idx.valid_cols)) {
        runtime::fail({codes.index_layout, "", "idx",
                       "an index tile of " + shape_text(idx.valid_rows, idx.valid_cols) + " laid out " +
                           layout_text(idx.blayout, idx.slayout, idx.fractal_bytes) + " cannot serve " + mode_name +
                           on_profile(p),
                       p.target == profile::Target::A2A3 ? "RowMajor unboxed"
                       : mode == Coalesce::Row          ? "[1, R] RowMajor or [R, 1] ColMajor, unboxed"
                                                        : "unboxed",
                       layout_text(idx.blayout, idx.slayout, idx.fractal_bytes), ""});
    }
    if (!rules::indexed_tile_alignment_ok(idx.blayout, idx.slayout, idx.rows, idx.cols, idx.element_bits())) {
        runtime::fail({codes.align, "", "idx", "the index tile's lines are not a whole number of 32-byte bursts",
                       "a multiple of 32 bytes", shape_text(idx.rows, idx.cols) + " of 4-byte indices", ""});
    }
}

void check_table_dtype(const RuleCodes& codes, const GlobalDesc& table, DType element, const char* operand)
{
    if (table.dtype != element) {
        runtime::fail({codes.table_dtype, "", operand, "the table's element type differs from the tile's",
                       std::string(dtype_name(element)), std::string(dtype_name(table.dtype)), ""});
    }
}

TableGeometry check_ub_table(const RuleCodes& codes, const profile::Profile& p, const GlobalDesc& table,
                             Coalesce mode, const TileDesc& data, const char* operand)
{
    check_table_dtype(codes, table, data.dtype, operand);
    check_global_view(table, operand);
    const int bits = data.element_bits();
    if (table.layout == Layout::NZ) {
        if (!rules::nz_table_shape_ok(table.shape[3], table.shape[4], bits)) {
            runtime::fail({codes.nz_shape, "", operand, "an NZ table is Shape<B, BlockCols, BlockRows, 16, 32 / sizeof(T)>",
                           "Shape[3] == 16 and Shape[4] == " + std::to_string(rules::nz_c0_elements(bits)),
                           std::to_string(table.shape[3]) + " and " + std::to_string(table.shape[4]), ""});
        }
        const TableGeometry geo = nz_table_geometry(table, bits);
        if (mode == Coalesce::Row && !rules::row_width_fits(int64_t(geo.cols), data.valid_cols)) {
            runtime::fail({codes.table_width, "", operand, "the tile's valid columns exceed the table's logical row",
                           "at most " + std::to_string(geo.cols), std::to_string(data.valid_cols), ""});
        }
        return geo;
    }
    if (mode == Coalesce::Row) {
        if (!rules::row_table_contiguous_ok(table.stride[4])) {
            runtime::fail({codes.table_stride, "", operand, "a Row transfer moves each table row as one contiguous burst",
                           "Stride[4] == 1", std::to_string(table.stride[4]), ""});
        }
        if (!rules::row_table_packed_ok(p, table.stride[3], table.shape[4])) {
            runtime::fail({codes.table_stride, "", operand,
                           "rows of a Row-mode table are packed" + on_profile(p) + " (no padding between rows)",
                           "Stride[3] == Shape[4] == " + std::to_string(table.shape[4]), std::to_string(table.stride[3]),
                           ""});
        }
        if (!rules::row_table_width_ok(p, table.shape[4], data.valid_cols)) {
            runtime::fail({codes.table_width, "", operand,
                           p.target == profile::Target::A5 ? "the table's row width must equal the tile's valid columns on a5"
                                                           : "the tile's valid columns exceed the table's row width",
                           (p.target == profile::Target::A5 ? "Shape[4] == " : "Shape[4] >= ") +
                               std::to_string(data.valid_cols),
                           std::to_string(table.shape[4]), ""});
        }
    }
    const auto rows = p.target == profile::Target::A5 ? RowCount::Dim3Only : RowCount::OuterDimsFolded;
    return nd_table_geometry(table, rows, data.valid_cols);
}

}  // namespace pto::engine::memory_gather
