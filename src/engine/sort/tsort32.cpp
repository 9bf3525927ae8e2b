// TSORT32: operand validation against the active profile, checked-mode bookkeeping, and the dispatch
// to the row loop for the element type.
#include <pto/engine/ops/sort.hpp>

#include <string>

#include <pto/engine/access.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/rules_sort.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"
#include "engine/sort/block_sort.hpp"

namespace pto::engine {

namespace {

std::string name(DType t) { return std::string(dtype_name(t)); }

std::string shape(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

void check_placement(LegalitySink& sink, const TileDesc& t, const char* operand)
{
    if (!rules::tsort32_location_ok(t.loc)) {
        report(sink, "LEGAL_TSORT32_LOCATION", operand, "every operand must be a Vec tile", "UB (Vec)",
               std::string(profile::memory_name(t.loc)));
    }
    if (!rules::tsort32_layout_ok(t.blayout, t.slayout)) {
        report(sink, "LEGAL_TSORT32_LAYOUT", operand, "every operand must be a plain row-major tile",
               "row-major, no fractal boxes", t.boxed() ? "a boxed layout" : "column-major");
    }
}

}  // namespace

void check_tsort32(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& indices,
                   const TileDesc* tmp, LegalitySink& sink)
{
    check_placement(sink, dst, "dst");
    check_placement(sink, src, "src");
    check_placement(sink, indices, "idx");
    if (tmp) check_placement(sink, *tmp, "tmp");
    if (!rules::tsort32_dtype_ok(p, src.dtype)) {
        report(sink, "LEGAL_TSORT32_DTYPE", "src", "sorts half or float values on " + std::string(p.name), "f16 or f32",
               name(src.dtype));
    }
    if (!rules::tsort32_same_dtype_ok(dst.dtype, src.dtype)) {
        report(sink, "LEGAL_TSORT32_SAME_DTYPE", "dst", "holds the pairs of src's element type", name(src.dtype),
               name(dst.dtype));
    }
    if (tmp && !rules::tsort32_same_dtype_ok(tmp->dtype, src.dtype)) {
        report(sink, "LEGAL_TSORT32_SAME_DTYPE", "tmp", "pads blocks of src's element type", name(src.dtype),
               name(tmp->dtype));
    }
    if (!rules::tsort32_index_dtype_ok(indices.dtype)) {
        report(sink, "LEGAL_TSORT32_INDEX_DTYPE", "idx", "indices are uint32", "u32", name(indices.dtype));
    }
    const int rows = dst.valid_rows, cols = src.valid_cols;
    if (!tmp && known(cols) && !rules::tsort32_cols_ok(cols)) {
        report(sink, "LEGAL_TSORT32_COLS", "src",
               "without a tmp tile, src's valid columns must be a whole number of 32-element blocks",
               "a multiple of 32", std::to_string(cols));
    }
    if (tmp && known(cols) && !rules::tsort32_tmp_size_ok(tmp->cols, cols)) {
        report(sink, "LEGAL_TSORT32_TMP_SIZE", "tmp", "a tmp row holds the row padded to whole 32-element blocks",
               "at least " + std::to_string((cols + 31) / 32 * 32) + " columns", std::to_string(tmp->cols));
    }
    if (all_known(dst.valid_cols, cols) && !rules::tsort32_dst_cols_ok(dst.valid_cols, cols, src.dtype)) {
        report(sink, "LEGAL_TSORT32_DST_SHAPE", "dst", "a dst row holds an 8-byte (value, index) pair per sorted element",
               "at least " + std::to_string(int64_t(cols) * rules::tsort32_pair_elements(src.dtype)) + " valid columns",
               std::to_string(dst.valid_cols));
    }
    if (all_known(rows, cols, src.valid_rows, indices.valid_rows, indices.valid_cols) &&
        !rules::tsort32_operand_shape_ok(rows, cols, src.valid_rows, indices.valid_rows, indices.valid_cols)) {
        const bool src_short = src.valid_rows < rows;
        report(sink, "LEGAL_TSORT32_SHAPE", src_short ? "src" : "idx",
               src_short ? "src has fewer valid rows than dst sorts"
                         : "idx must cover the sorted elements, per row or as one shared 1 x C row",
               src_short ? "at least " + std::to_string(rows) + " valid rows"
                         : "1x" + std::to_string(cols) + " or at least " + shape(rows, cols),
               src_short ? std::to_string(src.valid_rows) : shape(indices.valid_rows, indices.valid_cols));
    }
}

void tsort32(const TileDesc& dst, const TileDesc& src, const TileDesc& indices, const TileDesc* tmp)
{
    PTO_HOLD_BACK("TSORT32", tsort32, dst, src, indices, tmp);
    runtime::InstructionScope scope("TSORT32");
    StopAtFirstFinding stop;
    check_tsort32(runtime::active_profile(), dst, src, indices, tmp, stop);
    const int rows = dst.valid_rows, cols = src.valid_cols;
    const bool shared_indices = indices.valid_rows == 1;

    TileDesc src_read = src, index_read = indices;
    src_read.valid_rows = rows;
    src_read.valid_cols = cols;
    index_read.valid_rows = shared_indices ? 1 : rows;
    index_read.valid_cols = cols;
    require_written(src_read, "src");
    require_written(index_read, "idx");

    const int64_t value_bytes = dtype_bits(src.dtype) / 8;
    const sort32::SortRows job{
        src.data, src.cols * value_bytes, indices.data, shared_indices ? 0 : int64_t(indices.cols) * 4,
        dst.data, dst.cols * value_bytes, rows,         cols};
    if (src.dtype == DType::F32) {
        sort32::sort_f32_rows(job);
    } else {
        sort32::sort_f16_rows(job);
    }
    mark_written(dst, rows, cols * rules::tsort32_pair_elements(src.dtype));
}

}  // namespace pto::engine
