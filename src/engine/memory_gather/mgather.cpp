// MGATHER, GM -> UB: a GM table read through a UB index tile into a UB tile.
#include <pto/engine/ops/memory_gather.hpp>

#include <pto/engine/access.hpp>
#include <pto/profile/rules_memory_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"

#include <cstring>

#include "gather_kernels.hpp"
#include "gm_table.hpp"
#include "indices.hpp"
#include "operand_rules.hpp"
#include "words.hpp"

namespace pto::engine {

using namespace memory_gather;

void mgather(const TileDesc& dst, const GlobalDesc& table, const TileDesc& idx, Coalesce mode, GatherOOB oob)
{
    PTO_HOLD_BACK("MGATHER", mgather, dst, table, idx, mode, oob);
    runtime::InstructionScope scope("MGATHER");
    const profile::Profile& p = runtime::active_profile();
    check_tile_descriptor(dst, "dst");
    check_tile_descriptor(idx, "idx");
    check_global_view(table, "table");
    StopAtFirstFinding stop;
    check_mgather(p, dst, table, idx, mode, stop);
    const TableGeometry geo = ub_table_geometry(p, table, dst);
    check_global_reach(table, geo.reach(mode), "table");
    require_written(idx, "idx");

    const uint64_t extent = geo.extent(mode);
    const bool rows = mode == Coalesce::Row;
    if (oob == GatherOOB::Undefined && runtime::checked()) {
        const auto line = TileIndices::line(idx);
        const TileIndices at(idx);
        const OutOfRange bad =
            rows ? first_out_of_range(dst.valid_rows, 1, extent, [&](int64_t r, int64_t) { return line(r); })
                 : first_out_of_range(dst.valid_rows, dst.valid_cols, extent, at);
        if (bad.found) report_index_out_of_range("RUN_GATHER_INDEX", "destination", "GatherOOB::Undefined", mode, bad, extent);
    }

    // A2/A3 zero-fills an NZ destination once before its Row DMA loop and skips out-of-range rows.
    const bool zero_whole_tile = rows && oob == GatherOOB::Zero && dst.boxed();
    if (zero_whole_tile) {
        runtime::require_tile_bytes(dst.data, dst.bytes(), "its capacity, which the Zero policy clears,", "dst");
        std::memset(dst.data, 0, size_t(dst.bytes()));
    }

    with_word(dst.element_bits() / 8, [&](auto word) {
        using Word = decltype(word);
        with_rule(index_rule(oob), [&](auto rule) {
            constexpr IndexRule Rule = decltype(rule)::value;
            auto run = [&](const auto& addressing) {
                note_table_footprint<Rule>(addressing, int(sizeof(Word)), extent, mode, dst.valid_rows, dst.valid_cols,
                                           TileIndices::line(idx), TileIndices(idx), false);
                if (rows) gather_rows<Word, Rule>(dst, addressing, extent, TileIndices::line(idx));
                else gather_elements<Word, Rule>(dst, addressing, extent, TileIndices(idx));
            };
            if (table.layout == Layout::NZ) run(NzTable(table, dst.element_bits()));
            else run(NdTable(table));
        });
    });

    if (zero_whole_tile) mark_written(dst, dst.rows, dst.cols);
    else mark_written(dst);
}

}  // namespace pto::engine
