// MGATHER, GM -> L1: an ND table read through a GM index tensor into an NZ Mat tile, the form a matmul
// consumes. Row converts each gathered row ND -> NZ in flight; Elem stages the NZ image in a GM scratch
// (scalar walk, or A5's SIMT executor) and then copies the whole image into L1.
#include <pto/engine/ops/memory_gather.hpp>

#include <pto/engine/access.hpp>
#include <pto/profile/rules_memory_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>

#include "gather_kernels.hpp"
#include "gm_table.hpp"
#include "indices.hpp"
#include "operand_rules.hpp"
#include "words.hpp"

namespace pto::engine {

using namespace memory_gather;

namespace {

// Validates the operands both GM -> L1 forms share; returns the table's geometry.
TableGeometry check_l1_operands(const profile::Profile& p, const TileDesc& dst, const GlobalDesc& table,
                                const GlobalDesc& idx, Coalesce mode, bool has_scratch)
{
    const RuleCodes& codes = kGatherCodes;
    check_tile_descriptor(dst, "dst");
    if (!rules::l1_gather_tile_ok(dst.loc, dst.blayout, dst.slayout, dst.fractal_bytes)) {
        runtime::fail({codes.location, "", "dst",
                       "a GM index gathers into an L1 (Mat) tile in NZ form (ColMajor boxes of RowMajor 512-byte "
                       "fractals)",
                       "Mat NZ tile", std::string(profile::memory_name(dst.loc)) + " tile", ""});
    }
    if (!rules::l1_gather_form_ok(mode, has_scratch)) {
        runtime::fail({"LEGAL_MGATHER_FORM", "", has_scratch ? "scratch" : "dst",
                       has_scratch ? "Coalesce::Row into L1 takes three operands (no scratch)"
                                   : "Coalesce::Elem into L1 stages through a GM scratch: use the four-operand form",
                       has_scratch ? "Coalesce::Elem with a scratch" : "a scratch operand",
                       mode == Coalesce::Row ? "Coalesce::Row" : "Coalesce::Elem", ""});
    }
    check_element_dtype(codes, p, dst.dtype, "dst");
    if (!rules::l1_gather_dtype_ok(p, mode, dst.dtype)) {
        runtime::fail({codes.dtype, "", "dst", "the ND -> NZ row engine moves elements of at most 32 bits",
                       "8-, 16- or 32-bit elements", std::string(dtype_name(dst.dtype)), ""});
    }
    const int bits = dst.element_bits();
    if (!rules::nz_tile_shape_ok(dst.rows, dst.cols, bits)) {
        runtime::fail({codes.nz_shape, "", "dst", "an NZ tile must be a whole number of 16 x 32-byte fractals",
                       "Rows % 16 == 0 and Cols % " + std::to_string(rules::nz_c0_elements(bits)) + " == 0",
                       shape_text(dst.rows, dst.cols), ""});
    }
    if (!rules::indexed_valid_shape_ok(dst.valid_rows, dst.valid_cols)) {
        runtime::fail({codes.valid_shape, "", "dst", "the valid region is empty", "at least [1, 1]",
                       shape_text(dst.valid_rows, dst.valid_cols), ""});
    }

    check_table_layout(codes, p, table, rules::l1_gather_table_layout_ok(table.layout), "ND");
    check_table_dtype(codes, table, dst.dtype, "table");
    check_global_view(table, "table");
    if (mode == Coalesce::Row) {
        if (!rules::row_table_contiguous_ok(table.stride[4])) {
            runtime::fail({codes.table_stride, "", "table", "a Row transfer moves each table row as one contiguous burst",
                           "Stride[4] == 1", std::to_string(table.stride[4]), ""});
        }
        if (!rules::row_width_fits(table.shape[4], dst.valid_cols)) {
            runtime::fail({codes.table_width, "", "table", "the tile's valid columns exceed the table's row width",
                           "Shape[4] >= " + std::to_string(dst.valid_cols), std::to_string(table.shape[4]), ""});
        }
    }
    const TableGeometry geo = nd_table_geometry(table, RowCount::OuterDimsFolded, dst.valid_cols);
    check_global_reach(table, geo.reach(mode), "table");

    check_global_view(idx, "idx");
    if (!rules::index_dtype_ok(idx.dtype)) {
        runtime::fail({codes.index_dtype, "", "idx", "indices must be 32-bit integers", "i32 or u32",
                       std::string(dtype_name(idx.dtype)), ""});
    }
    const int64_t index_rows = idx.shape[0] * idx.shape[1] * idx.shape[2] * idx.shape[3];
    if (!rules::gm_index_shape_ok(mode, index_rows, idx.shape[4], dst.valid_rows, dst.valid_cols)) {
        runtime::fail({codes.index_shape, "", "idx",
                       mode == Coalesce::Row ? "the index tensor holds fewer indices than the destination has rows"
                                             : "the index tensor does not cover the destination's valid region",
                       mode == Coalesce::Row ? "at least " + std::to_string(dst.valid_rows) + " indices"
                                             : "at least " + shape_text(dst.valid_rows, dst.valid_cols),
                       shape_text(index_rows, idx.shape[4]), ""});
    }
    check_global_reach(idx, view_span(idx), "idx");
    return geo;
}

void report_if_out_of_range(const TileDesc& dst, const GlobalDesc& idx, Coalesce mode, GatherOOB oob, uint64_t extent)
{
    if (oob != GatherOOB::Undefined || !runtime::checked()) return;
    const GlobalIndices at{&idx};
    const auto line = GlobalIndices::line(idx);
    const OutOfRange bad =
        mode == Coalesce::Row
            ? first_out_of_range(dst.valid_rows, 1, extent, [&](int64_t r, int64_t) { return line(r); })
            : first_out_of_range(dst.valid_rows, dst.valid_cols, extent, at);
    if (bad.found) report_index_out_of_range("RUN_GATHER_INDEX", "destination", "GatherOOB::Undefined", mode, bad, extent);
}

}  // namespace

void mgather_l1(const TileDesc& dst, const GlobalDesc& table, const GlobalDesc& idx, Coalesce mode, GatherOOB oob)
{
    runtime::InstructionScope scope("MGATHER");
    const profile::Profile& p = runtime::active_profile();
    const TableGeometry geo = check_l1_operands(p, dst, table, idx, mode, false);
    report_if_out_of_range(dst, idx, mode, oob, geo.rows);

    // The Zero policy clears the whole L1 tile once, then skips the DMA of out-of-range rows.
    const bool zero_whole_tile = oob == GatherOOB::Zero;
    if (zero_whole_tile) std::memset(dst.data, 0, size_t(dst.bytes()));
    with_word(dst.element_bits() / 8, [&](auto word) {
        using Word = decltype(word);
        with_rule(index_rule(oob), [&](auto rule) {
            gather_rows<Word, decltype(rule)::value>(dst, NdTable(table), geo.rows, GlobalIndices::line(idx));
        });
    });
    if (zero_whole_tile) mark_written(dst, dst.rows, dst.cols);
    else mark_written(dst);
}

void mgather_l1(const TileDesc& dst, const GlobalDesc& table, const GlobalDesc& idx, const GlobalDesc& scratch,
                Coalesce mode, GatherOOB oob, GatherExec exec)
{
    runtime::InstructionScope scope("MGATHER");
    const profile::Profile& p = runtime::active_profile();
    const TableGeometry geo = check_l1_operands(p, dst, table, idx, mode, true);
    if (!rules::gather_exec_ok(p, exec)) {
        runtime::fail({"LEGAL_MGATHER_EXEC", "", "exec",
                       "the SIMT executor needs A5's vector core; " + std::string(p.name) + " has no SIMT engine",
                       "GatherExec::Scalar", "GatherExec::Simt", ""});
    }
    check_global_view(scratch, "scratch");
    if (scratch.dtype != dst.dtype) {
        runtime::fail({"LEGAL_MGATHER_SCRATCH", "", "scratch", "the scratch's element type differs from the tile's",
                       std::string(dtype_name(dst.dtype)), std::string(dtype_name(scratch.dtype)), ""});
    }
    if (!rules::l1_scratch_size_ok(view_elements(scratch), dst.rows, dst.cols)) {
        runtime::fail({"LEGAL_MGATHER_SCRATCH", "", "scratch",
                       "the scratch must hold the destination's whole Rows x Cols NZ image",
                       "at least " + std::to_string(dst.elements()) + " elements",
                       std::to_string(view_elements(scratch)), ""});
    }
    check_global_reach(scratch, dst.elements(), "scratch");
    report_if_out_of_range(dst, idx, mode, oob, geo.size);

    // The scratch holds the tile's NZ image: a descriptor of the tile's shape over the scratch.
    TileDesc image = dst;
    image.data = scratch.data;
    with_word(dst.element_bits() / 8, [&](auto word) {
        using Word = decltype(word);
        with_rule(index_rule(oob), [&](auto rule) {
            constexpr IndexRule Rule = decltype(rule)::value;
            if (exec == GatherExec::Simt) {
                gather_nz_image_by_offset<Word, Rule>(image, NdTable(table), geo.size, GlobalIndices{&idx});
            } else {
                std::memset(image.data, 0, size_t(image.bytes()));  // padding and dropped lanes stay zero
                gather_elements<Word, Rule>(image, NdTable(table), geo.size, GlobalIndices{&idx});
            }
        });
    });
    std::memcpy(dst.data, scratch.data, size_t(dst.bytes()));
    mark_written(dst, dst.rows, dst.cols);
}

}  // namespace pto::engine
