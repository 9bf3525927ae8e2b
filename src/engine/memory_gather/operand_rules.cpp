#include "operand_rules.hpp"

#include <pto/engine/dtype.hpp>
#include <pto/engine/legality.hpp>
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/profile/rules_memory_gather.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <string>

namespace pto::engine::memory_gather {

namespace {

// The diagnostic codes of one instruction's rules (the two instructions share the rules, not the codes).
struct RuleCodes {
    const char* dtype;
    const char* index_dtype;
    const char* table_dtype;
    const char* location;
    const char* table_layout;
    const char* tile_layout;
    const char* index_layout;
    const char* align;
    const char* index_shape;
    const char* valid_shape;
    const char* table_width;
    const char* table_stride;
    const char* nz_shape;
};

inline constexpr RuleCodes kGatherCodes{
    "LEGAL_MGATHER_DTYPE",        "LEGAL_MGATHER_INDEX_DTYPE",  "LEGAL_MGATHER_TABLE_DTYPE",
    "LEGAL_MGATHER_LOCATION",     "LEGAL_MGATHER_TABLE_LAYOUT", "LEGAL_MGATHER_TILE_LAYOUT",
    "LEGAL_MGATHER_INDEX_LAYOUT", "LEGAL_MGATHER_ALIGN",        "LEGAL_MGATHER_INDEX_SHAPE",
    "LEGAL_MGATHER_VALID_SHAPE",  "LEGAL_MGATHER_TABLE_WIDTH",  "LEGAL_MGATHER_TABLE_STRIDE",
    "LEGAL_MGATHER_NZ_SHAPE",
};

inline constexpr RuleCodes kScatterCodes{
    "LEGAL_MSCATTER_DTYPE",        "LEGAL_MSCATTER_INDEX_DTYPE",  "LEGAL_MSCATTER_TABLE_DTYPE",
    "LEGAL_MSCATTER_LOCATION",     "LEGAL_MSCATTER_TABLE_LAYOUT", "LEGAL_MSCATTER_TILE_LAYOUT",
    "LEGAL_MSCATTER_INDEX_LAYOUT", "LEGAL_MSCATTER_ALIGN",        "LEGAL_MSCATTER_INDEX_SHAPE",
    "LEGAL_MSCATTER_VALID_SHAPE",  "LEGAL_MSCATTER_TABLE_WIDTH",  "LEGAL_MSCATTER_TABLE_STRIDE",
    "LEGAL_MSCATTER_NZ_SHAPE",
};

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

std::string shape_text(int64_t rows, int64_t cols)
{
    std::string text(1, '[');
    text += std::to_string(rows);
    text += ", ";
    text += std::to_string(cols);
    text += ']';
    return text;
}

}  // namespace

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

namespace {

void check_element_dtype(const RuleCodes& codes, const profile::Profile& p, DType element, const char* operand,
                         LegalitySink& sink)
{
    if (!rules::indexed_transfer_dtype_ok(p, element)) {
        sink.report({codes.dtype, "", operand,
                       "element type " + std::string(dtype_name(element)) + " is not supported" + on_profile(p),
                       "one of " + dtypes_allowed(p), std::string(dtype_name(element)), ""});
    }
}

void check_table_layout(const RuleCodes& codes, const profile::Profile& p, const GlobalDesc& table, bool allowed,
                        const char* expected, LegalitySink& sink)
{
    if (!allowed) {
        sink.report({codes.table_layout, "", "table",
                       "a table in layout " + table_layout_text(table.layout) + " is not supported" + on_profile(p), expected,
                       table_layout_text(table.layout), ""});
    }
}

void check_ub_data_tile(const RuleCodes& codes, const profile::Profile& p, const TileDesc& tile, const char* operand,
                        Layout table_layout, LegalitySink& sink)
{
    if (tile.loc != TileType::Vec) {
        sink.report({codes.location, "", operand, "the tile must be in UB (TileType::Vec)", "UB",
                       std::string(profile::memory_name(tile.loc)), ""});
    }
    check_element_dtype(codes, p, tile.dtype, operand, sink);
    if (!rules::indexed_tile_layout_ok(p, table_layout, tile.blayout, tile.slayout, tile.fractal_bytes)) {
        sink.report({codes.tile_layout, "", operand,
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
        sink.report({codes.align, "", operand,
                       std::string("the tile's ") + (tile.blayout == BLayout::RowMajor ? "rows" : "columns") +
                           " are not a whole number of 32-byte bursts",
                       "a multiple of 32 bytes", std::to_string(int64_t(line) * bits / 8) + " bytes", ""});
    }
    if (tile.boxed() && !rules::nz_tile_shape_ok(tile.rows, tile.cols, bits)) {
        sink.report({codes.nz_shape, "", operand, "an NZ tile must be a whole number of 16 x 32-byte fractals",
                       "Rows % 16 == 0 and Cols % " + std::to_string(rules::nz_c0_elements(bits)) + " == 0",
                       shape_text(tile.rows, tile.cols), ""});
    }
    if (all_known(tile.valid_rows, tile.valid_cols) && !rules::indexed_valid_shape_ok(tile.valid_rows, tile.valid_cols)) {
        sink.report({codes.valid_shape, "", operand, "the valid region is empty", "at least [1, 1]",
                       shape_text(tile.valid_rows, tile.valid_cols), ""});
    }
}

void check_ub_index_tile(const RuleCodes& codes, const profile::Profile& p, const TileDesc& idx, Coalesce mode,
                         const TileDesc& data, LegalitySink& sink)
{
    if (idx.loc != TileType::Vec) {
        sink.report({codes.location, "", "idx", "the index tile must be in UB (TileType::Vec)", "UB",
                       std::string(profile::memory_name(idx.loc)), ""});
    }
    if (!rules::index_dtype_ok(idx.dtype)) {
        sink.report({codes.index_dtype, "", "idx", "indices must be 32-bit integers", "i32 or u32",
                       std::string(dtype_name(idx.dtype)), ""});
    }
    const char* mode_name = mode == Coalesce::Row ? "Coalesce::Row" : "Coalesce::Elem";
    if (all_known(idx.valid_rows, idx.valid_cols, data.valid_rows, data.valid_cols) &&
        !rules::index_shape_ok(p, mode, idx.valid_rows, idx.valid_cols, data.valid_rows, data.valid_cols)) {
        const std::string expected =
            mode == Coalesce::Elem ? shape_text(data.valid_rows, data.valid_cols)
            : p.target == profile::Target::A2A3
                ? shape_text(1, data.valid_rows)
                : shape_text(1, data.valid_rows) + " or " + shape_text(data.valid_rows, 1);
        sink.report({codes.index_shape, "", "idx",
                       std::string("the index tile's valid shape does not fit ") + mode_name + " over a data tile of " +
                           shape_text(data.valid_rows, data.valid_cols) + on_profile(p),
                       expected, shape_text(idx.valid_rows, idx.valid_cols), ""});
    }
    if (all_known(idx.valid_rows, idx.valid_cols) && !rules::index_tile_layout_ok(p, mode, idx.blayout, idx.slayout, idx.valid_rows, idx.valid_cols)) {
        sink.report({codes.index_layout, "", "idx",
                       "an index tile of " + shape_text(idx.valid_rows, idx.valid_cols) + " laid out " +
                           layout_text(idx.blayout, idx.slayout, idx.fractal_bytes) + " cannot serve " + mode_name +
                           on_profile(p),
                       p.target == profile::Target::A2A3 ? "RowMajor unboxed"
                       : mode == Coalesce::Row          ? "[1, R] RowMajor or [R, 1] ColMajor, unboxed"
                                                        : "unboxed",
                       layout_text(idx.blayout, idx.slayout, idx.fractal_bytes), ""});
    }
    if (!rules::indexed_tile_alignment_ok(idx.blayout, idx.slayout, idx.rows, idx.cols, idx.element_bits())) {
        sink.report({codes.align, "", "idx", "the index tile's lines are not a whole number of 32-byte bursts",
                       "a multiple of 32 bytes", shape_text(idx.rows, idx.cols) + " of 4-byte indices", ""});
    }
}

void check_table_dtype(const RuleCodes& codes, const GlobalDesc& table, DType element, const char* operand,
                       LegalitySink& sink)
{
    if (table.dtype != element) {
        sink.report({codes.table_dtype, "", operand, "the table's element type differs from the tile's",
                       std::string(dtype_name(element)), std::string(dtype_name(table.dtype)), ""});
    }
}

void check_ub_table(const RuleCodes& codes, const profile::Profile& p, const GlobalDesc& table, Coalesce mode,
                    const TileDesc& data, const char* operand, LegalitySink& sink)
{
    check_table_dtype(codes, table, data.dtype, operand, sink);
    const int bits = data.element_bits();
    if (table.layout == Layout::NZ) {
        if (!all_known(table.shape[3], table.shape[4])) return;
        if (!rules::nz_table_shape_ok(table.shape[3], table.shape[4], bits)) {
            sink.report({codes.nz_shape, "", operand, "an NZ table is Shape<B, BlockCols, BlockRows, 16, 32 / sizeof(T)>",
                           "Shape[3] == 16 and Shape[4] == " + std::to_string(rules::nz_c0_elements(bits)),
                           std::to_string(table.shape[3]) + " and " + std::to_string(table.shape[4]), ""});
        }
        const TableGeometry geo = nz_table_geometry(table, bits);
        if (mode == Coalesce::Row && all_known(table.shape[0], table.shape[1], data.valid_cols) &&
            !rules::row_width_fits(int64_t(geo.cols), data.valid_cols)) {
            sink.report({codes.table_width, "", operand, "the tile's valid columns exceed the table's logical row",
                           "at most " + std::to_string(geo.cols), std::to_string(data.valid_cols), ""});
        }
        return;
    }
    if (mode == Coalesce::Row) {
        if (known(table.stride[4]) && !rules::row_table_contiguous_ok(table.stride[4])) {
            sink.report({codes.table_stride, "", operand, "a Row transfer moves each table row as one contiguous burst",
                           "Stride[4] == 1", std::to_string(table.stride[4]), ""});
        }
        if (all_known(table.stride[3], table.shape[4]) && !rules::row_table_packed_ok(p, table.stride[3], table.shape[4])) {
            sink.report({codes.table_stride, "", operand,
                           "rows of a Row-mode table are packed" + on_profile(p) + " (no padding between rows)",
                           "Stride[3] == Shape[4] == " + std::to_string(table.shape[4]), std::to_string(table.stride[3]),
                           ""});
        }
        if (all_known(table.shape[4], data.valid_cols) && !rules::row_table_width_ok(p, table.shape[4], data.valid_cols)) {
            sink.report({codes.table_width, "", operand,
                           p.target == profile::Target::A5 ? "the table's row width must equal the tile's valid columns on a5"
                                                           : "the tile's valid columns exceed the table's row width",
                           (p.target == profile::Target::A5 ? "Shape[4] == " : "Shape[4] >= ") +
                               std::to_string(data.valid_cols),
                           std::to_string(table.shape[4]), ""});
        }
    }
}

}  // namespace

TableGeometry ub_table_geometry(const profile::Profile& p, const GlobalDesc& table, const TileDesc& data)
{
    if (table.layout == Layout::NZ) return nz_table_geometry(table, data.element_bits());
    const auto rows = p.target == profile::Target::A5 ? RowCount::Dim3Only : RowCount::OuterDimsFolded;
    return nd_table_geometry(table, rows, data.valid_cols);
}

}  // namespace pto::engine::memory_gather

namespace pto::engine {

using namespace memory_gather;

void check_mgather(const profile::Profile& p, const TileDesc& dst, const GlobalDesc& table, const TileDesc& idx,
                   Coalesce mode, LegalitySink& sink)
{
    const RuleCodes& codes = kGatherCodes;
    if (dst.loc == TileType::Mat) {
        // The GM -> L1 form with the wrong index: its other rules do not apply.
        return sink.report({codes.location, "", "dst", "a Mat (L1) destination takes its indices from a GM tensor, not a UB tile",
                            "a GlobalTensor index", "a UB index tile", ""});
    }
    check_table_layout(codes, p, table, rules::gather_table_layout_ok(p, table.layout),
                       p.target == profile::Target::A5 ? "ND" : "ND or NZ", sink);
    check_ub_data_tile(codes, p, dst, "dst", table.layout, sink);
    check_ub_index_tile(codes, p, idx, mode, dst, sink);
    check_ub_table(codes, p, table, mode, dst, "table", sink);
}

void check_mgather_l1(const profile::Profile& p, const TileDesc& dst, const GlobalDesc& table, const GlobalDesc& idx,
                      const GlobalDesc* scratch, Coalesce mode, GatherExec exec, LegalitySink& sink)
{
    const RuleCodes& codes = kGatherCodes;
    const bool has_scratch = scratch != nullptr;
    if (!rules::l1_gather_tile_ok(dst.loc, dst.blayout, dst.slayout, dst.fractal_bytes)) {
        sink.report({codes.location, "", "dst",
                     "a GM index gathers into an L1 (Mat) tile in NZ form (ColMajor boxes of RowMajor 512-byte "
                     "fractals)",
                     "Mat NZ tile", std::string(profile::memory_name(dst.loc)) + " tile", ""});
    }
    if (!rules::l1_gather_form_ok(mode, has_scratch)) {
        sink.report({"LEGAL_MGATHER_FORM", "", has_scratch ? "scratch" : "dst",
                     has_scratch ? "Coalesce::Row into L1 takes three operands (no scratch)"
                                 : "Coalesce::Elem into L1 stages through a GM scratch: use the four-operand form",
                     has_scratch ? "Coalesce::Elem with a scratch" : "a scratch operand",
                     mode == Coalesce::Row ? "Coalesce::Row" : "Coalesce::Elem", ""});
    }
    check_element_dtype(codes, p, dst.dtype, "dst", sink);
    if (!rules::l1_gather_dtype_ok(p, mode, dst.dtype)) {
        sink.report({codes.dtype, "", "dst", "the ND -> NZ row engine moves elements of at most 32 bits",
                     "8-, 16- or 32-bit elements", std::string(dtype_name(dst.dtype)), ""});
    }
    const int bits = dst.element_bits();
    if (!rules::nz_tile_shape_ok(dst.rows, dst.cols, bits)) {
        sink.report({codes.nz_shape, "", "dst", "an NZ tile must be a whole number of 16 x 32-byte fractals",
                     "Rows % 16 == 0 and Cols % " + std::to_string(rules::nz_c0_elements(bits)) + " == 0",
                     shape_text(dst.rows, dst.cols), ""});
    }
    if (all_known(dst.valid_rows, dst.valid_cols) && !rules::indexed_valid_shape_ok(dst.valid_rows, dst.valid_cols)) {
        sink.report({codes.valid_shape, "", "dst", "the valid region is empty", "at least [1, 1]",
                     shape_text(dst.valid_rows, dst.valid_cols), ""});
    }

    check_table_layout(codes, p, table, rules::l1_gather_table_layout_ok(table.layout), "ND", sink);
    check_table_dtype(codes, table, dst.dtype, "table", sink);
    if (mode == Coalesce::Row) {
        if (known(table.stride[4]) && !rules::row_table_contiguous_ok(table.stride[4])) {
            sink.report({codes.table_stride, "", "table", "a Row transfer moves each table row as one contiguous burst",
                         "Stride[4] == 1", std::to_string(table.stride[4]), ""});
        }
        if (all_known(table.shape[4], dst.valid_cols) && !rules::row_width_fits(table.shape[4], dst.valid_cols)) {
            sink.report({codes.table_width, "", "table", "the tile's valid columns exceed the table's row width",
                         "Shape[4] >= " + std::to_string(dst.valid_cols), std::to_string(table.shape[4]), ""});
        }
    }

    if (!rules::index_dtype_ok(idx.dtype)) {
        sink.report({codes.index_dtype, "", "idx", "indices must be 32-bit integers", "i32 or u32",
                     std::string(dtype_name(idx.dtype)), ""});
    }
    const int64_t index_rows = idx.shape[0] * idx.shape[1] * idx.shape[2] * idx.shape[3];
    if (all_known(idx.shape[0], idx.shape[1], idx.shape[2], idx.shape[3], idx.shape[4], dst.valid_rows, dst.valid_cols) &&
        !rules::gm_index_shape_ok(mode, index_rows, idx.shape[4], dst.valid_rows, dst.valid_cols)) {
        sink.report({codes.index_shape, "", "idx",
                     mode == Coalesce::Row ? "the index tensor holds fewer indices than the destination has rows"
                                           : "the index tensor does not cover the destination's valid region",
                     mode == Coalesce::Row ? "at least " + std::to_string(dst.valid_rows) + " indices"
                                           : "at least " + shape_text(dst.valid_rows, dst.valid_cols),
                     shape_text(index_rows, idx.shape[4]), ""});
    }
    if (!has_scratch) return;

    if (!rules::gather_exec_ok(p, exec)) {
        sink.report({"LEGAL_MGATHER_EXEC", "", "exec",
                     "the SIMT executor needs A5's vector core; " + std::string(p.name) + " has no SIMT engine",
                     "GatherExec::Scalar", "GatherExec::Simt", ""});
    }
    if (scratch->dtype != dst.dtype) {
        sink.report({"LEGAL_MGATHER_SCRATCH", "", "scratch", "the scratch's element type differs from the tile's",
                     std::string(dtype_name(dst.dtype)), std::string(dtype_name(scratch->dtype)), ""});
    }
    const bool scratch_known = all_known(scratch->shape[0], scratch->shape[1], scratch->shape[2], scratch->shape[3],
                                         scratch->shape[4]);
    if (scratch_known && !rules::l1_scratch_size_ok(view_elements(*scratch), dst.rows, dst.cols)) {
        sink.report({"LEGAL_MGATHER_SCRATCH", "", "scratch",
                     "the scratch must hold the destination's whole Rows x Cols NZ image",
                     "at least " + std::to_string(dst.elements()) + " elements", std::to_string(view_elements(*scratch)),
                     ""});
    }
}

void check_mscatter(const profile::Profile& p, const GlobalDesc& table, const TileDesc& src, const TileDesc& idx,
                    Coalesce mode, ScatterAtomicOp atomic, LegalitySink& sink)
{
    const RuleCodes& codes = kScatterCodes;
    check_table_layout(codes, p, table, rules::scatter_table_layout_ok(table.layout), "ND", sink);
    check_ub_data_tile(codes, p, src, "src", table.layout, sink);
    check_ub_index_tile(codes, p, idx, mode, src, sink);
    if (!rules::scatter_atomic_dtype_ok(p, atomic, src.dtype)) {
        static constexpr const char* kOpNames[] = {"None", "Add", "Max", "Min"};
        sink.report({"LEGAL_MSCATTER_ATOMIC_DTYPE", "", "src",
                     std::string("ScatterAtomicOp::") + kOpNames[static_cast<int>(atomic)] + " does not exist for " +
                         std::string(dtype_name(src.dtype)) + " on " + std::string(p.name),
                     atomic == ScatterAtomicOp::Add
                         ? (p.target == profile::Target::A2A3 ? "i32, u32, f32 or f16" : "i32, u32, f32, f16 or bf16")
                         : (p.target == profile::Target::A2A3 ? "i32 or f32" : "i32, u32 or f32"),
                     std::string(dtype_name(src.dtype)), ""});
    }
    check_ub_table(codes, p, table, mode, src, "table", sink);
}

}  // namespace pto::engine
