// TGATHER's three forms: operand validation against the active profile, the checked-mode facts
// (out-of-range indices, reads of never-written elements), and the dispatch to the form's kernel.
#include <pto/engine/ops/gather.hpp>

#include <cstring>
#include <string>

#include <pto/engine/access.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/rules_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"
#include "engine/gather/compare_gather.hpp"
#include "engine/gather/index_gather.hpp"
#include "engine/gather/mask_gather.hpp"

namespace pto::engine {

namespace {

[[noreturn]] void reject(const char* code, const char* operand, std::string message, std::string expected,
                         std::string actual)
{
    runtime::fail({code, "", operand, std::move(message), std::move(expected), std::move(actual), ""});
}

std::string name(DType t) { return std::string(dtype_name(t)); }
std::string shape(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }
std::string position(int r, int c)
{
    std::string text(1, '(');  // appended piecewise: g++ 12 warns falsely (-Wrestrict) on "(" + string
    text += std::to_string(r);
    text += ", ";
    text += std::to_string(c);
    text += ')';
    return text;
}

void check_location(LegalitySink& sink, const TileDesc& t, const char* operand)
{
    if (!rules::tgather_location_ok(t.loc)) {
        report(sink, "LEGAL_TGATHER_LOCATION", operand, "every operand must be a Vec tile", "UB (Vec)",
               std::string(profile::memory_name(t.loc)));
    }
}

void check_layout(LegalitySink& sink, const TileDesc& t, const char* operand)
{
    if (!rules::tgather_layout_ok(t.blayout, t.slayout)) {
        report(sink, "LEGAL_TGATHER_LAYOUT", operand, "this form walks plain row-major tiles", "row-major, no fractal boxes",
               t.boxed() ? "a boxed layout" : "column-major");
    }
}

void check_dst_contiguous(const profile::Profile& p, const TileDesc& dst, LegalitySink& sink)
{
    if (known(dst.valid_cols) && !rules::tgather_dst_contiguous_ok(p, dst.valid_cols, dst.cols)) {
        report(sink, "LEGAL_TGATHER_DST_CONTIGUOUS", "dst",
               "dst is written as one run of storage on " + std::string(p.name) +
                   ": its valid columns must span its capacity",
               std::to_string(dst.cols) + " valid columns", std::to_string(dst.valid_cols));
    }
}

// --- index form ----------------------------------------------------------------------------------

}  // namespace

void check_tgather_index(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& indices,
                         const TileDesc* tmp, LegalitySink& sink)
{
    check_location(sink, dst, "dst");
    check_location(sink, src, "src0");
    check_location(sink, indices, "indices");
    if (tmp) check_location(sink, *tmp, "tmp");
    if (!rules::tgather_data_dtype_ok(p, src.dtype)) {
        report(sink, "LEGAL_TGATHER_DATA_DTYPE", "src0", "element type not gathered on " + std::string(p.name),
               p.target == profile::Target::A5 ? "i16, u16, i32, u32, f16 or f32" : "a 16- or 32-bit element",
               name(src.dtype));
    }
    if (!rules::tgather_same_dtype_ok(dst.dtype, src.dtype)) {
        report(sink, "LEGAL_TGATHER_SAME_DTYPE", "dst", "dst and src0 must have one element type", name(src.dtype),
               name(dst.dtype));
    }
    if (!rules::tgather_indices_dtype_ok(p, indices.dtype)) {
        report(sink, "LEGAL_TGATHER_INDICES_DTYPE", "indices", "index type not accepted on " + std::string(p.name),
               p.target == profile::Target::A2A3 ? "i32 or u32" : "i16, u16, i32 or u32", name(indices.dtype));
    }
    if (!rules::tgather_tmp_present_ok(p, tmp != nullptr)) {
        report(sink, "LEGAL_TGATHER_TMP_REQUIRED", "tmp", "the index form needs a tmp tile on " + std::string(p.name),
               "a tmp tile", "none");
    }
    if (tmp && !rules::tgather_tmp_dtype_ok(p, tmp->dtype, indices.dtype)) {
        report(sink, "LEGAL_TGATHER_TMP_DTYPE", "tmp", "tmp must have the indices' element type on " + std::string(p.name),
               name(indices.dtype), name(tmp->dtype));
    }
    if (tmp && all_known(indices.valid_rows, indices.valid_cols) &&
        !rules::tgather_tmp_shape_ok(p, tmp->rows, tmp->cols, indices.valid_rows, indices.valid_cols)) {
        report(sink, "LEGAL_TGATHER_TMP_SHAPE", "tmp",
               "tmp's capacity must be the indices' valid shape on " + std::string(p.name),
               shape(indices.valid_rows, indices.valid_cols), shape(tmp->rows, tmp->cols));
    }
    check_dst_contiguous(p, dst, sink);
    if (known(indices.valid_cols) && !rules::tgather_indices_contiguous_ok(p, indices.valid_cols, indices.cols)) {
        report(sink, "LEGAL_TGATHER_INDICES_CONTIGUOUS", "indices",
               "the indices' valid columns must span their capacity on " + std::string(p.name),
               std::to_string(indices.cols) + " valid columns", std::to_string(indices.valid_cols));
    }
    if (all_known(dst.valid_rows, dst.valid_cols, indices.valid_rows, indices.valid_cols) &&
        !rules::tgather_index_shape_ok(dst.valid_rows, dst.valid_cols, indices.valid_rows, indices.valid_cols)) {
        report(sink, "LEGAL_TGATHER_SHAPE", "indices", "an index is needed for every element of dst's valid region",
               "at least " + shape(dst.valid_rows, dst.valid_cols) + " valid",
               shape(indices.valid_rows, indices.valid_cols));
    }
}

namespace {

// Checked mode: every index within src's capacity, and every element it names written.
template <typename Index>
void check_indices(const TileDesc& dst, const TileDesc& src, const TileDesc& indices)
{
    const int64_t extent = src.elements();
    const int bytes = src.element_bits() / 8;
    for (int i = 0; i < dst.valid_rows; ++i) {
        for (int j = 0; j < dst.valid_cols; ++j) {
            Index k;
            std::memcpy(&k, indices.data + indices.offset(i, j) * sizeof(Index), sizeof k);
            if (int64_t{k} >= extent) {
                reject("RUN_GATHER_INDEX", "indices",
                       "index " + std::to_string(k) + " for dst " + position(i, j) +
                           " is outside src0, whose extent (capacity Rows x Cols) is " + std::to_string(extent),
                       "an index in [0, " + std::to_string(extent - 1) + "]", std::to_string(k));
            }
            const int64_t from = src.offset(k / src.cols, k % src.cols);
            if (runtime::first_unwritten(src.data + from * bytes, static_cast<std::size_t>(bytes)) >= 0) {
                reject("RUN_UNINIT_READ", "src0",
                       "dst " + position(i, j) + " gathers element " + std::to_string(k) + " " +
                           position(int(k / src.cols), int(k % src.cols)) + ", which nothing has written",
                       "initialised data", "never-written bytes");
            }
        }
    }
}

// --- mask-pattern form ---------------------------------------------------------------------------

}  // namespace

void check_tgather_mask(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, GatherAxis axis,
                        LegalitySink& sink)
{
    check_location(sink, dst, "dst");
    check_location(sink, src, "src");
    check_layout(sink, dst, "dst");
    check_layout(sink, src, "src");
    if (!rules::tgather_mask_dtype_ok(p, src.dtype)) {
        report(sink, "LEGAL_TGATHER_MASK_DTYPE", "src", "element type not selected on " + std::string(p.name),
               p.target == profile::Target::A2A3 ? "i16, u16, i32, u32, f16, bf16 or f32"
                                                 : "i8, u8, i16, u16, i32, u32, f16, bf16, f32, f8e4m3, f8e5m2 or hif8",
               name(src.dtype));
    }
    if (!rules::tgather_mask_dtype_ok(p, dst.dtype)) {
        report(sink, "LEGAL_TGATHER_MASK_DTYPE", "dst", "element type not selected on " + std::string(p.name),
               "a type the mask form selects", name(dst.dtype));
    }
    if (!rules::tgather_same_size_ok(dst.dtype, src.dtype)) {
        report(sink, "LEGAL_TGATHER_SAME_SIZE", "dst", "dst and src elements must have one size",
               std::to_string(src.element_bits()) + "-bit", std::to_string(dst.element_bits()) + "-bit");
    }
    if (axis == GatherAxis::GATHER_ROW) check_dst_contiguous(p, dst, sink);
    if (all_known(dst.valid_cols, src.valid_cols) && !rules::tgather_mask_shape_ok(axis, dst.valid_cols, src.valid_cols)) {
        report(sink, "LEGAL_TGATHER_SHAPE", "dst", "along GATHER_COL a dst row is the leading part of a src row",
               "at most " + std::to_string(src.valid_cols) + " valid columns", std::to_string(dst.valid_cols));
    }
}

namespace {

// Marks the first `count` elements of dst's valid region, in row-major order, as written.
void mark_written_prefix(const TileDesc& dst, int64_t count)
{
    const int full_rows = static_cast<int>(count / dst.valid_cols);
    mark_written(dst, full_rows, dst.valid_cols);
    if (const int rest = static_cast<int>(count % dst.valid_cols); rest > 0) {
        TileDesc row = dst;
        row.data = element_address(dst, dst.offset(full_rows, 0));
        row.rows = 1;
        mark_written(row, 1, rest);
    }
}

// --- comparison form -----------------------------------------------------------------------------

int vector_length(const TileDesc& v) { return rules::tgather_vector_length(v.valid_rows, v.valid_cols); }

// The first `length` elements of a per-row operand, as a region access.hpp can check and mark.
TileDesc vector_prefix(const TileDesc& v, int length)
{
    TileDesc region = v;
    region.valid_rows = v.valid_rows == 1 ? 1 : length;
    region.valid_cols = v.valid_rows == 1 ? length : 1;
    return region;
}

}  // namespace

void check_tgather_compare(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& k_value,
                           const TileDesc& cdst, const TileDesc* tmp, CmpMode mode, LegalitySink& sink)
{
    check_location(sink, dst, "dst");
    check_location(sink, src, "src0");
    check_location(sink, k_value, "k_value");
    check_location(sink, cdst, "cdst");
    if (tmp) check_location(sink, *tmp, "tmp");
    check_layout(sink, dst, "dst");
    check_layout(sink, src, "src0");
    if (!rules::tgather_cmp_mode_ok(mode)) {
        report(sink, "LEGAL_TGATHER_CMP_MODE", "", "the comparison form selects with GT or EQ", "GT or EQ",
               "CmpMode " + std::to_string(static_cast<int>(mode)));
    }
    if (!rules::tgather_cmp_src_dtype_ok(p, src.dtype, mode)) {
        report(sink, "LEGAL_TGATHER_CMP_SRC_DTYPE", "src0", "element type not compared on " + std::string(p.name),
               p.target == profile::Target::A2A3 ? "f16 or f32 (i32 with EQ)" : "i16, u16, i32, u32, f16 or f32",
               name(src.dtype) + (mode == CmpMode::GT ? " with GT" : " with EQ"));
    }
    if (!rules::tgather_cmp_dst_dtype_ok(dst.dtype)) {
        report(sink, "LEGAL_TGATHER_CMP_DST_DTYPE", "dst", "gathered indices are 32-bit integers", "i32 or u32",
               name(dst.dtype));
    }
    if (!rules::tgather_cmp_dst_dtype_ok(cdst.dtype)) {
        report(sink, "LEGAL_TGATHER_CMP_DST_DTYPE", "cdst", "match counts are 32-bit integers", "i32 or u32",
               name(cdst.dtype));
    }
    if (!rules::tgather_cmp_k_dtype_ok(p, k_value.dtype)) {
        report(sink, "LEGAL_TGATHER_CMP_K_DTYPE", "k_value", "threshold type not accepted on " + std::string(p.name),
               p.target == profile::Target::A2A3 ? "i32 or u32"
                                                 : (p.target == profile::Target::A5 ? "u16 or u32" : "i32, u16 or u32"),
               name(k_value.dtype));
    }
    if (!rules::tgather_tmp_present_ok(p, tmp != nullptr)) {
        report(sink, "LEGAL_TGATHER_TMP_REQUIRED", "tmp", "the comparison form needs a tmp tile on " + std::string(p.name),
               "a tmp tile", "none");
    }
    if (tmp && !rules::tgather_cmp_tmp_size_ok(p, tmp->bytes(), tmp->rows, tmp->cols, src.rows, src.cols,
                                               src.element_bits())) {
        const int64_t needed = int64_t(tmp->rows) * tmp->cols + int64_t(src.rows) * src.cols * 4 +
                               int64_t(src.rows) * src.element_bits() / 8;
        report(sink, "LEGAL_TGATHER_TMP_SIZE", "tmp",
               "tmp holds the comparison bitmap, the candidate indices and the thresholds on " + std::string(p.name),
               "at least " + std::to_string(needed) + " bytes", std::to_string(tmp->bytes()));
    }
    const bool shapes_known = all_known(src.valid_rows, src.valid_cols, dst.valid_rows, dst.valid_cols, k_value.valid_rows,
                                        k_value.valid_cols, cdst.valid_rows, cdst.valid_cols);
    if (shapes_known && !rules::tgather_cmp_shape_ok(src.valid_rows, src.valid_cols, dst.valid_rows, dst.valid_cols,
                                     vector_length(k_value), vector_length(cdst))) {
        const bool dst_small = dst.valid_rows < src.valid_rows || dst.valid_cols < src.valid_cols;
        const bool k_bad = vector_length(k_value) < src.valid_rows;
        const TileDesc& bad = dst_small ? dst : (k_bad ? k_value : cdst);
        report(sink, "LEGAL_TGATHER_SHAPE", dst_small ? "dst" : (k_bad ? "k_value" : "cdst"),
               dst_small ? "dst needs a row per src row with room for every src column"
                         : "a per-row operand is one row or one column with an element per src row",
               dst_small ? "at least " + shape(src.valid_rows, src.valid_cols) + " valid"
                         : "1x" + std::to_string(src.valid_rows) + " or " + std::to_string(src.valid_rows) + "x1",
               shape(bad.valid_rows, bad.valid_cols));
    }
}

void tgather_index(const TileDesc& dst, const TileDesc& src, const TileDesc& indices, const TileDesc* tmp)
{
    PTO_HOLD_BACK("TGATHER", tgather_index, dst, src, indices, tmp);
    runtime::InstructionScope scope("TGATHER");
    StopAtFirstFinding stop;
    check_tgather_index(runtime::active_profile(), dst, src, indices, tmp, stop);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& s) {
        check_tgather_index(p, dst, src, indices, tmp, s);
    });
    if (dst.valid_rows == 0 || dst.valid_cols == 0) return;
    require_written(src, "src0");
    TileDesc index_read = indices;
    index_read.valid_rows = dst.valid_rows;
    index_read.valid_cols = dst.valid_cols;
    require_written(index_read, "indices");
    if (runtime::checked()) {
        if (indices.element_bits() == 32) {
            check_indices<uint32_t>(dst, src, indices);
        } else {
            check_indices<uint16_t>(dst, src, indices);
        }
    }

    const auto last = static_cast<uint32_t>(src.elements() - 1);
    if (dst.rows_contiguous() && src.rows_contiguous() && indices.rows_contiguous()) {
        gather::gather_rows(
            dst.element_bits(), indices.element_bits(),
            {dst.data, dst.cols, src.data, last, indices.data, indices.cols, dst.valid_rows, dst.valid_cols});
    } else {
        gather::gather_tiles(dst, src, indices, last);
    }
    mark_written(dst);
}

void tgather_mask(const TileDesc& dst, const TileDesc& src, MaskPattern pattern, GatherAxis axis)
{
    PTO_HOLD_BACK("TGATHER", tgather_mask, dst, src, pattern, axis);
    runtime::InstructionScope scope("TGATHER");
    StopAtFirstFinding stop;
    check_tgather_mask(runtime::active_profile(), dst, src, axis, stop);
    if (dst.valid_rows == 0 || dst.valid_cols == 0) return;
    require_written(src, "src");
    const gather::MaskSelection keep = gather::selection_of(pattern);
    if (axis == GatherAxis::GATHER_ROW) {
        mark_written_prefix(dst, gather::gather_kept_columns(dst, src, keep));
    } else {
        mark_written(dst, gather::gather_kept_rows(dst, src, keep), dst.valid_cols);
    }
}

void tgather_compare(const TileDesc& dst, const TileDesc& src, const TileDesc& k_value, const TileDesc& cdst,
                     const TileDesc* tmp, CmpMode mode, uint32_t offset)
{
    PTO_HOLD_BACK("TGATHER", tgather_compare, dst, src, k_value, cdst, tmp, mode, offset);
    runtime::InstructionScope scope("TGATHER");
    StopAtFirstFinding stop;
    check_tgather_compare(runtime::active_profile(), dst, src, k_value, cdst, tmp, mode, stop);
    if (src.valid_rows == 0) return;
    require_written(src, "src0");
    require_written(vector_prefix(k_value, src.valid_rows), "k_value");
    gather::gather_matches(dst, src, k_value, cdst, mode, offset);
    if (runtime::checked()) {
        for (int r = 0; r < src.valid_rows; ++r) {
            uint32_t count;
            std::memcpy(&count, cdst.data + gather::vector_element(cdst, r) * sizeof(uint32_t), sizeof count);
            TileDesc row = dst;
            row.data = element_address(dst, dst.offset(r, 0));
            row.rows = 1;
            mark_written(row, 1, static_cast<int>(count));
        }
    }
    mark_written(vector_prefix(cdst, src.valid_rows));
}

}  // namespace pto::engine
