// TMOV's 3-operand form: MX exponents repacked into the ZZ order the cube reads its scales in.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstdint>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/data_movement/operand_checks.hpp"
#include "engine/quant/zz_order.hpp"

namespace pto::engine {

namespace dm = data_movement;

namespace {

std::string extent(int rows, int cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// The exponent grid of src: rows x groups, ND as stored, DN transposed.
struct ExponentGrid {
    int rows, groups;
};

ExponentGrid grid_of(const TileDesc& src, int grp_axis)
{
    return grp_axis == 1 ? ExponentGrid{src.valid_rows, src.valid_cols} : ExponentGrid{src.valid_cols, src.valid_rows};
}

}  // namespace

void check_tmov_zz(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& tmp,
                   int grp_axis, LegalitySink& sink)
{
    if (!rules::tmov_zz_form_ok(p)) {
        dm::report_rule(sink, p, "LEGAL_TMOV_ZZ", "dst", "the ZZ exponent repack is an A5 instruction",
                        "the a5 or cpu profile", std::string(p.name));
    }
    if (!rules::tmov_zz_operands_ok(src.loc, dst.loc, src.dtype, dst.dtype, grp_axis)) {
        dm::report_rule(sink, p, "LEGAL_TMOV_ZZ", "src",
                        "the ZZ repack moves E8M0 exponent bytes from a Vec tile into a Vec or Mat tile, grouped "
                        "along axis 0 or 1",
                        "u8/f8e8m0 Vec -> the same type in Vec/Mat, grp_axis 0 or 1",
                        std::string(dtype_name(src.dtype)) + " " + dm::location_name(src.loc) + " -> " +
                            std::string(dtype_name(dst.dtype)) + " " + dm::location_name(dst.loc) + ", grp_axis " +
                            std::to_string(grp_axis));
    }
    if (tmp.loc != TileType::Vec) {
        dm::report_rule(sink, p, "LEGAL_TMOV_ZZ", "tmp", "tmp is a Vec tile", "a Vec tile", dm::location_name(tmp.loc));
    }
    if (!all_known(src.valid_rows, src.valid_cols)) return;
    if (!rules::tmov_zz_extent_ok(grp_axis, src.valid_rows, src.valid_cols)) {
        report(sink, "RUN_VALID_SHAPE", "src", "the ZZ order takes whole blocks of 16 rows x 2 groups",
               grp_axis == 1 ? "valid rows a multiple of 16, valid columns (groups) even"
                             : "valid rows (groups) even, valid columns a multiple of 16",
               extent(src.valid_rows, src.valid_cols));
    }
    if (dst.elements() < int64_t(src.valid_rows) * src.valid_cols) {
        report(sink, "RUN_VALID_SHAPE", "dst", "too small for the exponents of src's valid region",
               "at least " + std::to_string(int64_t(src.valid_rows) * src.valid_cols) + " elements",
               extent(dst.rows, dst.cols));
    }
}

void tmov_zz(const TileDesc& dst, const TileDesc& src, const TileDesc& tmp, int grp_axis)
{
    PTO_HOLD_BACK("TMOV", tmov_zz, dst, src, tmp, grp_axis);
    runtime::InstructionScope scope("TMOV");
    dm::check_tile(dst, "dst");
    dm::check_tile(src, "src");
    StopAtFirstFinding stop;
    check_tmov_zz(runtime::active_profile(), dst, src, tmp, grp_axis, stop);
    require_written(src, "src");
    const ExponentGrid grid = grid_of(src, grp_axis);
    auto* out = reinterpret_cast<uint8_t*>(dst.data);
    const auto* in = reinterpret_cast<const uint8_t*>(src.data);
    for (int row = 0; row < grid.rows; ++row)
        for (int group = 0; group < grid.groups; ++group)
            out[zz_exponent_index(row, group, grid.groups)] = in[grp_axis == 1 ? src.offset(row, group) : src.offset(group, row)];
    mark_storage_prefix_written(dst, int64_t(grid.rows) * grid.groups);
}

}  // namespace pto::engine
