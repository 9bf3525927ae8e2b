// MGATHER, GM -> L1: an ND table read through a GM index tensor into an NZ Mat tile, the form a matmul
// consumes. Row converts each gathered row ND -> NZ in flight; Elem stages the NZ image in a GM scratch
// (scalar walk, or A5's SIMT executor) and then copies the whole image into L1.
#include <pto/engine/ops/memory_gather.hpp>

#include <pto/engine/access.hpp>
#include <pto/profile/rules_memory_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"

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

// The run-time facts of the operands both GM -> L1 forms share, and their legality on `p`; returns the
// table's geometry.
TableGeometry check_l1_operands(const profile::Profile& p, const TileDesc& dst, const GlobalDesc& table,
                                const GlobalDesc& idx, const GlobalDesc* scratch, Coalesce mode, GatherExec exec)
{
    check_tile_descriptor(dst, "dst");
    check_global_view(table, "table");
    check_global_view(idx, "idx");
    if (scratch) check_global_view(*scratch, "scratch");
    StopAtFirstFinding stop;
    check_mgather_l1(p, dst, table, idx, scratch, mode, exec, stop);
    const TableGeometry geo = nd_table_geometry(table, RowCount::OuterDimsFolded, dst.valid_cols);
    check_global_reach(table, geo.reach(mode), "table");
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
    PTO_HOLD_BACK("MGATHER", mgather_l1, dst, table, idx, mode, oob);
    runtime::InstructionScope scope("MGATHER");
    const profile::Profile& p = runtime::active_profile();
    const TableGeometry geo = check_l1_operands(p, dst, table, idx, nullptr, mode, GatherExec::Scalar);
    report_if_out_of_range(dst, idx, mode, oob, geo.rows);

    // The Zero policy clears the whole L1 tile once, then skips the DMA of out-of-range rows.
    const bool zero_whole_tile = oob == GatherOOB::Zero;
    if (zero_whole_tile) {
        runtime::require_tile_bytes(dst.data, dst.bytes(), "its capacity, which the Zero policy clears,", "dst");
        std::memset(dst.data, 0, size_t(dst.bytes()));
    }
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
    PTO_HOLD_BACK("MGATHER", mgather_l1, dst, table, idx, scratch, mode, oob, exec);
    runtime::InstructionScope scope("MGATHER");
    const profile::Profile& p = runtime::active_profile();
    const TableGeometry geo = check_l1_operands(p, dst, table, idx, &scratch, mode, exec);
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
    runtime::require_tile_bytes(dst.data, dst.bytes(), "its capacity, which the scratch image fills,", "dst");
    std::memcpy(dst.data, scratch.data, size_t(dst.bytes()));
    mark_written(dst, dst.rows, dst.cols);
}

}  // namespace pto::engine
